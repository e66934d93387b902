/**
 * The embed against a bare page, in real Chromium on loopback: `npm run bench -- page`.
 *
 * The bare page (`bench/benchPages.ts`) is the least a frame can do for the same job: a static page with a `<video>` on
 * the very file the embed plays, and a minimal responder to the host protocol's handshake (`onReady`), `pauseVideo` and
 * `seekTo` (it posts the new time on `seeked`, and on every `timeupdate` while it plays, as the protocol asks of any
 * player). Both are framed cross-site by the same host page, muted and autoplaying, each load in a browser of its own
 * with a fresh regular profile (a cold cache, empty storage: `newViewer`), the two interleaved so that the machine's
 * noise falls on both alike.
 *
 * Per load: the time from the iframe's creation (host clock) to `onReady` at the host, to the frame's first video
 * frame (`requestVideoFrameCallback`), to the start of the media request (Resource Timing), the JS heap after load,
 * settled ({@link waitSettled}), after a forced GC, and three `seekTo` round trips while paused (command sent → the
 * `infoDelivery` carrying the new time). Then one play of each (`BENCH_PLAY_SECONDS`, default 60): script time per
 * 10 s window (CDP `Performance.getMetrics` ScriptDuration of the frame's process) and the heap at the end; with
 * `longPlaySeconds` (`npm run bench -- page --long`), the same play goes on and the heap is read again at its end.
 *
 * Settings: `BENCH_PAGE_RUNS` (cold loads of each, default 20), `BENCH_PLAY_SECONDS` (default 60),
 * `BENCH_LONG_PLAY_SECONDS` (the long play with `--long`, default 600). Needs `npm run build` first (it serves `dist/`).
 */
import type { BrowserContext, Frame } from 'playwright-core';
import { startServer } from '../test/e2e/helpers/servers';
import { LOG_BATCH_INITIAL_TIMEOUT_MS, SERVICES_LATEST_LOAD_MS } from '../streams/timing';
import { cdpFor, heapAfterGc, newViewer, openFrame, scriptSeconds, startBenchPages, VIDEO_ID, type Kind, type Servers } from './benchFrame';
import { embedBytes, type Bytes } from './embedBytes';

/**
 * How long after its load event a page counts as settled at the soonest (ms): the embed's services start by
 * `SERVICES_LATEST_LOAD_MS` after ready, its first log request goes `LOG_BATCH_INITIAL_TIMEOUT_MS` after that, and a
 * second more for it to be built and sent.
 */
export const SETTLED_AFTER_LOAD_MS = SERVICES_LATEST_LOAD_MS + LOG_BATCH_INITIAL_TIMEOUT_MS + 1000;

/** The default length of the long play (`--long`), in seconds. */
export const LONG_PLAY_DEFAULT_SECONDS = 600;

export interface LoadSample {
  readyMs: number;
  firstFrameMs: number;
  mediaRequestMs: number;
  /** The frame's document: its HTML fully received, DOMContentLoaded (its module scripts have run), its load event. */
  htmlReceivedMs: number;
  /**
   * The last of the frame's first-load scripts (its module script and module preloads, requested while the HTML was
   * parsed) fully received; NaN for a page without any (the bare page). No design that answers the host from a script
   * file can be ready before it; the embed answers from its HTML (`streams/host/earlyHandshake.ts`), so it may.
   */
  scriptsReceivedMs: number;
  domContentLoadedMs: number;
  loadEventMs: number;
  heapAfterLoadBytes: number;
  seekRoundTripMs: number[];
}

export interface PlaySample {
  /** Script time (ms) of the frame's renderer in each 10 s window of playback. */
  scriptMsPer10s: number[];
  heapAfterPlayBytes: number;
  /** The heap at the end of the long play, when there was one. */
  heapAfterLongPlayBytes?: number;
}

export interface PageBenchResult {
  runs: number;
  playSeconds: number;
  /** The long play's length, when there was one (`--long`). */
  longPlaySeconds?: number;
  mediaPath: string;
  bytes: Bytes;
  loads: Record<Kind, LoadSample[]>;
  play: Record<Kind, PlaySample>;
}

/** The embed's databases, which its logging opens once its services start: the proof it ran on real storage. */
const EMBED_DATABASES = ['VidFrameConfigDatabase', 'VidFrameLogsDatabase'];

