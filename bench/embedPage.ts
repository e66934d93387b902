/**
 * The embed against a bare page, in real Chromium on loopback: `npm run bench -- page`.
 *
 * The bare page is the least a frame can do for the same job: a static page with a `<video>` on the very file the
 * embed plays, and a minimal responder to the host protocol's handshake (`onReady`), `pauseVideo` and `seekTo` (it
 * posts the new time on `seeked`, and on every `timeupdate` while it plays, as the protocol asks of any player). Both are framed cross-site by the same host page (localhost framing 127.0.0.1, so
 * each frame runs in its own renderer process, as on a real site), muted and autoplaying, each load in a browser of its
 * own with a fresh regular profile (a cold cache, empty storage: {@link newViewer}), the two interleaved so that the machine's noise falls on both alike.
 *
 * Per load: the time from the iframe's creation (host clock) to `onReady` at the host, to the frame's first video
 * frame (`requestVideoFrameCallback`), to the start of the media request (Resource Timing), the JS heap after load
 * (the page settled — its network quiet for 500 ms and at least {@link SETTLED_AFTER_LOAD_MS} after its load event, so the embed's services have started and sent their first log request; both pages play meanwhile — after a forced GC) and three `seekTo` round trips while paused (command sent → the `infoDelivery` carrying the new
 * time). Then one long play of each (`BENCH_PLAY_SECONDS`, default 60): script time per 10 s window (CDP
 * `Performance.getMetrics` ScriptDuration of the frame's process) and the heap at the end.
 *
 * Settings: `BENCH_PAGE_RUNS` (cold loads of each, default 20), `BENCH_PLAY_SECONDS` (default 60).
 * Needs `npm run build` first (it serves `dist/`).
 */
import { request as httpRequest } from 'node:http';
import type { BrowserContext, CDPSession, Frame, Page } from 'playwright-core';
import { launchProfileBrowser, type ProfileBrowser } from '../test/e2e/helpers/browser';
import { startServer, type RunningServer } from '../test/e2e/helpers/servers';
import { LOG_BATCH_INITIAL_TIMEOUT_MS, SERVICES_LATEST_LOAD_MS } from '../streams/timing';
import { barePage, FRAME_PROBE, hostPage, serveOne } from './benchPages';

export const VIDEO_ID = 'VFsunrise01';

/**
 * How long after its load event a page counts as settled at the soonest (ms): the embed's services start by
 * `SERVICES_LATEST_LOAD_MS` after ready, its first log request goes `LOG_BATCH_INITIAL_TIMEOUT_MS` after that, and a
 * second more for it to be built and sent.
 */
export const SETTLED_AFTER_LOAD_MS = SERVICES_LATEST_LOAD_MS + LOG_BATCH_INITIAL_TIMEOUT_MS + 1000;

export interface Spread {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

export function spread(values: number[]): Spread {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return { n: 0, median: NaN, p95: NaN, min: NaN, max: NaN };
  const at = (q: number) => v[Math.min(v.length - 1, Math.max(0, Math.ceil(q * v.length) - 1))];
  const median = v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  return { n: v.length, median, p95: at(0.95), min: v[0], max: v[v.length - 1] };
}

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
}

export interface Bytes {
  raw: number;
  gzip: number;
  brotli: number;
  files: string[];
}

export interface Servers {
  vidframe: RunningServer;
  host: { origin: string; close(): Promise<void> };
  bare: { origin: string; close(): Promise<void> };
}

/** A GET that keeps the bytes as sent. */
function rawBytes(url: string, acceptEncoding: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The embed's first load as served: its scripts, module preloads and styles, plain, gzip and brotli. */
export async function embedBytes(origin: string): Promise<Bytes> {
  const html = (await rawBytes(`${origin}/embed/${VIDEO_ID}`, 'identity')).toString('utf8');
  const files = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) files.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="(?:modulepreload|stylesheet)"[^>]*\bhref="([^"]+)"/g)) files.add(m[1]);
  const sum = async (enc: string) => (await Promise.all([...files].map((f) => rawBytes(origin + f, enc)))).reduce((n, b) => n + b.length, 0);
  const [raw, gzip, brotli] = await Promise.all([sum('identity'), sum('gzip'), sum('br')]);
  return { raw, gzip, brotli, files: [...files] };
}

async function frameOf(page: Page, origin: string): Promise<Frame> {
  for (;;) {
    const f = page.frames().find((x) => x.url().startsWith(origin));
    if (f) return f;
    // A frame is attached as about:blank and then navigates: wait for either.
    await Promise.race([page.waitForEvent('frameattached'), page.waitForEvent('framenavigated')]);
  }
}

export async function cdpFor(context: BrowserContext, page: Page, frame: Frame): Promise<CDPSession> {
  try {
    return await context.newCDPSession(frame); // an out-of-process frame has its own target
  } catch {
    return context.newCDPSession(page); // same process as the host: the page's target covers it
  }
}

async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usedSize;
}

