import type { Browser, Frame } from 'playwright-core';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { frameWith } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * Issue 16 item 5: the playlist URL forms the README gives a host developer, framed by a third-party page as a host
 * would put them in an iframe: `/embed/videoseries?list=…` (with `index`), `/embed/{id}?list=…` (the list decides),
 * and `/embed/{id}?playlist=id2,…` (the path's video, then those).
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

async function openFramed(path: string): Promise<Frame> {
  const page = await browser.newPage();
  await page.goto(host.page(`/host-${Math.random().toString(36).slice(2)}.html`, framingPage(`${server.origin}${path}`)));
  const frame = await frameWith(page, '/embed/');
  await frame.waitForSelector('[data-readiness="ready"]');
  return frame;
}

/** The player's latest info snapshot (what the host's `getPlaylist()`, `getPlaylistIndex()`… answer), once `ready` holds. */
const snapshotWhen = async (frame: Frame, ready: Record<string, unknown>) => {
  await frame.waitForFunction((want) => {
    let snap: Record<string, unknown> = {};
    window.vidframePlayer!.info$.subscribe((i) => (snap = i as unknown as Record<string, unknown>)).unsubscribe();
    return Object.entries(want).every(([k, v]) => JSON.stringify(snap[k]) === JSON.stringify(v));
  }, ready);
  return frame.evaluate(() => {
    let snap: Record<string, unknown> = {};
    window.vidframePlayer!.info$.subscribe((i) => (snap = i as unknown as Record<string, unknown>)).unsubscribe();
    return {
      playlist: snap.playlist,
      playlistIndex: snap.playlistIndex,
      playlistId: snap.playlistId,
      src: document.querySelector('video')!.getAttribute('src') ?? '',
    };
  });
};

const DEMO_LIST = ['VFsunrise01', 'VFcitylight', 'VFoceanwave'];

describe('playlist embed URLs (README, issue 16 item 5)', () => {
  it('/embed/videoseries?list=… plays the playlist from its first video', async () => {
    const frame = await openFramed('/embed/videoseries?list=PLvfDemoPlaylist01&autoplay=1&mute=1');
    const snap = await snapshotWhen(frame, { playlistIndex: 0 });
    expect(snap).toMatchObject({ playlistId: 'PLvfDemoPlaylist01', playlist: DEMO_LIST, playlistIndex: 0 });
    expect(snap.src).toContain('VFsunrise01');
    await frame.waitForFunction(() => document.querySelector('video')!.currentTime > 0.2);
    await frame.page().close();
  });

  it('/embed/videoseries?list=…&index=1 starts at the second video', async () => {
    const frame = await openFramed('/embed/videoseries?list=PLvfDemoPlaylist01&index=1');
    const snap = await snapshotWhen(frame, { playlistIndex: 1 });
    expect(snap).toMatchObject({ playlistId: 'PLvfDemoPlaylist01', playlist: DEMO_LIST });
    await frame.waitForFunction(() => document.querySelector('video')!.getAttribute('src')!.includes('VFcitylight'));
    await frame.page().close();
  });

  it('/embed/{id}?list=… plays the list from index 0: the id in the path does not pick the first video', async () => {
    const frame = await openFramed('/embed/VFoceanwave?list=PLvfDemoPlaylist01');
    const snap = await snapshotWhen(frame, { playlistIndex: 0 });
    expect(snap).toMatchObject({ playlistId: 'PLvfDemoPlaylist01', playlist: DEMO_LIST });
    await frame.waitForFunction(() => document.querySelector('video')!.getAttribute('src')!.includes('VFsunrise01'));
    await frame.page().close();
  });

  it("/embed/{id}?playlist=id2,id3 plays the path's video, then those", async () => {
    const frame = await openFramed('/embed/VFcitylight?playlist=VFoceanwave,VFsunrise01');
    const snap = await snapshotWhen(frame, { playlistIndex: 0 });
    expect(snap.playlist).toEqual(['VFcitylight', 'VFoceanwave', 'VFsunrise01']);
    await frame.waitForFunction(() => document.querySelector('video')!.getAttribute('src')!.includes('VFcitylight'));
    await frame.page().close();
  });
});