/**
 * Throws unless the embed's frame has its storage (IndexedDB with the embed's databases, and `localStorage`), so that
 * no figure is ever taken on the in-memory fallback; asked after the heap is measured, so that its script is not in it.
 */
async function checkEmbedStorage(frame: Frame): Promise<void> {
  const found = await frame.evaluate(async () => {
    try {
      void localStorage.length;
      return (await indexedDB.databases()).map((d) => d.name ?? '');
    } catch (error) {
      return String(error);
    }
  });
  const missing = Array.isArray(found) ? EMBED_DATABASES.filter((name) => !found.includes(name)) : EMBED_DATABASES;
  if (missing.length > 0) {
    throw new Error(`the embed ran without its storage (${Array.isArray(found) ? `no ${missing.join(', ')}` : found}): the figures would not be a viewer's`);
  }
}

/** The frame's first video frame, media request and document milestones, on the epoch clock (after its load event). */
function frameTimes(frame: Frame) {
  return frame.evaluate(async () => {
    const media = performance.getEntriesByType('resource').find((e) => /\/media\//.test(e.name));
    // The load event may come after ready (a late script of the frame delays it): wait for it, bounded.
    if (document.readyState !== 'complete') {
      await new Promise((done) => {
        addEventListener('load', done, { once: true });
        setTimeout(done, 10_000);
      });
    }
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    // (No named functions in here: the bench's TypeScript loader would wrap them in a helper the page lacks.)
    const origin = performance.timeOrigin;
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
      (e) => /\.js(\?|$)/.test(e.name) && (e.initiatorType === 'script' || e.initiatorType === 'link') && (!nav || e.startTime < nav.domInteractive),
    );
    return {
      scriptsReceived: scripts.length > 0 ? origin + Math.max(...scripts.map((e) => e.responseEnd)) : NaN,
      firstFrame: (window as unknown as { __bench: { firstFrame: number } }).__bench.firstFrame,
      mediaStart: media ? origin + media.startTime : NaN,
      htmlReceived: nav?.responseEnd ? origin + nav.responseEnd : NaN,
      domContentLoaded: nav?.domContentLoadedEventStart ? origin + nav.domContentLoadedEventStart : NaN,
      loadEvent: nav?.loadEventStart ? origin + nav.loadEventStart : NaN,
    };
  });
}

/**
 * Waits until the page is settled: what it does by itself after its load event is done — the embed's services
 * (logging, storage, retry), on idle after ready, and its first log request, which goes `LOG_BATCH_INITIAL_TIMEOUT_MS`
 * after logging starts. The frame's network quiet for 500 ms, and not before {@link SETTLED_AFTER_LOAD_MS} after its
 * load event, at most 10 s, for both pages alike: network quiet alone, or a shorter wait, lands some loads before the
 * services or the first log request and some after, and the heap figure falls in two modes. Both pages autoplay from
 * their first frame, so the figure includes their first seconds of playback.
 */
function waitSettled(frame: Frame): Promise<void> {
  return frame.evaluate(async (settledAfterLoadMs) => {
    const started = performance.now();
    const loadEnd = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.loadEventEnd || started;
    let count = performance.getEntriesByType('resource').length;
    let quietSince = performance.now();
    while ((performance.now() - quietSince < 500 || performance.now() - loadEnd < settledAfterLoadMs) && performance.now() - started < 10_000) {
      await new Promise((done) => setTimeout(done, 50));
      const now = performance.getEntriesByType('resource').length;
      if (now !== count) {
        count = now;
        quietSince = performance.now();
      }
    }
  }, SETTLED_AFTER_LOAD_MS);
}

async function coldLoad(context: BrowserContext, servers: Servers, kind: Kind, mediaPath: string): Promise<LoadSample> {
  const { page, frame } = await openFrame(context, servers, kind, mediaPath);
  const { created, ready } = await page.evaluate(() => (window as unknown as { bench: { created: number; ready: number } }).bench);
  const t = await frameTimes(frame);
  await waitSettled(frame);
  const cdp = await cdpFor(context, page, frame);
  const heapAfterLoadBytes = await heapAfterGc(cdp);
  if (kind === 'vidframe') await checkEmbedStorage(frame);
  await page.evaluate(() => (window as unknown as { pauseAndWait(): Promise<unknown> }).pauseAndWait());
  const seekRoundTripMs: number[] = [];
  for (const to of [3.5, 7, 9.5]) {
    seekRoundTripMs.push(await page.evaluate((s) => (window as unknown as { seekRoundTrip(s: number): Promise<number> }).seekRoundTrip(s), to));
  }
  await cdp.detach().catch(() => undefined);
  return {
    readyMs: ready - created,
    firstFrameMs: t.firstFrame - created,
    mediaRequestMs: t.mediaStart - created,
    htmlReceivedMs: t.htmlReceived - created,
    scriptsReceivedMs: t.scriptsReceived - created,
    domContentLoadedMs: t.domContentLoaded - created,
    loadEventMs: t.loadEvent - created,
    heapAfterLoadBytes,
    seekRoundTripMs,
  };
}

