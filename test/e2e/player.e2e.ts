import type { Browser, Frame } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { frameWith, reachForPlayer } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * Issue 3, end to end: every control driven through the UI of the real embed (framed by a host on another origin),
 * with real playback in Chromium. Assertions are grouped per page load; every wait is on a condition in the page.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

async function openFramed(videoId: string, query = ''): Promise<Frame> {
  const page = await browser.newPage();
  const embedUrl = `${server.origin}/embed/${videoId}${query ? `?${query}` : ''}`;
  await page.goto(host.page(`/host-${Math.random().toString(36).slice(2)}.html`, framingPage(embedUrl)));
  const frame = await frameWith(page, '/embed/');
  await frame.waitForSelector('[data-readiness="ready"]');
  return frame;
}

const media = (frame: Frame) =>
  frame.evaluate(() => {
    const v = document.querySelector('video')!;
    return {
      t: v.currentTime,
      paused: v.paused,
      src: v.getAttribute('src') ?? '',
      rate: v.playbackRate,
      volume: v.volume,
      muted: v.muted,
      state: document.querySelector('.vf-player')!.getAttribute('data-state'),
    };
  });
const stateIs = (frame: Frame, s: number) => frame.waitForSelector(`.vf-player[data-state="${s}"]`);
const timeAbove = (frame: Frame, t: number) => frame.waitForFunction((t) => document.querySelector('video')!.currentTime > t, t);
/** The latest player snapshot, from the page's player. */
/** Waits until the player's info snapshot holds `expected` (each key compared as JSON): it follows the element's events. */
const infoHolds = (frame: Frame, expected: Record<string, unknown>) =>
  frame.waitForFunction((want) => {
    let ok = false;
    window
      .vidframePlayer!.info$.subscribe((i) => {
        const snap = i as unknown as Record<string, unknown>;
        ok = Object.entries(want).every(([k, v]) => {
          const got = snap[k];
          return v !== null && typeof v === 'object' && got !== null && typeof got === 'object'
            ? Object.entries(v as Record<string, unknown>).every(([kk, vv]) => JSON.stringify((got as Record<string, unknown>)[kk]) === JSON.stringify(vv))
            : JSON.stringify(got) === JSON.stringify(v);
        });
      })
      .unsubscribe();
    return ok;
  }, expected);

const info = (frame: Frame) =>
  frame.evaluate(
    () =>
      new Promise<Record<string, unknown>>((resolve) => {
        const sub = window.vidframePlayer!.info$.subscribe((i) => resolve(i as unknown as Record<string, unknown>));
        sub.unsubscribe();
      }),
  );

