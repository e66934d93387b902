import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

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