/**
 * A browser as a viewer's: Chromium with a fresh regular profile of its own, so a cold cache and empty storage. Not a
 * Playwright context: those are off-the-record, and there Chromium refuses IndexedDB and `localStorage` to a
 * third-party frame, so the embed would run its logging on the in-memory fallback that no viewer's browser gives it
 * (`test/e2e/helpers/browser.ts` `launchProfileBrowser`).
 */
export const newViewer = (): Promise<ProfileBrowser> => launchProfileBrowser();

/**
 * The embed without one of its lazily loaded chunks (`ui`: the controls; `services`: logging, storage, retry, consent,
 * attestation), for the diagnostic tools. The controls' chunk is refused, as on a network failure (the page asks for it
 * again only when the viewer reaches for the player). The services' chunk is answered with a module that starts
 * nothing: refused, the page would ask for it again and again and keep what logging would log (`src/embed/page/main.ts`).
 */
export async function withoutChunk(context: BrowserContext, chunk: string): Promise<void> {
  const pattern = new RegExp(`/assets/${chunk}-[^/]*\\.js(\\?|$)`);
  if (chunk === 'services') {
    await context.route(pattern, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: 'export function startServices() {}\n' }));
  } else await context.route(pattern, (route) => route.abort('failed'));
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

async function scriptSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((m) => m.name === 'ScriptDuration')?.value ?? NaN;
}

export type Kind = 'vidframe' | 'bare';

function frameUrl(servers: Servers, kind: Kind, mediaPath: string): { src: string; origin: string } {
  return kind === 'vidframe'
    ? {
        // As the IFrame API writes it: `origin` and `widgetid` too (the embed then asks for `listening` once ready).
        src: `${servers.vidframe.origin}/embed/${VIDEO_ID}?autoplay=1&mute=1&loop=1&playlist=${VIDEO_ID}&enablejsapi=1&origin=${encodeURIComponent(servers.host.origin)}&widgetid=1`,
        origin: servers.vidframe.origin,
      }
    : { src: `${servers.bare.origin}/?media=${encodeURIComponent(mediaPath)}`, origin: servers.bare.origin };
}

export async function openFrame(context: BrowserContext, servers: Servers, kind: Kind, mediaPath: string) {
  await context.addInitScript(FRAME_PROBE);
  const page = await context.newPage();
  await page.goto(`${servers.host.origin}/`);
  const { src, origin } = frameUrl(servers, kind, mediaPath);
  await page.evaluate(([s, o]) => (window as unknown as { startFrame(s: string, o: string): void }).startFrame(s, o), [src, origin] as const);
  const frame = await frameOf(page, origin);
  await page.waitForFunction(() => (window as unknown as { bench: { ready?: number } }).bench.ready !== undefined, undefined, { timeout: 30_000 });
  // One call that waits in the frame for its first frame, not a poll at every animation frame: polling ran the test
  // driver's own script in the measured frame as long as its first frame took, and a slower page got more of the
  // driver's code compiled into its heap.
  await frame.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const late = setTimeout(() => reject(new Error('no first video frame within 30 s')), 30_000);
        (window as unknown as { __bench: { firstFrameShown: Promise<void> } }).__bench.firstFrameShown.then(() => {
          clearTimeout(late);
          resolve();
        });
      }),
  );
  return { page, frame };
}

