/**
 * The framed player of the page benchmark, shared with the diagnostic tools (`heapComposition`, `loadTimeline`,
 * `profilePlayback`, `tickCost`): the servers (the reference server, the bare page, the host page), a viewer's browser,
 * a frame opened the way a host opens it, and what CDP reads from the frame's renderer.
 *
 * The embed is framed cross-site (the host on `localhost`, the frame on `127.0.0.1`), so each frame runs in its own
 * renderer process, as on a real site; muted, autoplaying and looping.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { BrowserContext, CDPSession, Frame, Page } from 'playwright-core';
import { launchProfileBrowser, type ProfileBrowser } from '../test/e2e/helpers/browser';
import { startServer, type RunningServer } from '../test/e2e/helpers/servers';
import { barePage, FRAME_PROBE, hostPage } from './benchPages';

export const VIDEO_ID = 'VFsunrise01';

/** The rendition the embed picks in the benchmark's 640×360 frame; the bare page plays the same file. */
export const BENCH_MEDIA_PATH = `/media/videos/${VIDEO_ID}/medium.webm`;

export type Kind = 'vidframe' | 'bare';

export interface Servers {
  vidframe: RunningServer;
  host: { origin: string; close(): Promise<void> };
  bare: { origin: string; close(): Promise<void> };
}

export function serveOne(hostName: string, html: () => string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html()));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ origin: `http://${hostName}:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) });
    }),
  );
}

/**
 * The reference server (or the one given), the bare page on `mediaPath()` (read at each request, so the benchmark can
 * set it once it knows the embed's rendition) and the host page. `close()` ends the servers.
 */
export async function startBenchPages(
  vidframe?: RunningServer | { origin: string; close(): Promise<void> },
  mediaPath: () => string = () => BENCH_MEDIA_PATH,
): Promise<{ servers: Servers; close(): Promise<void> }> {
  const server = vidframe ?? (await startServer());
  const bare = await serveOne('127.0.0.1', () => barePage(`${server.origin}${mediaPath()}`));
  const host = await serveOne('localhost', hostPage);
  return {
    servers: { vidframe: server as RunningServer, host, bare },
    close: async () => {
      await Promise.all([host.close(), bare.close()]);
      await server.close();
    },
  };
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

async function frameOf(page: Page, origin: string): Promise<Frame> {
  for (;;) {
    const f = page.frames().find((x) => x.url().startsWith(origin));
    if (f) return f;
    // A frame is attached as about:blank and then navigates: wait for either.
    await Promise.race([page.waitForEvent('frameattached'), page.waitForEvent('framenavigated')]);
  }
}

function frameUrl(servers: Servers, kind: Kind, mediaPath: string): { src: string; origin: string } {
  return kind === 'vidframe'
    ? {
        // As the IFrame API writes it: `origin` and `widgetid` too (the embed then asks for `listening` once ready).
        src: `${servers.vidframe.origin}/embed/${VIDEO_ID}?autoplay=1&mute=1&loop=1&playlist=${VIDEO_ID}&enablejsapi=1&origin=${encodeURIComponent(servers.host.origin)}&widgetid=1`,
        origin: servers.vidframe.origin,
      }
    : { src: `${servers.bare.origin}/?media=${encodeURIComponent(mediaPath)}`, origin: servers.bare.origin };
}

/** Opens the host page, frames `kind` in it and resolves once the host heard `onReady` and the frame showed its first video frame. */
export async function openFrame(context: BrowserContext, servers: Servers, kind: Kind, mediaPath: string) {
  await context.addInitScript(FRAME_PROBE);
  const page = await context.newPage();
  await page.goto(`${servers.host.origin}/`);
  const { src, origin } = frameUrl(servers, kind, mediaPath);
  await page.evaluate(([s, o]) => (window as unknown as { startFrame(s: string, o: string): void }).startFrame(s, o), [src, origin] as const);
  const frame = await frameOf(page, origin);
  await page.waitForFunction(() => (window as unknown as { bench: { ready?: number } }).bench.ready !== undefined, undefined, { timeout: 30_000 });
  // One call that waits in the frame for its first frame, not a poll at every animation frame: a poll runs the test
  // driver's own script in the measured frame for as long as its first frame takes, and its code stays in the heap.
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

export async function cdpFor(context: BrowserContext, page: Page, frame: Frame): Promise<CDPSession> {
  try {
    return await context.newCDPSession(frame); // an out-of-process frame has its own target
  } catch {
    return context.newCDPSession(page); // same process as the host: the page's target covers it
  }
}

/** The JS heap of the frame's renderer after a forced GC (`Runtime.getHeapUsage`), in bytes. */
export async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usedSize;
}

/** CDP `Performance.getMetrics` ScriptDuration of the frame's renderer so far, in seconds. */
export async function scriptSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((m) => m.name === 'ScriptDuration')?.value ?? NaN;
}
