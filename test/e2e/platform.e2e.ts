import type { BrowserContext, Frame, Page } from 'playwright-core';
import { DEMO_ACCOUNTS } from '../../server/accounts/demoAccounts';
import { framingPage, startHostServer, startServer, type HostServer, type RunningServer } from './helpers/servers';
import { embedFrame, launchProfileBrowser, until, type ProfileBrowser } from './telemetry.helpers';

/**
 * Issue 14 in the browser: the viewer features of the framed embed (host on `localhost`, embed on `127.0.0.1`) over the
 * platform calls, against the real server, its accounts, its attestation program and its SQLite state. What the
 * server holds is read back through a second page load, never taken from what the page says it did.
 */

jest.setTimeout(120_000);
const { ada } = DEMO_ACCOUNTS;
const VIDEO = 'VFsunrise01';
const CHANNEL = 'UCvidframeSamples0000000';

let server: RunningServer;
let host: HostServer;
let profile: ProfileBrowser;
let context: BrowserContext;

beforeAll(async () => {
  [server, host, profile] = await Promise.all([startServer(), startHostServer(), launchProfileBrowser()]);
  context = profile.context;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
});
afterAll(async () => {
  await profile?.close();
  await host?.close();
  await server?.close();
});

/** A host page on another origin framing the embed, with clipboard-write delegated as the embed code asks. */
async function open(query = '', page?: Page): Promise<{ page: Page; frame: Frame }> {
  const tab = page ?? (await context.newPage());
  const html = framingPage(`${server.origin}/embed/${VIDEO}?${query}`).replace('allow="autoplay; fullscreen"', 'allow="autoplay; fullscreen; clipboard-write"');
  await tab.goto(host.page(`/host-${Math.random().toString(36).slice(2)}.html`, html));
  const frame = await embedFrame(tab);
  await frame.waitForSelector('[data-readiness="ready"]');
  // The viewer's state of the video is known once the channel bar shows its Subscribe button.
  await frame.waitForSelector('.vf-subscribe');
  return { page: tab, frame };
}

/** Signs in through the embed's "Sign in" and the pop-up on our own origin, as a viewer does. */
async function signIn(frame: Frame) {
  const popupOpened = context.waitForEvent('page');
  await frame.click('.vf-account-button');
  const popup = await popupOpened;
  const form = await Promise.race([popup.waitForSelector('input[name="email"]').catch(() => null), popup.waitForEvent('close').then(() => null)]);
  if (form) {
    await popup.fill('input[name="email"]', ada.email);
    await popup.fill('input[name="password"]', ada.password);
    await popup.click('button[type="submit"]');
  }
  await frame.waitForSelector('[data-signed-in="true"]');
}

const readClipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
/** Copying is asynchronous after the press: the clipboard's text once it is `expected` (or the last text read). */
const clipboardOnce = (page: Page, expected: (text: string) => boolean) =>
  until(() => readClipboard(page), expected, 'the copied text', 10_000).catch(() => readClipboard(page));

