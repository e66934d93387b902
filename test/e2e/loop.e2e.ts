import type { Browser, Page, Request } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { frameWith, reachForPlayer, servicesStarted } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';
import { rawHostPage, waitMessage } from './host.helpers';

/**
 * Issue 15: a video looped the way the IFrame API documents it (`loop=1&playlist=<the same id>`) comes back to its start
 * without asking the server for its player response again, and without asking the viewer's state of it again (the
 * channel bar's `next`). What the host sees at the loop is what it saw before this change — the state sequence and
 * the events of a new load of the video, recorded from the embed as it was — and the video plays again from 0; the
 * pings still count the loop as a new playback (a new `cpn`), as before.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;
withE2eEnvironment((env) => ({ server, host, browser } = env));

const EVENTS = ['onStateChange', 'onError', 'onPlaybackQualityChange', 'onPlaybackRateChange', 'onVolumeChange', 'onApiChange'];

/** A request of the host page or of the embed in it (its method, path and playback nonce when it has one). */
interface Seen {
  method: string;
  path: string;
  cpn: string | null;
  ei: string | null;
}

const seenOf = (r: Request): Seen => {
  const url = new URL(r.url());
  return { method: r.method(), path: url.pathname, cpn: url.searchParams.get('cpn'), ei: url.searchParams.get('ei') };
};

/** Once a request that `match` accepts is among `requests` from `from` on: at once if it is, else when it is made. */
async function requestMade(page: Page, requests: Seen[], match: (r: Seen) => boolean, from = 0): Promise<void> {
  if (requests.slice(from).some(match)) return;
  await page.waitForRequest((r) => match(seenOf(r)), { timeout: 15_000 });
}

async function openLooping(): Promise<{ page: Page; requests: Seen[] }> {
  const page = await browser.newPage();
  const requests: Seen[] = [];
  page.on('request', (r: Request) => requests.push(seenOf(r)));
  const query = `autoplay=1&mute=1&loop=1&playlist=VFsunrise01&enablejsapi=1&origin=${encodeURIComponent(host.origin)}&widgetid=1`;
  const embedUrl = `${server.origin}/embed/VFsunrise01?${query}`;
  await page.goto(host.page(`/loop-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
  await waitMessage(page, 'onReady');
  for (const e of EVENTS) await page.evaluate((name) => window.send('addEventListener', [name]), e);
  return { page, requests };
}

describe('a looping playlist of one video (loop=1&playlist=<id>)', () => {
  it('loops without a new player request; the host sees the same states and events as before; it plays again from 0', async () => {
    const { page, requests } = await openLooping();
    const frame = await frameWith(page, '/embed/');
    // Playing, with the services there and the first playback pinged. Nobody reached for the player: no controls, so
    // no viewer-state request (`next {videoId}`) either (issue 15).
    await page.waitForFunction(() => window.cache.playerState === 1, undefined, { timeout: 15_000 });
    const seen = (method: string, path: string) => requests.some((r) => r.method === method && r.path === path);
    await requestMade(page, requests, (r) => r.method === 'GET' && r.path === '/api/stats/playback');
    await servicesStarted(frame);
    expect(seen('GET', '/api/stats/playback') && !seen('POST', '/youtubei/v1/next')).toBe(true);
    // The viewer reaches for it: the controls come and ask for the viewer's state once (not again at the loop, below).
    await reachForPlayer(frame);
    await requestMade(page, requests, (r) => r.method === 'POST' && r.path === '/youtubei/v1/next');
    const firstCpn = requests.find((r) => r.path === '/api/stats/playback')!.cpn;
    expect(requests.filter((r) => r.path === '/youtubei/v1/player')).toEqual([]); // the page came with its response

    // Near the end: it loops about 1.5 s later.
    const mark = await page.evaluate(() => window.received.length);
    const requestMark = requests.length;
    await page.evaluate(() => window.send('seekTo', [10.5, true]));
    await page.waitForFunction(
      (m) => {
        const after = window.received.slice(m);
        const end = after.findIndex((x) => x.event === 'onStateChange' && x.info === 0);
        return end >= 0 && after.slice(end).some((x) => x.event === 'onStateChange' && x.info === 1);
      },
      mark,
      { timeout: 15_000 },
    );
    // What the host got from the end to playing again: the events (each state change preceded by the snapshot with
    // that state). Recorded from the embed before this change: a new load of the same video, its rendition and its
    // captions module reset and back.
    const loop = await page.evaluate((m) => {
      const after = window.received.slice(m);
      const from = after.findIndex((x) => x.event === 'onStateChange' && x.info === 0);
      const to = after.findIndex((x, i) => i > from && x.event === 'onStateChange' && x.info === 1);
      return after.slice(from - 1, to + 1);
    }, mark);
    expect(
      loop
        .filter((x) => x.event !== 'infoDelivery')
        .map((x) => `${x.event} ${JSON.stringify(x.event === 'apiInfoDelivery' ? (x.info as { namespaces: string[] }).namespaces : x.info)}`),
    ).toEqual([
      'onStateChange 0',
      'onPlaybackQualityChange "unknown"',
      'apiInfoDelivery []',
      'onApiChange null',
      'onStateChange -1',
      'onPlaybackQualityChange "medium"',
      'apiInfoDelivery ["captions"]',
      'onApiChange null',
      'onStateChange 3',
      'onStateChange 1',
    ]);
    // Every state change goes out after a snapshot that already says it.
    loop.forEach((x, i) => {
      if (x.event === 'onStateChange') expect((loop[i - 1].info as { playerState?: number }).playerState).toBe(x.info);
    });
    const reset = loop.find((x) => x.event === 'infoDelivery' && (x.info as { playbackQuality?: string }).playbackQuality === 'unknown')!;
    expect(reset.info).toMatchObject({ videoData: { video_id: 'VFsunrise01', title: '' }, captionTracks: [], availableQualityLevels: [] });
    const back = loop.find((x) => x.event === 'infoDelivery' && (x.info as { playbackQuality?: string }).playbackQuality === 'medium')!;
    expect(back.info).toMatchObject({ videoData: { video_id: 'VFsunrise01', title: 'Sunrise over the test pattern' } });

    // It plays again from the start, in the same element, on the same source.
    await page.waitForFunction(() => window.cache.playerState === 1 && (window.cache.currentTime as number) > 0.5);
    expect(await page.evaluate(() => window.cache.currentTime as number)).toBeLessThan(5);
    expect(
      await frame.evaluate(() => ({ videos: document.querySelectorAll('video').length, src: new URL(document.querySelector('video')!.src).pathname })),
    ).toEqual({
      videos: 1,
      src: '/media/videos/VFsunrise01/medium.webm',
    });

    // No player response asked for, nor the viewer's state of the video; the pings end the playback and start a new one.
    await requestMade(page, requests, (r) => r.path === '/api/stats/playback', requestMark);
    const atLoop = requests.slice(requestMark);
    expect(atLoop.filter((r) => r.path === '/youtubei/v1/player' || r.path === '/youtubei/v1/next')).toEqual([]);
    const playback = atLoop.filter((r) => r.path === '/api/stats/playback');
    expect(playback).toHaveLength(1);
    expect(playback[0].cpn).not.toBe(firstCpn);
    // One load played again: the pings keep the response's event id (`ei`), the playback nonce is new.
    expect(playback[0].ei).toBe(requests.find((r) => r.path === '/api/stats/playback')!.ei);
    expect(atLoop.some((r) => r.path === '/api/stats/watchtime' && r.cpn === firstCpn)).toBe(true);
    await page.close();
  });
});