async function coldLoad(context: BrowserContext, servers: Servers, kind: Kind, mediaPath: string): Promise<LoadSample> {
  const { page, frame } = await openFrame(context, servers, kind, mediaPath);
  const { created, ready } = await page.evaluate(() => (window as unknown as { bench: { created: number; ready: number } }).bench);
  const { firstFrame, mediaStart, htmlReceived, scriptsReceived, domContentLoaded, loadEvent } = await frame.evaluate(async () => {
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
  // "After load" is the page settled: what it does by itself after its load event is done — the embed's services
  // (logging, storage, retry), on idle after ready, and its first log request, which goes `LOG_BATCH_INITIAL_TIMEOUT_MS`
  // after logging starts. The frame's network quiet for 500 ms, and not before {@link SETTLED_AFTER_LOAD_MS} after its
  // load event, at most 10 s, for both pages alike. (Network quiet alone caught some loads before the services and some
  // after, two modes 0.3 MiB apart; 2 s after the load event raced the first log request, two modes 0.15 MiB apart.)
  // Both pages autoplay from their first frame, so the figure includes their first seconds of playback.
  await frame.evaluate(async (settledAfterLoadMs) => {
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
  const cdp = await cdpFor(context, page, frame);
  const heapAfterLoadBytes = await heapAfterGc(cdp);
  if (kind === 'vidframe') await checkEmbedStorage(frame);
  await page.evaluate(() => (window as unknown as { pauseAndWait(): Promise<unknown> }).pauseAndWait());
  const seekRoundTripMs: number[] = [];
  for (const to of [3.5, 7, 9.5]) {
    seekRoundTripMs.push(await page.evaluate((t) => (window as unknown as { seekRoundTrip(t: number): Promise<number> }).seekRoundTrip(t), to));
  }
  await cdp.detach().catch(() => undefined);
  return {
    readyMs: ready - created,
    firstFrameMs: firstFrame - created,
    mediaRequestMs: mediaStart - created,
    htmlReceivedMs: htmlReceived - created,
    scriptsReceivedMs: scriptsReceived - created,
    domContentLoadedMs: domContentLoaded - created,
    loadEventMs: loadEvent - created,
    heapAfterLoadBytes,
    seekRoundTripMs,
  };
}

async function longPlay(context: BrowserContext, servers: Servers, kind: Kind, mediaPath: string, seconds: number): Promise<PlaySample> {
  const { page, frame } = await openFrame(context, servers, kind, mediaPath);
  const cdp = await cdpFor(context, page, frame);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' }).catch(() => cdp.send('Performance.enable'));
  const scriptMsPer10s: number[] = [];
  let before = await scriptSeconds(cdp);
  for (let elapsed = 0; elapsed + 10 <= seconds; elapsed += 10) {
    await page.waitForTimeout(10_000);
    const now = await scriptSeconds(cdp);
    scriptMsPer10s.push((now - before) * 1000);
    before = now;
  }
  const heapAfterPlayBytes = await heapAfterGc(cdp);
  if (kind === 'vidframe') await checkEmbedStorage(frame);
  await cdp.detach().catch(() => undefined);
  return { scriptMsPer10s, heapAfterPlayBytes };
}

export interface PageBenchResult {
  runs: number;
  playSeconds: number;
  mediaPath: string;
  bytes: Bytes;
  loads: Record<Kind, LoadSample[]>;
  play: Record<Kind, PlaySample>;
}

/** The rendition the embed picks in the benchmark's 640×360 frame; the bare page plays the same file. */
export const BENCH_MEDIA_PATH = `/media/videos/${VIDEO_ID}/medium.webm`;

/**
 * What the diagnostic tools (`profilePlayback`, `tickCost`, `heapComposition`, `loadTimeline`) start: the reference
 * server (or the one given), the bare page on {@link BENCH_MEDIA_PATH} and the host page; each opens its browsers with
 * {@link newViewer}, as the benchmark does. `close()` ends the servers.
 */
export async function startBenchPages(
  vidframe?: RunningServer | { origin: string; close(): Promise<void> },
): Promise<{ servers: Servers; close(): Promise<void> }> {
  const server = vidframe ?? (await startServer());
  const bare = await serveOne('127.0.0.1', () => barePage(`${server.origin}${BENCH_MEDIA_PATH}`));
  const host = await serveOne('localhost', hostPage);
  return {
    servers: { vidframe: server as RunningServer, host, bare },
    close: async () => {
      await Promise.all([host.close(), bare.close()]);
      await server.close();
    },
  };
}

export async function runPageBench({
  runs = Number(process.env.BENCH_PAGE_RUNS ?? 20),
  playSeconds = Number(process.env.BENCH_PLAY_SECONDS ?? 60),
  progress = (line: string) => console.log(line),
} = {}): Promise<PageBenchResult> {
  const vidframe = await startServer();
  let mediaPath = '';
  const bare = await serveOne('127.0.0.1', () => barePage(`${vidframe.origin}${mediaPath}`));
  const host = await serveOne('localhost', hostPage);
  const servers: Servers = { vidframe, host, bare };
  try {
    const bytes = await embedBytes(vidframe.origin);
    // The file the embed picks at 640×360: the bare page plays the very same one.
    {
      const viewer = await newViewer();
      try {
        const { frame } = await openFrame(viewer.context, servers, 'vidframe', '');
        mediaPath = new URL(await frame.evaluate(() => document.querySelector('video')!.currentSrc)).pathname;
      } finally {
        await viewer.close();
      }
    }
    const loads: Record<Kind, LoadSample[]> = { vidframe: [], bare: [] };
    for (let i = 0; i < runs; i++) {
      const order: Kind[] = i % 2 === 0 ? ['vidframe', 'bare'] : ['bare', 'vidframe'];
      for (const kind of order) {
        const viewer = await newViewer();
        try {
          loads[kind].push(await coldLoad(viewer.context, servers, kind, mediaPath));
        } finally {
          await viewer.close();
        }
      }
      progress(`  page: cold load ${i + 1}/${runs} of each`);
    }
    const play = {} as Record<Kind, PlaySample>;
    for (const kind of ['vidframe', 'bare'] as const) {
      progress(`  page: ${playSeconds} s of playback (${kind})`);
      const viewer = await newViewer();
      try {
        play[kind] = await longPlay(viewer.context, servers, kind, mediaPath, playSeconds);
      } finally {
        await viewer.close();
      }
    }
    return { runs, playSeconds, mediaPath, bytes, loads, play };
  } finally {
    await Promise.all([host.close(), bare.close()]);
    await vidframe.close();
  }
}