/**
 * One play of `seconds`: script time per 10 s window and the heap at its end; with `longSeconds` beyond that, the play
 * goes on (no more script windows) and the heap is read again at `longSeconds`.
 */
async function longPlay(context: BrowserContext, servers: Servers, kind: Kind, mediaPath: string, seconds: number, longSeconds?: number): Promise<PlaySample> {
  const { page, frame } = await openFrame(context, servers, kind, mediaPath);
  const cdp = await cdpFor(context, page, frame);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' }).catch(() => cdp.send('Performance.enable'));
  const started = Date.now();
  const scriptMsPer10s: number[] = [];
  let before = await scriptSeconds(cdp);
  for (let elapsed = 0; elapsed + 10 <= seconds; elapsed += 10) {
    await page.waitForTimeout(10_000);
    const now = await scriptSeconds(cdp);
    scriptMsPer10s.push((now - before) * 1000);
    before = now;
  }
  const heapAfterPlayBytes = await heapAfterGc(cdp);
  let heapAfterLongPlayBytes: number | undefined;
  if (longSeconds !== undefined && longSeconds > seconds) {
    await page.waitForTimeout(Math.max(0, started + longSeconds * 1000 - Date.now()));
    heapAfterLongPlayBytes = await heapAfterGc(cdp);
  }
  if (kind === 'vidframe') await checkEmbedStorage(frame);
  await cdp.detach().catch(() => undefined);
  return { scriptMsPer10s, heapAfterPlayBytes, ...(heapAfterLongPlayBytes !== undefined && { heapAfterLongPlayBytes }) };
}

/** Runs `work` in a viewer's browser of its own, closed afterwards whatever happens. */
async function inViewer<T>(work: (context: BrowserContext) => Promise<T>): Promise<T> {
  const viewer = await newViewer();
  try {
    return await work(viewer.context);
  } finally {
    await viewer.close();
  }
}

export async function runPageBench({
  runs = Number(process.env.BENCH_PAGE_RUNS ?? 20),
  playSeconds = Number(process.env.BENCH_PLAY_SECONDS ?? 60),
  longPlaySeconds = undefined as number | undefined,
  progress = (line: string) => console.log(line),
} = {}): Promise<PageBenchResult> {
  let mediaPath = '';
  const { servers, close } = await startBenchPages(await startServer(), () => mediaPath);
  try {
    const bytes = await embedBytes(servers.vidframe.origin, VIDEO_ID);
    // The file the embed picks at 640×360: the bare page plays the very same one.
    mediaPath = await inViewer(async (context) => {
      const { frame } = await openFrame(context, servers, 'vidframe', '');
      return new URL(await frame.evaluate(() => document.querySelector('video')!.currentSrc)).pathname;
    });
    const loads: Record<Kind, LoadSample[]> = { vidframe: [], bare: [] };
    for (let i = 0; i < runs; i++) {
      const order: Kind[] = i % 2 === 0 ? ['vidframe', 'bare'] : ['bare', 'vidframe'];
      for (const kind of order) loads[kind].push(await inViewer((context) => coldLoad(context, servers, kind, mediaPath)));
      progress(`  page: cold load ${i + 1}/${runs} of each`);
    }
    const play = {} as Record<Kind, PlaySample>;
    for (const kind of ['vidframe', 'bare'] as const) {
      progress(`  page: ${longPlaySeconds ?? playSeconds} s of playback (${kind})`);
      play[kind] = await inViewer((context) => longPlay(context, servers, kind, mediaPath, playSeconds, longPlaySeconds));
    }
    return { runs, playSeconds, ...(longPlaySeconds !== undefined && { longPlaySeconds }), mediaPath, bytes, loads, play };
  } finally {
    await close();
  }
}
