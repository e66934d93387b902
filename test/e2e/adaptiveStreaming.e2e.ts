import type { Browser, Frame, Page } from 'playwright-core';
import { startShapingProxy, type BandwidthStep, type ShapingProxy } from '../../bench/abr/shapingProxy';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import { rawHostPage, waitCache, waitMessage } from './host.helpers';

/**
 * The adaptive engine where the viewer and the host meet it: the committed ingest sample `VFladder001` (a ladder
 * tiny … large in H.264 and VP9, 2-s segments) played through Media Source Extensions in the framed embed, every byte
 * of the embed shaped by a loopback proxy to a bandwidth schedule. Needs `npm run build`.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;
let proxy: ShapingProxy | undefined;

withE2eEnvironment((env) => ({ server, host, browser } = env));

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const RANK = ['tiny', 'small', 'medium', 'large', 'hd720', 'hd1080'];

/**
 * A host page framing the embed of `VFladder001` (muted, autoplaying unless `extra` says otherwise) through a proxy
 * shaping the link to `schedule`, listening to quality and state; `initScript` runs in every frame before its scripts.
 */
async function openShaped(schedule: BandwidthStep[], extra = '&autoplay=1', initScript?: string): Promise<{ page: Page; frame: () => Frame }> {
  proxy = await startShapingProxy({ target: server.origin, schedule });
  const page = await browser.newPage();
  if (initScript) await page.addInitScript({ content: initScript });
  const query = `enablejsapi=1&origin=${encodeURIComponent(host.origin)}&widgetid=1&mute=1${extra}`;
  proxy.start();
  await page.goto(host.page(`/adaptive-${Math.random().toString(36).slice(2)}.html`, rawHostPage(`${proxy.origin}/embed/VFladder001?${query}`, proxy.origin)));
  await waitMessage(page, 'onReady');
  await page.evaluate(() => {
    window.send('addEventListener', ['onPlaybackQualityChange']);
    window.send('addEventListener', ['onStateChange']);
  });
  const frame = () => {
    const f = page.frames().find((x) => x.url().includes('/embed/VFladder001'));
    if (!f) throw new Error('the embed frame is not there');
    return f;
  };
  return { page, frame };
}

/** The name of the first video segment the embed fetched (the ladder's video renditions are 0–3, the audio 4). */
const firstVideoSegment = (f: Frame) => f.evaluate(() => performance.getEntriesByType('resource').find((e) => /\/seg-[0-3]-\d+\./.test(e.name))?.name ?? '');

/** What the host heard, in order: quality changes (`q:<quality>`) and state changes (`s:<state>`). */
const heard = (page: Page) =>
  page.evaluate(() =>
    window.received.flatMap((m) =>
      m.event === 'onPlaybackQualityChange' ? [`q:${String(m.info)}`] : m.event === 'onStateChange' ? [`s:${String(m.info)}`] : [],
    ),
  );

