import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { servicesStarted } from './helpers/browser';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';

/**
 * Shared by the telemetry browser tests: the collector read over HTTP, bounded polling, the framed
 * embed, the logs database read from the page, and a browser whose tabs really hide.
 */

/** One event as `GET /collector/api/events` lists it. */
export interface CollectedEvent {
  stream: string;
  clientEventId?: string;
  name: string;
  endpoint: 'log_event' | 'video_stats';
  requestId: string;
  receivedAtMs: number;
  event: Record<string, any>;
}

/** One log request as `GET /collector/api/requests` lists it. */
export interface CollectedRequest {
  requestId: string;
  stream: string;
  endpoint: string;
  compressed: boolean;
  contentType: string;
  bodyBytes: number;
  decodedBytes: number;
  headers: Record<string, string>;
  serializedClientEventId?: { serializedEventId?: string; clientCounter?: number };
  requestTimeMs?: number;
  context?: any;
  eventCount: number;
  accepted: number;
  duplicates: number;
}

export interface CollectorStats {
  requests: number;
  compressedRequests: number;
  events: number;
  duplicatesDropped: number;
  byName: Record<string, number>;
  faultsPlayed: number;
  pendingFault: { status: number; count: number } | null;
}

/** The collector's admin API and test hooks, over real HTTP with the admin token. */
export function collectorOf(server: RunningServer) {
  const call = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await fetch(server.origin + path, {
      ...init,
      headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${server.adminToken}` },
    });
    if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  /** Every item of a paged read, page by page (filtered by the collector itself). */
  const all = async <T>(path: string, query: Record<string, string | undefined>): Promise<T[]> => {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const params = new URLSearchParams({ limit: '500' });
      for (const [k, v] of Object.entries({ ...query, cursor })) if (v !== undefined) params.set(k, v);
      const page = await call<{ items: T[]; nextCursor?: string }>(`${path}?${params}`);
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  };
  return {
    /** Every event stored, in arrival order; only those of `pageId` when given. */
    events: (pageId?: string) => all<CollectedEvent>('/collector/api/events', { pageId }),
    /** Every accepted log request; only those of `pageId` when given. */
    requests: (pageId?: string) => all<CollectedRequest>('/collector/api/requests', { pageId }),
    /** Every error report. */
    errors: <T = Record<string, any>>() => all<T>('/collector/api/errors', {}),
    stats: () => call<CollectorStats>('/collector/api/stats'),
    clear: () => call('/collector/api/events', { method: 'DELETE' }),
    /** The next `count` log requests fail with `status` (415/400 only hit gzip bodies; 429 with Retry-After). */
    fault: (status: 500 | 415 | 400 | 429, count: number, retryAfterSec?: number) =>
      call('/collector/api/faults', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status, count, retryAfterSec }),
      }),
    clearFaults: () => call('/collector/api/faults', { method: 'DELETE' }),
  };
}
export type Collector = ReturnType<typeof collectorOf>;

/**
 * Reads `read()` until `done` holds, at most `timeoutMs`: the way a test waits on the collector (a condition, not a
 * sleep). Each round waits 100 ms for the server to receive more. Fails with what was last read.
 */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last read: ${JSON.stringify(last)?.slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  return last;
}

/** Opens a host page on another origin framing `/embed/{id}?{query}`; resolves once the player is ready. */
export async function openEmbed(
  target: Browser | BrowserContext,
  server: RunningServer,
  host: HostServer,
  videoId: string,
  query = '',
  { hostPath = `/host-${Math.random().toString(36).slice(2)}.html`, page: given }: { hostPath?: string; page?: Page } = {},
): Promise<{ page: Page; frame: Frame; pageId: string }> {
  const page = given ?? (await target.newPage());
  const embedUrl = `${server.origin}/embed/${videoId}${query ? `?${query}` : ''}`;
  await page.goto(host.page(hostPath, framingPage(embedUrl)));
  const frame = await embedFrame(page);
  await frame.waitForSelector('[data-readiness="ready"]');
  await servicesStarted(frame);
  const pageId = await frame.evaluate(() => window.vidframeTelemetry!.pageId);
  return { page, frame, pageId };
}

/** The embed's frame of a host page, once loaded (waits for it to attach). */
export async function embedFrame(page: Page): Promise<Frame> {
  for (;;) {
    const frame = page.frames().find((f) => f.url().includes('/embed/'));
    if (frame) {
      await frame.waitForLoadState('load');
      return frame;
    }
    await page.waitForEvent('frameattached');
  }
}

/** The page's telemetry counters. */
export const countsOf = (frame: Frame) => frame.evaluate(() => ({ ...window.vidframeTelemetryDiagnostics!.counts }));

/** One stored request of the retry queue as the test reads it (the body parsed). */
export interface QueuedRecord {
  id: number;
  url: string;
  status: string;
  sendCount: number;
  interfaceNumber: number;
  timestamp: number;
  clientEventIds: string[];
}

/**
 * Every record of `VidFrameLogsDatabase` / `LogsRequestsStore`, read with the page's own IndexedDB (the frame's
 * origin, partitioned under the host's site), without changing the database: an absent database or store reads as
 * `null` and is not created.
 */
export function readLogsDatabase(frame: Frame): Promise<QueuedRecord[] | null> {
  return frame.evaluate(
    () =>
      new Promise<QueuedRecord[] | null>((resolve, reject) => {
        const request = indexedDB.open('VidFrameLogsDatabase');
        let created = false;
        request.onupgradeneeded = () => {
          created = true; // it did not exist: abort, so reading leaves nothing behind
          request.transaction!.abort();
        };
        request.onerror = () => (created ? resolve(null) : reject(request.error));
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('LogsRequestsStore')) {
            db.close();
            resolve(null);
            return;
          }
          const all = db.transaction('LogsRequestsStore', 'readonly').objectStore('LogsRequestsStore').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            db.close();
            resolve(
              (all.result as any[]).map((r) => ({
                id: r.id,
                url: r.url,
                status: r.status,
                sendCount: r.sendCount,
                interfaceNumber: r.interfaceNumber,
                timestamp: r.timestamp,
                clientEventIds: (JSON.parse(r.options.body).events as { clientEventId: string }[]).map((e) => e.clientEventId),
              })),
            );
          };
        };
      }),
  );
}

/** The numbers `1…n` of a page's `clientEventId`s (`{pageId}:{n}`), sorted. */
export const sequenceNumbers = (ids: (string | undefined)[], pageId: string) =>
  ids
    .filter((id): id is string => typeof id === 'string' && id.startsWith(`${pageId}:`))
    .map((id) => Number(id.slice(pageId.length + 1)))
    .sort((a, b) => a - b);

/** `[1, 2, …, n]`. */
export const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

export { launchProfileBrowser, type ProfileBrowser } from './helpers/browser';

/** The telemetry streams a test can watch from inside the page. */
export type WatchedStream = 'online$' | 'visibility$' | 'lifecycle$' | 'retry$' | 'outcome$';

/**
 * Subscribes, inside the page, to one of `window.vidframeTelemetryDiagnostics`'s streams and keeps what it emits (objects reduced
 * to their `type`, `outcome`, `potential` and `eventCount`), for {@link watched}.
 */
export const watch = (frame: Frame, name: WatchedStream) =>
  frame.evaluate((stream) => {
    const w = window as unknown as { vfWatched?: Record<string, unknown[]> };
    const list: unknown[] = [];
    (w.vfWatched ??= {})[stream] = list;
    const source = (window.vidframeTelemetryDiagnostics as unknown as Record<string, { subscribe(next: (v: unknown) => void): unknown }>)[stream];
    source.subscribe((value) => {
      if (typeof value !== 'object' || value === null) list.push(value);
      else {
        const { type, outcome, potential, eventCount } = value as Record<string, unknown>;
        list.push({ type, outcome, potential, eventCount });
      }
    });
  }, name);

/** What {@link watch} kept so far. */
export const watched = <T = unknown>(frame: Frame, name: WatchedStream) =>
  frame.evaluate((stream) => ((window as unknown as { vfWatched?: Record<string, unknown[]> }).vfWatched?.[stream] ?? []) as unknown[], name) as Promise<T[]>;
