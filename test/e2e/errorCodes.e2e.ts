import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { DEMO_ACCOUNTS } from '../../server/accounts/demoAccounts';
import type { HostServer, RunningServer } from './helpers/servers';
import { frameWith, reachForPlayer } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';
import { rawHostPage, waitCache, waitMessage } from './host.helpers';

/**
 * Every code of spec §8's player table reaches a host page on another origin through its `onError`, from a real
 * video or command of the reference server's catalogue: 2 (a malformed id), 5 (a video that cannot play), 150 (a
 * video for signed-in viewers; a playback its heartbeat stops; a heartbeat that keeps failing), 151 (a video blocked
 * in the viewer's region, the client context's `gl`) and 152 (a video its owner does not allow embedded). After each
 * error the player still answers: a following `loadVideoById` of a good video plays.
 */
jest.setTimeout(90_000);

let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

const jsapi = () => `enablejsapi=1&origin=${encodeURIComponent(host.origin)}&widgetid=1`;

/** A raw host page (its own postMessage script) framing the embed of `videoId`, in `context` (its locale is the `gl`). */
async function openHost(videoId: string, { context, query = 'autoplay=0' }: { context?: BrowserContext; query?: string } = {}): Promise<Page> {
  const page = context ? await context.newPage() : await browser.newPage();
  const embedUrl = `${server.origin}/embed/${videoId}?${jsapi()}&${query}`;
  await page.goto(host.page(`/errors-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
  await waitMessage(page, 'onReady');
  await page.evaluate(() => window.send('addEventListener', ['onError']));
  await page.evaluate(() => window.send('addEventListener', ['onStateChange']));
  return page;
}

/** Every `onError` the host received, in order. */
const errorsOf = (page: Page) => page.evaluate(() => window.received.filter((m) => m.event === 'onError').map((m) => m.info));

/** Waits for the host's `n`-th `onError` and returns its code. */
async function nthError(page: Page, n: number): Promise<unknown> {
  await page.waitForFunction((count) => window.received.filter((m) => m.event === 'onError').length >= count, n, { timeout: 30_000 });
  return (await errorsOf(page))[n - 1];
}

/** After an error the player still answers: a good video loads and plays (state 1). */
async function playsAgain(page: Page, videoId = 'VFcitylight'): Promise<void> {
  await page.evaluate((id) => window.send('loadVideoById', [id]), videoId);
  await waitCache(page, `c.videoData && c.videoData.video_id === ${JSON.stringify(videoId)} && c.playerState === 1`);
}

describe('every player error code of spec §8 reaches the host through onError', () => {
  it('2, 5, 152, 150 (sign-in) and 151 (region) from commands, each once, the player answering after each', async () => {
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await openHost('VFsunrise01', { context });
    const cases: [string, number][] = [
      ['VFbad!', 2], // a malformed video id: api.invalidparam
      ['VFbrokenvid', 5], // a video whose file cannot be decoded
      ['VFnoembed01', 152], // its owner does not allow it on other sites: embedder.identity.denied
      ['VFmembers01', 150], // only for signed-in viewers: LOGIN_REQUIRED → auth
      ['VFregional1', 151], // blocked where gl is DE (this context's locale de-DE): mrm.blocked
    ];
    for (const [i, [videoId, code]] of cases.entries()) {
      await page.evaluate((id) => window.send('loadVideoById', [id]), videoId);
      expect(await nthError(page, i + 1)).toBe(code);
      await playsAgain(page);
    }
    expect(await errorsOf(page)).toEqual([2, 5, 152, 150, 151]);
    await context.close();
  });

  it('the regional video plays where gl is another region; the members-only video reports 150 from its own embed URL', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await openHost('VFregional1', { context, query: 'autoplay=1' });
    await waitCache(page, `c.videoData && c.videoData.video_id === 'VFregional1' && c.playerState === 1`);
    expect(await errorsOf(page)).toEqual([]);
    await context.close();

    // The page cannot know the viewer: the player asks the player endpoint, and the host hears 150 after onReady.
    const members = await openHost('VFmembers01');
    expect(await nthError(members, 1)).toBe(150);
    const names = await members.evaluate(() => window.received.map((m) => m.event));
    expect(names.indexOf('onError')).toBeGreaterThan(names.indexOf('onReady'));
    await playsAgain(members);
    await members.close();
  });

  it('150 when the server stops the playback through its heartbeat: the video pauses; then another video plays', async () => {
    const page = await openHost('VFsunrise01');
    await page.evaluate(() => window.send('loadVideoById', ['VFheartbt01']));
    await waitCache(page, `c.videoData && c.videoData.video_id === 'VFheartbt01' && c.playerState === 1`);
    // The server stops it after 4 s of play, at the heartbeat after that (every 5 s).
    expect(await nthError(page, 1)).toBe(150);
    await waitCache(page, 'c.playerState === 2');
    const frame = await frameWith(page, '/embed/');
    expect(await frame.evaluate(() => window.vidframePlayer!.error$.value?.internal)).toBe('heartbeat.stop');
    expect(await frame.evaluate(() => document.querySelector('video')!.paused)).toBe(true);
    await playsAgain(page);
    expect(await errorsOf(page)).toEqual([150]);
    await page.close();
  });

  it('150 when the heartbeat endpoint keeps failing (5xx) after its retries', async () => {
    const page = await browser.newPage();
    let heartbeats = 0;
    await page.route(/\/youtubei\/v1\/player\/heartbeat(\?|$)/, (route) => {
      heartbeats++;
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":503,"message":"Unavailable"}}' });
    });
    const embedUrl = `${server.origin}/embed/VFheartbt01?${jsapi()}&autoplay=1`;
    await page.goto(host.page(`/errors-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
    await waitMessage(page, 'onReady');
    await page.evaluate(() => window.send('addEventListener', ['onError']));
    expect(await nthError(page, 1)).toBe(150);
    // The first heartbeat and its two retries (more when a stall restarted the heartbeat meanwhile).
    expect(heartbeats).toBeGreaterThanOrEqual(3);
    const frame = await frameWith(page, '/embed/');
    expect(await frame.evaluate(() => window.vidframePlayer!.error$.value?.internal)).toBe('heartbeat.servererror');
    await playsAgain(page);
    await page.close();
  });

  it('the members-only video plays for a signed-in viewer', async () => {
    const context = await browser.newContext();
    const page = await openHost('VFsunrise01', { context });
    const frame = await frameWith(page, '/embed/');
    await signIn(context, frame);
    await page.evaluate(() => window.send('loadVideoById', ['VFmembers01']));
    await waitCache(page, `c.videoData && c.videoData.video_id === 'VFmembers01' && c.playerState === 1`);
    expect(await errorsOf(page)).toEqual([]);
    await context.close();
  });
});

/** Signs in through the embed's "Sign in" and the pop-up on our own origin, as a viewer does. */
async function signIn(context: BrowserContext, frame: Frame): Promise<void> {
  const { ada } = DEMO_ACCOUNTS;
  await reachForPlayer(frame);
  const popupOpened = context.waitForEvent('page');
  await frame.click('.vf-account-button');
  const popup = await popupOpened;
  await popup.fill('input[name="email"]', ada.email);
  await popup.fill('input[name="password"]', ada.password);
  await popup.click('button[type="submit"]');
  await frame.waitForSelector('[data-signed-in="true"]');
}