describe('adaptive streaming in the framed embed', () => {
  it('streams through Media Source Extensions: the ladder’s levels, a blob source, and segments fetched', async () => {
    const { page, frame } = await openShaped([{ atSeconds: 0, kbps: 20_000 }]);
    await waitCache(page, 'c.playerState === 1 && c.currentTime > 1');
    const levels = await page.evaluate(() => window.cache.availableQualityLevels);
    // The bytes are the stream's: some fetched, no more than in all.
    await waitCache(page, 'c.videoBytesLoaded > 0');
    const bytes = await page.evaluate(() => [window.cache.videoBytesLoaded, window.cache.videoBytesTotal] as number[]);
    expect(bytes[0]).toBeLessThanOrEqual(bytes[1] ?? 0);
    expect(levels).toEqual(['large', 'medium', 'small', 'tiny', 'auto']);
    const element = await frame().evaluate(() => {
      const v = document.querySelector('video') as HTMLVideoElement;
      return { src: v.src, height: v.videoHeight };
    });
    expect(element.src).toMatch(/^blob:/);
    expect(element.height).toBeGreaterThan(0);
    const segments = await frame().evaluate(() => performance.getEntriesByType('resource').filter((e) => /\/seg-\d+-\d+\./.test(e.name)).length);
    expect(segments).toBeGreaterThan(1);
    // The page's own load measured a fast link: the first segment is above the lowest rung.
    expect(await firstVideoSegment(frame())).toMatch(/\/seg-[123]-00001\./);
    await page.close();
  });

  it('starts playing before the first video segment’s last byte is in: the segment is appended as it arrives', async () => {
    // When each frame's element first plays, on the clock of Resource Timing (media events reach a capturing listener).
    const recordPlaying = `addEventListener('playing', () => { window.__playingAt ??= performance.now(); }, true);`;
    const { page, frame } = await openShaped([{ atSeconds: 0, kbps: 1_000 }], '&autoplay=1', recordPlaying);
    await waitCache(page, 'c.playerState === 1');
    const seen = await frame().waitForFunction(
      () => {
        const first = performance.getEntriesByType('resource').find((e): e is PerformanceResourceTiming => /\/seg-[0-3]-00001\./.test(e.name));
        const playingAt = (window as unknown as { __playingAt?: number }).__playingAt;
        return first && playingAt !== undefined && { playingAt, firstByte: first.responseStart, lastByte: first.responseEnd };
      },
      undefined,
      { timeout: 30_000, polling: 100 },
    );
    const { playingAt, firstByte, lastByte } = (await seen.jsonValue()) as { playingAt: number; firstByte: number; lastByte: number };
    expect(playingAt).toBeGreaterThan(firstByte);
    expect(playingAt).toBeLessThan(lastByte);
    await page.close();
  });

  it('climbs on a fast link, steps down when the link is throttled, and the host hears each change without a stall', async () => {
    // The page loads over 250 kbps, which carries only the lowest rendition: its load measures that much, so the
    // stream starts there. Then 2 Mbps carries the top rendition and its audio with room to build a buffer, until the
    // engine fetches a segment above the lowest rung; then 250 kbps again, while most of the 20-s video is still to
    // fetch however slowly the machine started.
    const { page, frame } = await openShaped([{ atSeconds: 0, kbps: 250 }]);
    proxy?.setRate(2_000);
    await frame().waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/seg-[123]-\d+\./.test(e.name)), undefined, {
      timeout: 30_000,
      polling: 100,
    });
    // The page's slow load started the stream on the lowest rung.
    expect(await firstVideoSegment(frame())).toMatch(/\/seg-0-00001\./);
    proxy?.setRate(250);
    await page.waitForFunction(
      (rank) => {
        const qualities = window.received.filter((m) => m.event === 'onPlaybackQualityChange').map((m) => rank.indexOf(String(m.info)));
        const top = qualities.indexOf(Math.max(...qualities));
        return top >= 0 && qualities.slice(top + 1).some((q) => q < (qualities[top] ?? 0));
      },
      RANK,
      { timeout: 45_000, polling: 100 },
    );
    const trail = await heard(page);
    const qualities = trail.filter((e) => e.startsWith('q:')).map((e) => RANK.indexOf(e.slice(2)));
    // The stream starts on the lowest rung (the host may hear it before or after its listener is in), climbs above
    // it on the fast link, then shows a lower one after the drop.
    expect(Math.max(...qualities)).toBeGreaterThan(0);
    // Between the first play and the step down on screen, playback never stalled (no buffering state, 3).
    const top = trail.findIndex((e) => e === `q:${RANK[Math.max(...qualities)]}`);
    const down = trail.findIndex((e, i) => i > top && e.startsWith('q:') && RANK.indexOf(e.slice(2)) < Math.max(...qualities));
    const firstPlay = trail.indexOf('s:1');
    expect(firstPlay).toBeGreaterThanOrEqual(0);
    expect(trail.slice(firstPlay, down + 1).filter((e) => e === 's:3')).toEqual([]);
    // The host's snapshot agrees with the last change it heard.
    const last = trail.filter((e) => e.startsWith('q:')).pop();
    expect(`q:${String(await page.evaluate(() => window.cache.playbackQuality))}`).toBe(last);
    await page.close();
  }, 100_000);

  it('replaces the buffered low rendition when the link gets much faster, and the host hears the climb at once', async () => {
    // Cued over 250 kbps, the stream starts on the lowest rung and buffers it ahead while nothing plays.
    const { page, frame } = await openShaped([{ atSeconds: 0, kbps: 250 }], '');
    const bufferedAhead = () =>
      frame().evaluate(() => {
        const v = document.querySelector('video') as HTMLVideoElement;
        return v.buffered.length > 0 ? v.buffered.end(v.buffered.length - 1) - v.currentTime : 0;
      });
    await frame().waitForFunction(
      () => {
        const v = document.querySelector('video');
        return !!v && v.buffered.length > 0 && v.buffered.end(v.buffered.length - 1) - v.currentTime >= 8;
      },
      undefined,
      { timeout: 30_000, polling: 100 },
    );
    const videoFetches = () =>
      frame().evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => /\/seg-([0-3])-(\d+)\./.exec(e.name))
          .flatMap((m) => (m ? [{ rung: Number(m[1]), segment: Number(m[2]) }] : [])),
      );
    const before = await videoFetches();
    expect(before.every((f) => f.rung === 0)).toBe(true);
    const lowBufferedTo = Math.max(...before.map((f) => f.segment)) * 2;
    proxy?.setRate(20_000);
    await page.evaluate(() => window.send('playVideo', []));
    // The host hears a higher quality while the playhead is still inside what was buffered at the lowest rung.
    await page.waitForFunction(() => window.received.some((m) => m.event === 'onPlaybackQualityChange' && m.info !== 'tiny'), undefined, {
      timeout: 30_000,
      polling: 100,
    });
    const playhead = await page.evaluate(() => Number(window.cache.currentTime));
    expect(playhead).toBeLessThan(lowBufferedTo - 2);
    // A segment buffered at the lowest rung was fetched again at a higher one, over the buffer: it never emptied.
    const after = await videoFetches();
    const refetched = after.filter((f) => f.rung > 0 && before.some((b) => b.segment === f.segment));
    expect(refetched.length).toBeGreaterThan(0);
    expect(await bufferedAhead()).toBeGreaterThan(0);
    // From the first play on, playback never stalled (the buffering state, 3, may come before it, as the play starts).
    const trail = await heard(page);
    expect(trail.indexOf('s:1')).toBeGreaterThanOrEqual(0);
    expect(trail.slice(trail.indexOf('s:1')).filter((e) => e === 's:3')).toEqual([]);
    await page.close();
  }, 90_000);

  it('a browser without Media Source Extensions plays the progressive H.264 file instead', async () => {
    const page = await browser.newPage();
    // Every frame of this page, the embed's included, starts without MediaSource (as an old or locked-down browser).
    await page.addInitScript(() => {
      delete (window as { MediaSource?: unknown }).MediaSource;
      delete (window as { ManagedMediaSource?: unknown }).ManagedMediaSource;
    });
    const query = `enablejsapi=1&origin=${encodeURIComponent(host.origin)}&widgetid=1&autoplay=1&mute=1`;
    await page.goto(host.page(`/nomse-${Math.random().toString(36).slice(2)}.html`, rawHostPage(`${server.origin}/embed/VFladder001?${query}`, server.origin)));
    await waitMessage(page, 'onReady');
    await waitCache(page, 'c.playerState === 1 && c.currentTime > 0.5');
    expect(await page.evaluate(() => window.cache.availableQualityLevels)).toEqual(['medium', 'auto']);
    const frame = page.frames().find((f) => f.url().includes('/embed/VFladder001'));
    const src = await frame?.evaluate(() => (document.querySelector('video') as HTMLVideoElement).src);
    expect(src).toMatch(/\/progressive\.mp4$/);
    await page.close();
  });

  it('setPlaybackQuality fixes the rendition: the host hears it when that rendition is on screen', async () => {
    const { page } = await openShaped([{ atSeconds: 0, kbps: 20_000 }]);
    await waitCache(page, 'c.playerState === 1');
    await page.evaluate(() => window.send('setPlaybackQuality', ['small']));
    await waitMessage(page, 'onPlaybackQualityChange', 'small');
    await waitCache(page, "c.playbackQuality === 'small'");
    await page.close();
  });
});
