import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';

/** Debian's Chromium (installed by .ci/run), overridable with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The launch flags every browser test uses (no background networking: this machine's network is closed). */
export const BASE_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--mute-audio',
];

/**
 * A real Chromium. By default it lets pages start playback without a gesture; `autoplay: 'gesture'` keeps the
 * browser's own policy (unmuted autoplay in a cross-origin frame is refused), for the autoplay-blocked paths.
 */
export function launchBrowser({ autoplay = 'allowed' }: { autoplay?: 'allowed' | 'gesture' } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...BASE_FLAGS, `--autoplay-policy=${autoplay === 'allowed' ? 'no-user-gesture-required' : 'document-user-activation-required'}`],
  });
}

/** The frame of the page whose URL contains `part` (the embed, framed on another origin), once it has loaded. */
export async function frameWith(page: Page, part: string): Promise<Frame> {
  for (;;) {
    const frame = page.frames().find((f) => f.url().includes(part));
    if (frame) {
      await frame.waitForLoadState('load');
      return frame;
    }
    await page.waitForEvent('frameattached');
  }
}

/**
 * The viewer reaching for the player: the pointer over it. A video playing on its own loads its controls only then
 * (issue 15); resolves once they are mounted (the controls mark the player with `data-controls-visible`).
 */
export async function reachForPlayer(frame: Frame): Promise<void> {
  await frame.hover('.vf-player');
  await frame.waitForSelector('.vf-player[data-controls-visible]', { state: 'attached' });
}

/**
 * Resolves once the page's services (logging, consent, attestation, the platform calls) have started: they come in
 * their own chunk once the player is ready, the page loaded and the main thread idle (issue 15), so `ready` alone does
 * not say they are there.
 */
export async function servicesStarted(frame: Frame): Promise<void> {
  await frame.waitForFunction(() => window.vidframeTelemetry !== undefined);
}

/**
 * A real Chromium with a regular (on-disk, throw-away) profile, driven over CDP. The telemetry tests need it for two
 * reasons, both checked in this Chromium:
 *
 * - **IndexedDB in the framed embed.** Playwright's contexts are off-the-record; there Chromium refuses IndexedDB to a
 *   third-party frame (`UnknownError: The user denied permission to access the database.`), so the retry queue would
 *   only ever run in memory. A regular profile gives the frame its own partitioned IndexedDB, as a visitor's browser does.
 * - **Tabs that really hide.** Playwright turns on CDP focus emulation for every page it creates, and Chromium keeps an
 *   emulated-focus page visible, so a launched browser never fires `visibilitychange`. Connected with `noDefaults`, the
 *   default context's pages skip that override: bringing another tab to the front hides the first one
 *   (`visibilityState` `hidden`, a real `visibilitychange`), bringing it back shows it — in headless Chromium.
 *
 * Pages are tabs of one window; closing one leaves the profile (and its keepalive requests in flight) alive, unlike
 * `browser.newPage()`, whose page owns a context that closes with it.
 */
export interface ProfileBrowser {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchProfileBrowser(): Promise<ProfileBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'vidframe-tabs-'));
  const child: ChildProcess = spawn(
    CHROMIUM_PATH,
    [
      ...BASE_FLAGS,
      '--no-default-browser-check',
      '--autoplay-policy=no-user-gesture-required',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  /** Ends the Chromium and removes its profile; safe to call whatever state the launch got to. */
  const end = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
    // Chromium's helper processes may still be writing into the profile for a moment after the main one exits;
    // a temporary profile left behind is harmless, a cleanup error must not fail the suite.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch {
      /* left in the temp folder */
    }
  };
  let browser: Browser;
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools endpoint: ${seen.slice(0, 500)}`)), 20_000);
      child.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${seen.slice(0, 500)}`)));
    });
    child.stderr!.resume();
    // `noDefaults` is passed through by playwright-core but not in its public types.
    const options = { noDefaults: true } as { timeout?: number };
    browser = await chromium.connectOverCDP(endpoint, options);
  } catch (error) {
    // A launch that failed half-way leaves no Chromium running and no profile behind.
    await end();
    throw error;
  }
  return {
    browser,
    context: browser.contexts()[0],
    close: async () => {
      await browser.close().catch(() => undefined);
      await end();
    },
  };
}