describe('issue 14: the viewer features of the embed', () => {
  it('invites a signed-out viewer to sign in instead of failing, for subscribe and for watch later', async () => {
    const { page, frame } = await open();
    expect(await frame.textContent('.vf-channel .vf-author')).toBe('VidFrame Samples');
    await frame.click('.vf-subscribe');
    expect(await frame.textContent('.vf-invite')).toContain('Sign in to subscribe to VidFrame Samples.');
    // Focus is on the invitation's "Sign in"; Escape closes it and gives focus back to Subscribe.
    expect(await frame.evaluate(() => document.activeElement?.textContent)).toBe('Sign in');
    await frame.press('.vf-invite button', 'Escape');
    expect(await frame.$('.vf-invite')).toBeNull();
    expect(await frame.evaluate(() => document.activeElement?.classList.contains('vf-subscribe'))).toBe(true);
    await frame.click('.vf-watch-later');
    expect(await frame.textContent('.vf-invite')).toContain('Sign in to save this video to Watch later.');
    await page.close();
  });

  it('share copies the video link, the link at the current time, the playlist link and the embed code', async () => {
    const { page, frame } = await open('list=PLvfDemoPlaylist01&start=5');
    await frame.waitForFunction(() => ((document.querySelector('video') as HTMLVideoElement | null)?.currentTime ?? 0) >= 5);
    await frame.click('.vf-share-button');
    await frame.waitForSelector('[data-share="video"] .vf-copy');
    await frame.click('[data-share="video"] .vf-copy');
    await frame.waitForSelector('text=Copied video link');
    expect(await clipboardOnce(page, (t) => t === `${server.origin}/watch?v=${VIDEO}`)).toBe(`${server.origin}/watch?v=${VIDEO}`);

    await frame.check('.vf-share-attime input');
    await frame.click('[data-share="video"] .vf-copy');
    expect(await clipboardOnce(page, (t) => t.endsWith('&t=5s'))).toBe(`${server.origin}/watch?v=${VIDEO}&t=5s`);

    await frame.click('[data-share="playlist"] .vf-copy');
    expect(await clipboardOnce(page, (t) => t.includes('list='))).toBe(`${server.origin}/watch?v=${VIDEO}&list=PLvfDemoPlaylist01`);

    await frame.click('[data-share="embed"] .vf-copy');
    const code = await clipboardOnce(page, (t) => t.startsWith('<iframe'));
    expect(code).toContain(`src="${server.origin}/embed/${VIDEO}?list=PLvfDemoPlaylist01"`);
    expect(code).toMatch(/^<iframe .*allowfullscreen><\/iframe>$/);

    // The copied link really opens the video: /watch redirects to the embed page at that time.
    const watch = await fetch(`${server.origin}/watch?v=${VIDEO}&t=5s`, { redirect: 'manual' });
    expect(watch.status).toBe(302);
    expect(watch.headers.get('location')).toContain(`/embed/${VIDEO}`);
    await frame.press('.vf-share', 'Escape');
    expect(await frame.$('.vf-share')).toBeNull();
    await page.close();
  });

  it('signed in, subscribe (with an attestation token), the bell and watch later are kept by the server', async () => {
    const { page, frame } = await open();
    await signIn(frame);
    await frame.click('.vf-subscribe');
    await frame.waitForSelector('.vf-subscribe[aria-pressed="true"]');
    expect(await frame.evaluate(() => window.vidframeAttestation?.state)).toBe(6);
    await frame.click('.vf-bell');
    await frame.click('.vf-bell-menu >> text=All');
    await frame.waitForSelector('.vf-bell[aria-label="Notifications: All"]');
    await frame.click('.vf-watch-later');
    await frame.waitForSelector('.vf-watch-later[aria-pressed="true"]');

    // A new page (same viewer, signed in again: the pop-up hands the first-party session over) reads it all back.
    const again = await open('', page);
    await signIn(again.frame);
    await again.frame.waitForSelector('.vf-subscribe[aria-pressed="true"]');
    await again.frame.waitForSelector('.vf-bell[aria-label="Notifications: All"]');
    await again.frame.waitForSelector('.vf-watch-later[aria-pressed="true"]');

    // Undo both, and the server says so too.
    await again.frame.click('.vf-watch-later');
    await again.frame.waitForSelector('.vf-watch-later[aria-pressed="false"]');
    await again.frame.click('.vf-subscribe');
    await again.frame.waitForSelector('.vf-subscribe[aria-pressed="false"]');
    const state = await again.frame.evaluate(async (videoId) => {
      const result = await new Promise<unknown>((resolve) => window.vidframePlatform!.videoViewerState(videoId).subscribe(resolve));
      return result as { ok: boolean; body: { channel: { subscribed?: boolean }; inWatchLater?: boolean } };
    }, VIDEO);
    expect(state.ok).toBe(true);
    expect(state.body.channel.subscribed).toBe(false);
    expect(state.body.inWatchLater).toBe(false);
    await page.close();
  });

  it('the server refuses a subscribe whose attestation token is missing, forged or used twice', async () => {
    const { page, frame } = await open();
    await signIn(frame);
    const outcomes = await frame.evaluate(async (channelId) => {
      const subscribe = (botguardResponse?: string) =>
        new Promise<{ ok: boolean; status?: number }>((resolve) =>
          window.vidframePlatform!.subscribe({ channelId, source: 'test', botguardResponse }).subscribe((r) => resolve(r as never)),
        );
      const token = await window.vidframeAttestation!.response();
      return {
        missing: await subscribe(undefined),
        forged: await subscribe('vfatt1.forged.token'),
        fresh: await subscribe(token),
        replayed: await subscribe(token),
      };
    }, CHANNEL);
    expect(outcomes.missing).toMatchObject({ ok: false, status: 403 });
    expect(outcomes.forged).toMatchObject({ ok: false, status: 403 });
    expect(outcomes.fresh).toMatchObject({ ok: true, status: 200 });
    expect(outcomes.replayed).toMatchObject({ ok: false, status: 403 });
    await page.close();
  });

  it('an HTTP 500 on a call logs "API fetch failed", the caller sees the status, and the share panel says so', async () => {
    const { page, frame } = await open();
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    await page.route('**/youtubei/v1/share/get_share_panel**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 500, message: 'Backend unavailable' } }) }),
    );
    const result = await frame.evaluate(
      (videoId) => new Promise<unknown>((resolve) => window.vidframePlatform!.getSharePanel({ videoId }).subscribe(resolve)),
      VIDEO,
    );
    expect(result).toMatchObject({
      ok: false,
      kind: 'http',
      status: 500,
      message: 'Error: API fetch failed',
      body: { error: { message: 'Backend unavailable' }, errorMetadata: { status: 500 } },
    });
    expect(logged.some((line) => line.includes('API fetch failed'))).toBe(true);
    await frame.click('.vf-share-button');
    expect(await (await frame.waitForSelector('.vf-share [role="alert"]')).textContent()).toContain('Backend unavailable');
    await page.close();
  });

  it('"Not interested" and a report on the end screen are accepted by the server', async () => {
    const { page, frame } = await open('start=11');
    await frame.evaluate(() => window.vidframePlayer!.command({ type: 'play' }));
    await frame.waitForSelector('.vf-endscreen .vf-feedback', { timeout: 30_000 });
    await frame.click('.vf-feedback >> text=Report');
    await frame.check('.vf-report-reason >> nth=0');
    await frame.click('.vf-report button[type="submit"]');
    expect(await (await frame.waitForSelector('.vf-feedback-done')).textContent()).toContain('Thanks for reporting');
    await page.close();
  });
});
