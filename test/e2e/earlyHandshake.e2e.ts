import type { Browser, Page, Route } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { frameWith } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';
import { cache, events, rawHostPage, videoElement, waitCache, waitMessage } from './host.helpers';

/**
 * Where a host meets it: the embed page's HTML answers the handshake (`initialDelivery`, `onReady`) before
 * its script has arrived, from the player's first snapshot as the server computes it; commands sent meanwhile take
 * effect, in order, once the script has taken the channel over; the host hears one handshake, and what it cached
 * is what the player then says.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

/** A raw host framing the embed with the page's own script held back until `release()`. */
async function openWithScriptHeld(query: string, videoId = 'VFsunrise01'): Promise<{ page: Page; release: () => void }> {
  const page = await browser.newPage();
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  await page.route(/\/assets\/embed-[^/]+\.js$/, async (route: Route) => {
    await released;
    await route.continue();
  });
  const embedUrl = `${server.origin}/embed/${videoId}?enablejsapi=1&origin=${encodeURIComponent(host.origin)}&${query}`;
  // Not waiting for the host's load event, which waits for the frame's, which waits for the held script.
  await page.goto(host.page(`/handshake-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)), { waitUntil: 'domcontentloaded' });
  return { page, release };
}

/** The host's view of the player's snapshot now, read in the frame. */
const playerSnapshot = (page: Page) =>
  frameWith(page, '/embed/').then((frame) =>
    frame.evaluate(
      () =>
        new Promise<Record<string, unknown>>((done) => {
          const player = (window as unknown as { vidframePlayer: { info$: { subscribe(f: (i: Record<string, unknown>) => void): { unsubscribe(): void } } } })
            .vidframePlayer;
          let sub: { unsubscribe(): void } | undefined = undefined;
          sub = player.info$.subscribe((info) => {
            done(info);
            sub?.unsubscribe();
          });
        }),
    ),
  );

describe('the handshake answered by the HTML', () => {
  it("onReady comes before the page's script; commands sent then run, in order, once it has; one handshake", async () => {
    const { page, release } = await openWithScriptHeld('widgetid=1');
    await waitMessage(page, 'onReady');
    // The frame as it is (its load event waits for the held script).
    const frame = page.frames().find((f) => f.url().includes('/embed/'))!;
    // Nothing of the page's script has run: no player.
    expect(await frame.evaluate(() => typeof (window as unknown as { vidframePlayer?: unknown }).vidframePlayer)).toBe('undefined');
    // The host has its methods and a usable cache: the video's data, its length (never 0), the cued state.
    const early = await cache(page);
    expect(early.apiInterface).toEqual(expect.arrayContaining(['playVideo', 'seekTo', 'setVolume', 'getDuration', 'getVideoData']));
    expect(early.apiInterface).not.toContain('setCaptions');
    expect(early.playerState).toBe(5);
    expect(early.duration).toBeGreaterThan(0);
    expect((early.videoData as { video_id: string }).video_id).toBe('VFsunrise01');
    expect(early.videoUrl).toBe(`${server.origin}/embed/VFsunrise01`);
    expect(early.size).toEqual({ width: 640, height: 360 });
    // The video has caption tracks: the captions module comes right after onReady, as the player's handshake sends it.
    expect(await events(page)).toEqual(['readyToListen', 'initialDelivery', 'onReady', 'apiInfoDelivery']);
    expect(await page.evaluate(() => window.apiInfo?.namespaces)).toEqual(['captions']);

    // Commands while the script is still on its way: held, then applied in order.
    await page.evaluate(() => {
      window.send('addEventListener', ['onStateChange']);
      window.send('addEventListener', ['onVolumeChange']);
      window.send('setVolume', [30]);
      window.send('setVolume', [40]);
      window.send('seekTo', [4, true]);
    });
    release();
    await waitCache(page, 'c.volume === 40 && Math.abs(c.currentTime - 4) < 0.3');
    await frame.waitForFunction(() => Math.abs(document.querySelector('video')!.volume - 0.4) < 0.001);
    const element = await videoElement(frame);
    expect(element.volume).toBeCloseTo(0.4, 3);
    await waitMessage(page, 'onVolumeChange', { volume: 40, muted: false });
    const seen = await events(page);
    expect(seen.filter((e) => e === 'initialDelivery')).toHaveLength(1);
    expect(seen.filter((e) => e === 'onReady')).toHaveLength(1);
    expect(seen.filter((e) => e === 'onApiChange')).toHaveLength(0);
    // Nothing came between the handshake and what the commands caused.
    expect(seen.slice(0, 4)).toEqual(['readyToListen', 'initialDelivery', 'onReady', 'apiInfoDelivery']);
    // The seek while cued starts the video, as a seek does (host-protocol §4): the host hears its states.
    await waitMessage(page, 'onStateChange', 1);
    await page.close();
  });

  it('what the host cached from the HTML is what the player says once its script runs', async () => {
    const { page, release } = await openWithScriptHeld('');
    await waitMessage(page, 'onReady');
    // The cache as the HTML left it, before anything of the page script.
    const early = await cache(page);
    release();
    const frame = await frameWith(page, '/embed/');
    await frame.waitForFunction(() => document.querySelector('[data-readiness="ready"]') !== null);
    const player = await playerSnapshot(page);
    for (const key of [
      'playerState',
      'duration',
      'videoData',
      'availableQualityLevels',
      'playbackQuality',
      'availablePlaybackRates',
      'videoUrl',
      'videoEmbedCode',
      'playlist',
      'playlistIndex',
      'captionTracks',
      'subtitlesUserSettings',
      'muted',
      'volume',
      'size',
      'videoContentRect',
    ]) {
      expect({ key, value: early[key] }).toEqual({ key, value: player[key] });
    }
    await page.close();
  });

  it('a video whose media fails while the page script is on its way: the host hears onError once, at its subscription', async () => {
    const { page, release } = await openWithScriptHeld('autoplay=1&mute=1', 'VFbrokenvid');
    await waitMessage(page, 'onReady');
    const frame = page.frames().find((f) => f.url().includes('/embed/'))!;
    await frame.waitForFunction(() => document.querySelector('video')!.error !== null);
    release();
    await waitCache(page, 'c.videoData && c.videoData.isPlayable === false');
    await frame.waitForFunction(() => document.querySelector('[data-readiness="ready"]') !== null);
    // The widget script subscribes once the embed answered; until then the failure is held, not sent.
    expect(await events(page)).not.toContain('onError');
    await page.evaluate(() => window.send('addEventListener', ['onError']));
    await waitMessage(page, 'onError');
    expect((await events(page)).filter((e) => e === 'onError')).toHaveLength(1);
    await page.close();
  });

  it('a repeated listening is told alreadyInitialized once the script runs; the first one got the handshake', async () => {
    const { page, release } = await openWithScriptHeld('');
    await waitMessage(page, 'onReady');
    await page.evaluate(() => window.rawPost(JSON.stringify({ event: 'listening', id: 1, channel: 'widget' })));
    release();
    await waitMessage(page, 'alreadyInitialized');
    const seen = await events(page);
    expect(seen.filter((e) => e === 'onReady')).toHaveLength(1);
    await page.close();
  });

  it('a host on another origin than the `origin` parameter gets no answer from the HTML, nor later', async () => {
    const page = await browser.newPage();
    const embedUrl = `${server.origin}/embed/VFsunrise01?enablejsapi=1&origin=${encodeURIComponent('http://elsewhere.test:1')}&widgetid=1`;
    await page.goto(host.page(`/handshake-other-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
    const frame = await frameWith(page, '/embed/');
    await frame.waitForFunction(() => document.querySelector('[data-readiness="ready"]') !== null);
    // The host keeps asking every 250 ms; asked again after the player is ready, it still hears nothing.
    const asked = await page.evaluate(() => window.listenCount);
    await page.waitForFunction((n) => window.listenCount >= n + 2, asked);
    expect(await events(page)).toEqual(['readyToListen']);
    await page.close();
  });
});