describe('player controls, through the UI, with real playback', () => {
  it('play, pause, seek while paused, speed, quality keeping position, volume, mute, captions, keyboard', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=0');
    await stateIs(frame, 5);
    expect(await frame.getAttribute('.vf-seek', 'role')).toBe('slider');

    // Play from the big button, pause from the control bar.
    await frame.click('.vf-bigplay');
    await timeAbove(frame, 0.5);
    await stateIs(frame, 1);
    await frame.click('.vf-playpause');
    await stateIs(frame, 2);
    expect((await media(frame)).paused).toBe(true);

    // Seek while paused (click at 75 % of the bar): the time moves, the state stays 2, the time display follows.
    const box = (await (await frame.$('.vf-seek'))!.boundingBox())!;
    await frame.click('.vf-seek', { position: { x: box.width * 0.75, y: box.height / 2 } });
    await frame.waitForFunction(() => Math.abs(document.querySelector('video')!.currentTime - 9) < 0.5);
    await frame.waitForFunction(() => document.querySelector('.vf-time-current')!.textContent === '0:09');
    expect((await media(frame)).state).toBe('2');
    expect((await info(frame)).playerState).toBe(2);

    // Quality while paused: the rendition changes, the position and the paused state are kept.
    const before = await media(frame);
    expect(before.src).toContain('medium.webm');
    await frame.click('.vf-settings');
    await frame.click('.vf-menu-item:has-text("Quality")');
    await frame.click('.vf-menu-item:has-text("240p")');
    await frame.waitForFunction(
      () => document.querySelector('video')!.getAttribute('src')!.includes('small.webm') && document.querySelector('video')!.readyState >= 1,
    );
    await frame.waitForFunction((t) => Math.abs(document.querySelector('video')!.currentTime - t) < 0.3, before.t);
    expect(await media(frame)).toMatchObject({ paused: true, state: '2' });
    await infoHolds(frame, { playbackQuality: 'small' });

    // Speed from the menu.
    await frame.click('.vf-settings');
    await frame.click('.vf-menu-item:has-text("Playback speed")');
    await frame.click('.vf-menu-item:has-text("1.5×")');
    await frame.waitForFunction(() => document.querySelector('video')!.playbackRate === 1.5);

    // Volume slider and mute button.
    await frame.hover('.vf-mute');
    await frame.fill('.vf-volume-slider', '30');
    await frame.waitForFunction(() => Math.abs(document.querySelector('video')!.volume - 0.3) < 0.01);
    await frame.click('.vf-mute');
    await frame.waitForFunction(() => document.querySelector('video')!.muted);
    await infoHolds(frame, { muted: true, volume: 30 });
    expect(await info(frame)).toMatchObject({ muted: true, volume: 30 });

    // Keyboard: k plays (the quality switch kept the position: playback resumes from there), m unmutes, 0 jumps to 0.
    await frame.focus('.vf-player');
    await frame.press('.vf-player', 'k');
    await stateIs(frame, 1);
    await frame.press('.vf-player', 'm');
    await frame.waitForFunction(() => !document.querySelector('video')!.muted);
    await frame.press('.vf-player', '0');
    await frame.waitForFunction(() => document.querySelector('video')!.currentTime < 2);

    // Captions on: the caption text shows; choosing Spanish shows the Spanish track.
    await frame.click('.vf-cc');
    await frame.waitForFunction(() => /Caption \d of 6/.test(document.querySelector('.vf-captions')?.textContent ?? ''));
    await frame.click('.vf-settings');
    await frame.click('.vf-menu-item:has-text("Subtitles/CC")');
    await frame.click('.vf-menu-item:has-text("Spanish")');
    await infoHolds(frame, { captionTrack: { languageCode: 'es' } });
    await frame.waitForFunction(() => (document.querySelector('.vf-captions')?.textContent ?? '').length > 0);
    // Real snapshot values: bytes from the buffered ranges and the file size, content rect from layout.
    const snap = await info(frame);
    expect(snap.videoBytesTotal).toBe(253065);
    expect(snap.videoLoadedFraction as number).toBeGreaterThan(0);
    // The 426×240 rendition letterboxed into the 640×360 frame: scaled by 1.5.
    expect(snap.videoContentRect).toMatchObject({ left: expect.closeTo(0.5, 0), top: 0, height: 360 });
    expect((snap.videoContentRect as { width: number }).width).toBeCloseTo(639, 0);
    // The box is read again when the layout changes (not on media events): the host makes the frame 480×270.
    await frame.page().evaluate(() => {
      const iframe = document.querySelector('iframe')!;
      iframe.width = '480';
      iframe.height = '270';
    });
    await frame.waitForFunction(() => {
      let rect: { width: number; height: number } | undefined;
      window.vidframePlayer!.info$.subscribe((i) => (rect = i.videoContentRect)).unsubscribe();
      return rect !== undefined && rect.height === 270 && Math.abs(rect.width - 480) < 2;
    });
    await frame.page().close();
  });

  it('endSeconds stops there (state 0); the end screen replays; loop restarts at the end', async () => {
    const frame = await openFramed('VFcitylight', 'autoplay=1&start=1&end=2.5');
    await stateIs(frame, 0);
    const at = await media(frame);
    expect(at.paused).toBe(true);
    expect(at.t).toBeGreaterThanOrEqual(2.4);
    expect(at.t).toBeLessThan(3.2);
    await frame.click('.vf-end-replay');
    await stateIs(frame, 1);
    expect((await media(frame)).t).toBeLessThan(2.5);
    await frame.page().close();

    const looping = await openFramed('VFcitylight', 'autoplay=1&loop=1&start=8.5');
    // With the controls there (the viewer reached for it), so that an end screen at the loop would show.
    await reachForPlayer(looping);
    await timeAbove(looping, 9.5);
    // The end: it restarts from the start variable and plays on.
    await looping.waitForFunction(() => {
      const v = document.querySelector('video')!;
      return v.currentTime < 9.5 && v.currentTime >= 8.5 && !v.paused;
    });
    expect(await looping.evaluate(() => document.querySelector('.vf-endscreen'))).toBeNull();
    await looping.page().close();
  });

  it('a playlist: next, previous, pick from the panel, and it advances at the end of an item', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=1&list=PLvfDemoPlaylist01');
    await timeAbove(frame, 0.2);
    expect(await info(frame)).toMatchObject({ playlistId: 'PLvfDemoPlaylist01', playlistIndex: 0, playlist: ['VFsunrise01', 'VFcitylight', 'VFoceanwave'] });
    // Playing on its own: the controls come when the viewer reaches for the player.
    await reachForPlayer(frame);
    await frame.click('.vf-next');
    await frame.waitForFunction(() => document.querySelector('video')!.getAttribute('src')!.includes('VFcitylight'));
    await frame.waitForFunction(() => document.title.startsWith('City lights'));
    await frame.click('.vf-prev');
    await frame.waitForFunction(() => document.querySelector('video')!.getAttribute('src')!.includes('VFsunrise01'));
    await frame.click('.vf-playlist-toggle');
    await frame.click('.vf-playlist-item:has-text("Ocean wave")');
    await frame.waitForFunction(() => document.querySelector('video')!.getAttribute('src')!.includes('VFoceanwave'));
    await frame.waitForSelector('.vf-playlist-item[aria-current="true"]:has-text("Ocean wave")');
    // Back to the second item, near its end: the playlist moves on to the third by itself.
    await frame.click('.vf-playlist-item:has-text("City lights")');
    await frame.waitForFunction(() => document.querySelector('video')!.getAttribute('src')!.includes('VFcitylight'));
    await stateIs(frame, 1);
    await frame.press('.vf-player', '9');
    await frame.waitForFunction(() => document.querySelector('video')!.getAttribute('src')!.includes('VFoceanwave'));
    await timeAbove(frame, 0.2);
    await infoHolds(frame, { playlistIndex: 2, playerState: 1 });
    await frame.page().close();
  });

  it('each failure shows the error screen and reports its mapped code once', async () => {
    const frame = await openFramed('VFcitylight', 'autoplay=0');
    await frame.evaluate(() => {
      const w = window as unknown as { seen: unknown[] };
      w.seen = [];
      window.vidframePlayer!.events$.subscribe((e) => e.type === 'error' && w.seen.push(e.code));
    });
    const cases: [string, string, number][] = [
      ['VFbrokenvid', 'fmt', 5],
      ['VFunknown00', 'video.unavailable', 5],
      ['VFnoembed01', 'embedder.identity.denied', 152],
      ['bad!', 'api.invalidparam', 2],
    ];
    for (const [videoId, internal, code] of cases) {
      await frame.evaluate((videoId) => window.vidframePlayer!.command({ type: 'loadVideo', options: { videoId }, autoplay: true }), videoId);
      await frame.waitForSelector(`.vf-error[data-error-code="${code}"][data-error-internal^="${internal}"]`);
      // Then back to a good video: the error screen goes away.
      await frame.evaluate(() => window.vidframePlayer!.command({ type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: false }));
      await frame.waitForSelector('.vf-error', { state: 'detached' });
      await stateIs(frame, 5);
    }
    expect(await frame.evaluate(() => (window as unknown as { seen: number[] }).seen)).toEqual([5, 5, 152, 2]);
    await frame.page().close();
  });
  it('a cue while the video it replaces is still starting stops that video at once and stays cued (5) until and after its own answer comes', async () => {
    // The replaced video's media and the cued video's answer are both held: the cue lands while the first play is
    // pending (state 3), and that video's late events come after it (what a loaded machine does by chance).
    const page = await browser.newPage();
    let releaseMedia!: () => void;
    const mediaHeld = new Promise<void>((r) => (releaseMedia = r));
    let releaseAnswer!: () => void;
    const answerHeld = new Promise<void>((r) => (releaseAnswer = r));
    await page.route('**/media/videos/VFcitylight/**', async (route) => {
      await mediaHeld;
      await route.continue();
    });
    // The page came with its video's answer: the first player call is the load's, the second the cue's (bodies are
    // compressed, so they are told apart by their order).
    let playerCalls = 0;
    await page.route(/\/youtubei\/v1\/player(\?|$)/, async (route) => {
      if (++playerCalls >= 2) await answerHeld;
      await route.continue();
    });
    await page.goto(host.page(`/cue-${Math.random().toString(36).slice(2)}.html`, framingPage(`${server.origin}/embed/VFoceanwave?autoplay=0`)));
    const frame = await frameWith(page, '/embed/');
    await frame.waitForSelector('[data-readiness="ready"]');
    await stateIs(frame, 5);
    await frame.evaluate(() => window.vidframePlayer!.command({ type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: true }));
    await stateIs(frame, 3);
    const pausedAfterCue = await frame.evaluate(() => {
      const w = window as unknown as { vfStates: number[] };
      w.vfStates = [];
      window.vidframePlayer!.command({ type: 'loadVideo', options: { videoId: 'VFsunrise01' }, autoplay: false });
      window.vidframePlayer!.state$.subscribe((s) => w.vfStates.push(s));
      return document.querySelector('video')!.paused;
    });
    expect(pausedAfterCue).toBe(true);
    // The replaced video's media arrives: the element reads it (paused), and no playing claims 1.
    releaseMedia();
    await frame.waitForFunction(() => document.querySelector('video')!.readyState >= 2);
    releaseAnswer();
    await frame.waitForFunction(() => {
      const v = document.querySelector('video')!;
      return (v.getAttribute('src') ?? '').includes('VFsunrise01') && v.readyState >= 1;
    });
    expect(await frame.evaluate(() => (window as unknown as { vfStates: number[] }).vfStates)).toEqual([5]);
    expect(await media(frame)).toMatchObject({ paused: true, state: '5' });
    await page.close();
  });
  it('a stall while playing shows the spinner (state 3) and playback resumes (state 1) when data arrives', async () => {
    // The media server answers the first 30 % of the file, then holds the next range request until released:
    // a real network stall, seen by the real element.
    const page = await browser.newPage();
    const file = readFileSync(resolve(__dirname, '../../media/videos/VFoceanwave/medium.webm'));
    const cut = Math.floor(file.length * 0.3);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route('**/media/videos/VFoceanwave/medium.webm', async (route) => {
      const start = Number(/bytes=(\d+)-/.exec(route.request().headers()['range'] ?? '')?.[1] ?? 0);
      if (start >= cut) await released;
      const end = start < cut ? cut - 1 : file.length - 1;
      await route.fulfill({
        status: 206,
        headers: {
          'content-type': 'video/webm',
          'accept-ranges': 'bytes',
          'content-range': `bytes ${start}-${end}/${file.length}`,
          'content-length': String(end - start + 1),
        },
        body: file.subarray(start, end + 1),
      });
    });
    await page.goto(host.page('/stall.html', framingPage(`${server.origin}/embed/VFoceanwave?autoplay=1`)));
    const frame = await frameWith(page, '/embed/');
    await stateIs(frame, 1);
    // Playing on its own, untouched: no controls; the shell's stylesheet draws the spinner while it stalls.
    const shellSpinner = () => frame.evaluate(() => getComputedStyle(document.querySelector('.vf-ui')!, '::after').animationName);
    await stateIs(frame, 3);
    expect(await shellSpinner()).toBe('vf-spin');
    // The viewer reaches for it: the controls come, with their own spinner (announced), and the shell's is gone.
    await reachForPlayer(frame);
    await frame.waitForSelector('.vf-spinner[role="status"]');
    expect(await shellSpinner()).toBe('none');
    expect(await frame.getAttribute('.vf-player', 'data-state')).toBe('3');
    release();
    await stateIs(frame, 1);
    await frame.waitForSelector('.vf-spinner', { state: 'detached' });
    await page.close();
  });
});
