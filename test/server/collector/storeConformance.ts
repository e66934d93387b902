import { createHash } from 'node:crypto';
import {
  type CollectorEndpoint,
  type CollectorStats,
  type CollectorStore,
  type IncomingErrorReport,
  type IncomingEvent,
  type IncomingPing,
  type IncomingRequest,
  type Page,
  type StoredEvent,
  type StoredRequest,
  StoreQueryError,
} from '../../../server/collector/store';
import { playerEvents } from '../../../streams/logging/playerEvents';
import { stampEvent, type ClientEvent, type LogEvent } from '../../../streams/logging/stampEvent';

/**
 * The collector store conformance suite: every rule of `server/collector/store.ts`, proven against any
 * store. A store's spec calls `describeStoreConformance(name, open)`; `open` gives a fresh, empty store for each
 * test, `reopen` (when the store can be reopened) opens the same data again after the suite has closed `store`, and
 * `cleanup` closes whatever `open`/`reopen` opened (closing twice must be harmless) and removes the data.
 *
 * What the suite pins down beyond the interface's words (both stores agree on these):
 * - arrival order is the order requests were stored, and within a request the order of its events; the first
 *   arrival of an event is the one kept (a resend neither moves it nor changes its request);
 * - `sinceMs` is inclusive, `untilMs` exclusive, on the received time; text search is case-insensitive and literal
 *   (`%` and `_` are characters, not wildcards), and so is the `pageId` prefix;
 * - a page is the stream of the first request that named it: `pageId` lists that stream's events with the page's id
 *   prefix, never another stream's;
 * - a key stored before with another payload is a conflict, kept and listed by `listConflicts`, never a duplicate;
 * - `timeseries` buckets are aligned on multiples of `bucketMs` since the epoch, by received time, oldest first,
 *   and only buckets that hold events or error reports are listed; `stats().errors` counts error reports;
 * - a cursor the store did not hand out is refused with a `StoreQueryError`;
 * - a request's `viewer` is listed as `accountId` / `channelId` on the request and on every event it stored first
 *   (a resend keeps the first arrival's, anonymous or not); anonymous requests and events, and those stored before
 *   the store kept viewers, have neither field; `accountId` filters by exact match.
 */
export interface ConformanceHandle {
  store: CollectorStore;
  reopen?: () => Promise<CollectorStore>;
  cleanup(): Promise<void>;
}

/**
 * A store's data as the schema version before viewers were kept wrote it: `create(sent)` makes a new
 * store at that version holding `sent`, written as that version wrote it, without the current code.
 */
export interface PreviousVersion {
  create(sent: readonly Sent[]): Promise<{
    /** Opens the data with the current code, which climbs the rest of the ladder in place. */
    open(): Promise<CollectorStore>;
    /** Closes what `open` opened and removes the data. */
    cleanup(): Promise<void>;
  }>;
}

export interface ConformanceOptions {
  /** When the store can be built at its previous schema version: proves the upgrade keeps old rows readable. */
  previousVersion?: PreviousVersion;
}

/** A time in whole minutes, so that the chart buckets below start on it. */
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

const ENVELOPE_KEYS = ['eventTimeMs', 'clientEventId', 'context'];
const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** The number the dashboard charts (as the ingest route computes it): seconds watched, a latency, a QoE duration. */
function chartValue(name: string, payload: Record<string, unknown>): number | undefined {
  if (name === 'watchTimeSegment' && finite(payload.startSec) && finite(payload.endSec)) return payload.endSec - payload.startSec;
  if (name === 'latencyReport' && finite(payload.durationMs)) return payload.durationMs;
  if (name === 'playerReady' && finite(payload.latencyMs)) return payload.latencyMs;
  if (name === 'startupTime' && finite(payload.startupMs)) return payload.startupMs;
  if ((name === 'rebufferEnd' || name === 'renditionPlayed') && finite(payload.durationMs)) return payload.durationMs;
  return undefined;
}

/** What the ingest route hands the store for one wire event: its JSON, and `clientEventId` as the dedupe key. */
export function incomingEvent(stream: string, event: Record<string, unknown>, endpoint: CollectorEndpoint = 'log_event'): IncomingEvent {
  const name = Object.keys(event).find((key) => !ENVELOPE_KEYS.includes(key));
  if (!name) throw new Error('an event needs a payload key');
  const json = JSON.stringify(event);
  const clientEventId = typeof event.clientEventId === 'string' ? event.clientEventId : undefined;
  const value = chartValue(name, (event[name] ?? {}) as Record<string, unknown>);
  return {
    stream,
    dedupeKey: clientEventId ?? `sha256:${createHash('sha256').update(json).digest('base64url')}`,
    ...(clientEventId !== undefined ? { clientEventId } : {}),
    name,
    endpoint,
    ...(finite(event.eventTimeMs) ? { eventTimeMs: event.eventTimeMs } : {}),
    ...(value !== undefined ? { value } : {}),
    json,
  };
}

let requestNumber = 0;

/** A request as the route stores it, and the events in it. */
export interface Sent {
  request: IncomingRequest;
  events: IncomingEvent[];
}

/**
 * One page of the embed, numbering its events and requests as the client's log sink does: `clientEventId` is
 * `{pageId}:{n}` from 1, and each request carries `serializedClientEventId {serializedEventId: pageId, clientCounter}`.
 */
export function clientPage(pageId: string, stream: string) {
  let n = 0;
  let counter = 0;
  return {
    pageId,
    stream,
    /** The next wire event of this page, stamped like `createLogSink` stamps it. */
    event(input: ClientEvent, eventTimeMs?: number): LogEvent {
      n += 1;
      return stampEvent(input, { eventTimeMs: eventTimeMs ?? T0 - 60_000 + n * 100, clientEventId: `${pageId}:${n}` }).event;
    },
    /** The next request of this page with these wire events, received at `receivedAtMs`. */
    request(
      receivedAtMs: number,
      events: LogEvent[] | Record<string, unknown>[],
      opts: { endpoint?: CollectorEndpoint; compressed?: boolean; refused?: number; requestId?: string; viewer?: IncomingRequest['viewer'] } = {},
    ): Sent {
      counter += 1;
      const endpoint = opts.endpoint ?? 'log_event';
      const incoming = events.map((e) => incomingEvent(stream, e as Record<string, unknown>, endpoint));
      const body = JSON.stringify({ events, requestTimeMs: receivedAtMs - 40, serializedClientEventId: { serializedEventId: pageId, clientCounter: counter } });
      return {
        events: incoming,
        request: {
          requestId: opts.requestId ?? `req-${String(++requestNumber).padStart(7, '0')}`,
          stream,
          endpoint,
          receivedAtMs,
          compressed: opts.compressed ?? false,
          contentType: opts.compressed ? 'application/json; charset=utf-8' : 'application/json',
          bodyBytes: opts.compressed ? Math.ceil(body.length / 3) : body.length,
          decodedBytes: body.length,
          headers: {
            'x-goog-visitor-id': `visitor-${pageId}`,
            'x-youtube-client-name': '56',
            'x-youtube-client-version': '1.0.0',
            'x-youtube-time-zone': 'Europe/Paris',
          },
          serializedClientEventId: { serializedEventId: pageId, clientCounter: counter },
          requestTimeMs: receivedAtMs - 40,
          contextJson: JSON.stringify({ client: { clientName: 'WEB_EMBEDDED_PLAYER', clientVersion: '1.0.0', hl: 'en' }, request: { useSsl: true } }),
          eventCount: events.length + (opts.refused ?? 0),
          refused: opts.refused ?? 0,
          ...(opts.viewer ? { viewer: opts.viewer } : {}),
        },
      };
    },
  };
}

/** `accountId` / `channelId` as the lists show a request's viewer: absent for an anonymous one. */
const attributionOf = ({ viewer }: IncomingRequest) => ({
  ...(viewer ? { accountId: viewer.accountId } : {}),
  ...(viewer?.channelId !== undefined ? { channelId: viewer.channelId } : {}),
});

/** The event as the store must list it, received (first) with `request`. */
export function storedEvent(e: IncomingEvent, request: IncomingRequest): StoredEvent {
  return {
    stream: e.stream,
    dedupeKey: e.dedupeKey,
    ...(e.clientEventId !== undefined ? { clientEventId: e.clientEventId } : {}),
    name: e.name,
    endpoint: e.endpoint,
    ...(e.eventTimeMs !== undefined ? { eventTimeMs: e.eventTimeMs } : {}),
    receivedAtMs: request.receivedAtMs,
    requestId: request.requestId,
    ...(e.value !== undefined ? { value: e.value } : {}),
    event: JSON.parse(e.json) as Record<string, unknown>,
    ...attributionOf(request),
  };
}

export function storedRequest(incoming: IncomingRequest, accepted: number, duplicates: number, conflicts = 0): StoredRequest {
  const { contextJson, viewer: _viewer, ...request } = incoming;
  return {
    ...request,
    ...(contextJson !== undefined ? { context: JSON.parse(contextJson) } : {}),
    accepted,
    duplicates,
    conflicts,
    ...attributionOf(incoming),
  };
}

const record = (store: CollectorStore, sent: Sent) => store.recordLogRequest(sent.request, sent.events);

/** Walks a list page by page; returns every item and the size of each page. */
export async function walk<T>(list: (cursor: string | undefined) => Promise<Page<T>>): Promise<{ items: T[]; sizes: number[] }> {
  const items: T[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 10_000; i++) {
    const page = await list(cursor);
    items.push(...page.items);
    sizes.push(page.items.length);
    if (page.nextCursor === undefined) return { items, sizes };
    cursor = page.nextCursor;
  }
  throw new Error('the list never reached its last page');
}

export const keyOf = (e: Pick<StoredEvent, 'stream' | 'dedupeKey'>) => `${e.stream}/${e.dedupeKey}`;
const keysOf = (events: Pick<StoredEvent, 'stream' | 'dedupeKey'>[]) => events.map(keyOf);

export const EMPTY_STATS: CollectorStats = {
  requests: 0,
  compressedRequests: 0,
  events: 0,
  duplicatesDropped: 0,
  conflicts: 0,
  refusedEvents: 0,
  byEndpoint: { log_event: 0, video_stats: 0 },
  byName: {},
  errors: 0,
};

const video = 'VFsunrise01';
const ev = {
  load: () => playerEvents.load({ videoId: video, autoplay: false, hostOrigin: 'https://host.example', playerStyle: 'embedded' }),
  ready: (latencyMs: number) => playerEvents.ready({ videoId: video, latencyMs }),
  state: (previousState: -1 | 0 | 1 | 2 | 3 | 5, state: -1 | 0 | 1 | 2 | 3 | 5, mediaTimeSec = 0, videoId = video) =>
    playerEvents.stateChange({ videoId, previousState, state, mediaTimeSec }),
  watch: (startSec: number, endSec: number) => playerEvents.watchTimeSegment({ videoId: video, startSec, endSec, playbackRate: 1, muted: false, volume: 80 }),
  error: (message: string) => playerEvents.error({ videoId: video, internalError: 'fmt.unplayable', hostErrorCode: 5, message }),
  latency: (durationMs: number) => playerEvents.latency({ action: 'embed', from: 'navigationStart', to: 'playerReady', durationMs }),
  volume: (volume: number) => playerEvents.asDebug(playerEvents.volumeChange({ videoId: video, volume, muted: false })),
  quality: () => playerEvents.asDebug(playerEvents.qualityChange({ videoId: video, previousQuality: '360p', quality: '720p' })),
  startup: (startupMs: number) => playerEvents.startupTime({ videoId: video, startupMs }),
  rebuffer: (durationMs: number) => playerEvents.rebufferEnd({ videoId: video, mediaTimeSec: 3, durationMs }),
  played: (quality: string, bitrate: number, durationMs: number) => playerEvents.renditionPlayed({ videoId: video, quality, bitrate, durationMs }),
};

function errorReport(receivedAtMs: number, message: string, more: Partial<IncomingErrorReport> = {}): IncomingErrorReport {
  return {
    receivedAtMs,
    message,
    messageTruncated: false,
    url: 'http://localhost:8080/embed/VFsunrise01',
    file: 'http://localhost:8080/assets/embed-3f2a.js',
    line: '112',
    stack: `TypeError: ${message}\n    at onReady (embed-3f2a.js:112:7)\n    at embed-3f2a.js:40:1`,
    type: 'error',
    extra: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', column: '7' },
    ...more,
  };
}

/** A ping beacon as the ping route hands it to the store. */
export function incomingPing(receivedAtMs: number, more: Partial<IncomingPing> = {}): IncomingPing {
  return {
    kind: 'watchtime',
    docid: video,
    ei: 'ei-response-0001',
    cpn: 'cpnAAAAAAAAAAAAA',
    seq: 1,
    receivedAtMs,
    cmt: 4.5,
    rt: 6.25,
    len: 12.008,
    state: 'playing',
    st: [0, 3],
    et: [2.5, 4.5],
    final: false,
    ...more,
  };
}

/** The ping as the store lists it: what was sent, and an id. */
const storedPing = (p: IncomingPing) => ({ ...p, id: expect.any(String) });

export function describeStoreConformance(name: string, open: () => Promise<ConformanceHandle>, { previousVersion }: ConformanceOptions = {}): void {
  describe(`${name} store: conformance to the collector store interface`, () => {
    let handle: ConformanceHandle;
    let store: CollectorStore;
    beforeEach(async () => {
      handle = await open();
      store = handle.store;
    });
    afterEach(async () => {
      await handle?.cleanup();
    });

    it('stores a log request and lists it with its events, field for field', async () => {
      const page = clientPage('pg7Kq2', 'st-alpha');
      const hashed = { eventTimeMs: T0 - 500, visibilityChange: { state: 'hidden' } }; // no clientEventId: a content hash is its key
      const sent = page.request(
        T0 + 1_000,
        [page.event(ev.load()), page.event(ev.ready(840)), page.event(ev.state(-1, 1)), page.event(ev.watch(0, 4.5)), hashed],
        {
          compressed: true,
        },
      );

      await expect(record(store, sent)).resolves.toEqual({ accepted: 5, duplicates: 0, conflicts: 0 });

      const events = await store.listEvents({ limit: 10 });
      expect(events.items).toEqual(sent.events.map((e) => storedEvent(e, sent.request)));
      expect(events.nextCursor).toBeUndefined();
      expect(events.items[1]).toMatchObject({ name: 'playerReady', value: 840 });
      expect(events.items[3]).toMatchObject({ name: 'watchTimeSegment', value: 4.5, event: { watchTimeSegment: { startSec: 0, endSec: 4.5 } } });
      expect(events.items[4].clientEventId).toBeUndefined();
      expect(events.items[4].dedupeKey).toMatch(/^sha256:/);

      const requests = await store.listRequests({ limit: 10 });
      expect(requests.items).toEqual([storedRequest(sent.request, 5, 0)]);
      expect(requests.items[0].context).toEqual({ client: { clientName: 'WEB_EMBEDDED_PLAYER', clientVersion: '1.0.0', hl: 'en' }, request: { useSsl: true } });
      expect(requests.nextCursor).toBeUndefined();
    });

    it('stores a resent event once: the resend counts it as a duplicate, and the first arrival is what is listed', async () => {
      const page = clientPage('pgR3s', 'st-resend');
      const [e1, e2, e3, e4, e5] = [
        page.event(ev.load()),
        page.event(ev.state(-1, 3)),
        page.event(ev.state(3, 1)),
        page.event(ev.watch(0, 2)),
        page.event(ev.state(1, 2, 2)),
      ];
      const first = page.request(T0 + 1_000, [e1, e2, e3]);
      const resend = page.request(T0 + 5_000, [e1, e2, e3, e4]); // the retry queue resends, with one more event
      const twiceInOne = page.request(T0 + 6_000, [e5, e5]);

      await expect(record(store, first)).resolves.toEqual({ accepted: 3, duplicates: 0, conflicts: 0 });
      await expect(record(store, resend)).resolves.toEqual({ accepted: 1, duplicates: 3, conflicts: 0 });
      await expect(record(store, twiceInOne)).resolves.toEqual({ accepted: 1, duplicates: 1, conflicts: 0 });

      const { items } = await store.listEvents({ limit: 100 });
      expect(items).toEqual([
        ...first.events.map((e) => storedEvent(e, first.request)),
        storedEvent(resend.events[3], resend.request),
        storedEvent(twiceInOne.events[0], twiceInOne.request),
      ]);
      expect((await store.listRequests({ limit: 10 })).items.map((r) => [r.requestId, r.accepted, r.duplicates])).toEqual([
        [first.request.requestId, 3, 0],
        [resend.request.requestId, 1, 3],
        [twiceInOne.request.requestId, 1, 1],
      ]);
      expect(await store.stats()).toMatchObject({ requests: 3, events: 5, duplicatesDropped: 4 });
    });

    it('scopes de-duplication to the stream: the same clientEventId in two streams is two events', async () => {
      const victim = clientPage('pgVict', 'st-victim');
      const attacker = clientPage('pgVict', 'st-attacker'); // knows the victim's page id, and so its next event ids
      const forged = attacker.request(T0 + 1_000, [attacker.event(ev.error('forged')), attacker.event(ev.error('forged')), attacker.event(ev.error('forged'))]);
      const real = victim.request(T0 + 2_000, [victim.event(ev.load()), victim.event(ev.state(-1, 1)), victim.event(ev.watch(0, 3))]);
      expect(real.events.map((e) => e.clientEventId)).toEqual(forged.events.map((e) => e.clientEventId));

      await expect(record(store, forged)).resolves.toEqual({ accepted: 3, duplicates: 0, conflicts: 0 });
      await expect(record(store, real)).resolves.toEqual({ accepted: 3, duplicates: 0, conflicts: 0 });

      expect((await store.listEvents({ limit: 10, stream: 'st-victim' })).items).toEqual(real.events.map((e) => storedEvent(e, real.request)));
      expect((await store.listEvents({ limit: 10, stream: 'st-attacker' })).items.map((e) => e.name)).toEqual(['playerError', 'playerError', 'playerError']);
      expect((await store.stats()).events).toBe(6);
    });

    it("lists under a page id only what the page's own stream sent: another stream using the page's id is not the page", async () => {
      const b = clientPage('pgOwn', 'st-own-b');
      const a = clientPage('pgOther', 'st-own-a'); // a page of its own, with a valid token of its own
      const asB = clientPage('pgOwn', 'st-own-a'); // the same stream, naming page B's id afterwards
      const real = b.request(T0 + 1_000, [b.event(ev.load()), b.event(ev.state(-1, 1))]);
      const prefixed = (page: ReturnType<typeof clientPage>, from: number) =>
        Array.from({ length: 10 }, (_, i) => ({
          eventTimeMs: T0,
          clientEventId: `pgOwn:${from + i}`,
          playerError: { internalError: 'forged', hostErrorCode: 2 },
        }));
      await record(store, real);
      await record(store, a.request(T0 + 2_000, prefixed(a, 100)));
      await record(store, asB.request(T0 + 3_000, prefixed(asB, 110)));

      expect(await store.listEvents({ limit: 100, pageId: 'pgOwn' })).toEqual({ items: real.events.map((e) => storedEvent(e, real.request)) });
      expect((await store.listRequests({ limit: 100, pageId: 'pgOwn' })).items.map((r) => r.requestId)).toEqual([real.request.requestId]);
      expect((await store.listEvents({ limit: 100, stream: 'st-own-a' })).items).toHaveLength(20); // stored, on their own stream
      expect((await store.listEvents({ limit: 100, pageId: 'pgNobody' })).items).toEqual([]);
    });

    it('keeps an event id repeated with another payload as a conflict, beside the first arrival: neither is lost', async () => {
      const page = clientPage('pgLeak', 'st-leak');
      const ids = Array.from({ length: 20 }, (_, i) => `pgLeak:${i + 1}`);
      const junk = ids.map((clientEventId) => ({ eventTimeMs: T0, clientEventId, playerError: { internalError: 'junk', hostErrorCode: 2 } }));
      const realEvents = ids.map((clientEventId, i) => ({ eventTimeMs: T0 + i, clientEventId, playerStateChange: { previousState: -1, state: 1 } }));
      // Whoever holds the page's leaked token claims its next 20 ids first, with junk; then the page's real request.
      const claimed = page.request(T0 + 1_000, junk);
      const real = page.request(T0 + 2_000, realEvents);
      await expect(record(store, claimed)).resolves.toEqual({ accepted: 20, duplicates: 0, conflicts: 0 });
      await expect(record(store, real)).resolves.toEqual({ accepted: 0, duplicates: 0, conflicts: 20 });
      // A resend of either copy repeats a stored payload: a duplicate, never a second conflict.
      await expect(record(store, page.request(T0 + 3_000, realEvents))).resolves.toEqual({ accepted: 0, duplicates: 20, conflicts: 0 });
      await expect(record(store, page.request(T0 + 4_000, junk))).resolves.toEqual({ accepted: 0, duplicates: 20, conflicts: 0 });
      // Two payloads under one key in one request: the first stored, the second a conflict.
      const twice = page.request(T0 + 5_000, [
        { eventTimeMs: T0, clientEventId: 'pgLeak:21', playerSeek: { toSec: 1 } },
        { eventTimeMs: T0, clientEventId: 'pgLeak:21', playerSeek: { toSec: 2 } },
      ]);
      await expect(record(store, twice)).resolves.toEqual({ accepted: 1, duplicates: 0, conflicts: 1 });

      expect((await store.listEvents({ limit: 100, pageId: 'pgLeak' })).items).toEqual([
        ...claimed.events.map((e) => storedEvent(e, claimed.request)),
        storedEvent(twice.events[0], twice.request),
      ]);
      const conflicts = await walk((cursor) => store.listConflicts({ limit: 7, cursor }));
      expect(conflicts.items).toEqual([...real.events.map((e) => storedEvent(e, real.request)), storedEvent(twice.events[1], twice.request)]);
      expect(conflicts.sizes).toEqual([7, 7, 7]);
      expect((await store.listConflicts({ limit: 100, stream: 'st-leak', pageId: 'pgLeak', sinceMs: T0 + 5_000 })).items).toHaveLength(1);
      expect((await store.listConflicts({ limit: 100, stream: 'st-other' })).items).toEqual([]);
      // The same filters as the events.
      expect((await store.listConflicts({ limit: 100, name: 'playerSeek', text: '"toSec":2' })).items).toEqual([storedEvent(twice.events[1], twice.request)]);
      expect((await store.listConflicts({ limit: 100, text: 'junk' })).items).toEqual([]);
      expect((await store.listRequests({ limit: 10 })).items.map((r) => [r.accepted, r.duplicates, r.conflicts])).toEqual([
        [20, 0, 0],
        [0, 0, 20],
        [0, 20, 0],
        [0, 20, 0],
        [1, 0, 1],
      ]);
      expect(await store.stats()).toMatchObject({ requests: 5, events: 21, duplicatesDropped: 40, conflicts: 21 });
      await expect(store.listConflicts({ limit: 1, cursor: 'not a cursor!' })).rejects.toBeInstanceOf(StoreQueryError);
      // Retention takes the conflicts received before the cutoff with the rest.
      await expect(store.deleteReceivedBefore(T0 + 5_000)).resolves.toBe(20);
      expect((await store.listConflicts({ limit: 100 })).items).toEqual([storedEvent(twice.events[1], twice.request)]);
      expect(await store.stats()).toMatchObject({ events: 1, conflicts: 1 });
    });

    it('pages walk every event exactly once, in arrival order, whatever the page size', async () => {
      const a = clientPage('pgA', 'st-a');
      const b = clientPage('pgB', 'st-b');
      const states = (page: ReturnType<typeof clientPage>, count: number) =>
        Array.from({ length: count }, (_, i) => page.event(i % 3 === 2 ? ev.watch(i, i + 1) : ev.state(1, 2, i)));
      // 12 events in one request: p:1 … p:12 must come back in that order (not p:1, p:10, p:11, p:12, p:2 …).
      const sent = [a.request(T0 + 1_000, states(a, 12)), b.request(T0 + 2_000, states(b, 10)), a.request(T0 + 3_000, states(a, 12))];
      for (const s of sent) await record(store, s);
      const expected = sent.flatMap((s) => s.events.map((e) => `${e.stream}/${e.dedupeKey}`));
      expect(expected).toHaveLength(34);

      for (const limit of [1, 5, 12, 34, 100]) {
        const { items, sizes } = await walk((cursor) => store.listEvents({ limit, cursor }));
        expect(keysOf(items)).toEqual(expected);
        const pages = Math.ceil(34 / limit);
        expect(sizes).toEqual([...Array(pages - 1).fill(limit), 34 - limit * (pages - 1)]);
      }

      // A cursor is a position, not a snapshot: what arrives while a reader pages is on its later pages.
      const firstPage = await store.listEvents({ limit: 30 });
      const late = b.request(T0 + 4_000, states(b, 3));
      await record(store, late);
      const rest = await walk((cursor) => store.listEvents({ limit: 4, cursor: cursor ?? firstPage.nextCursor }));
      expect([...keysOf(firstPage.items), ...keysOf(rest.items)]).toEqual([...expected, ...late.events.map((e) => `${e.stream}/${e.dedupeKey}`)]);

      // Filters and cursors together.
      const watched = await walk((cursor) => store.listEvents({ limit: 2, cursor, name: 'watchTimeSegment' }));
      expect(keysOf(watched.items)).toEqual(
        [...sent, late].flatMap((s) => s.events.filter((e) => e.name === 'watchTimeSegment').map((e) => `${e.stream}/${e.dedupeKey}`)),
      );
      expect(watched.items).toHaveLength(12);
    });

    it('refuses a cursor it did not hand out', async () => {
      const page = clientPage('pgCur', 'st-cursor');
      await record(store, page.request(T0, [page.event(ev.load()), page.event(ev.state(-1, 1))]));
      await expect(store.listEvents({ limit: 1, cursor: 'not a cursor!' })).rejects.toBeInstanceOf(StoreQueryError);
      await expect(store.listRequests({ limit: 1, cursor: 'not a cursor!' })).rejects.toBeInstanceOf(StoreQueryError);
      await expect(store.listErrors({ limit: 1, cursor: 'not a cursor!' })).rejects.toBeInstanceOf(StoreQueryError);
    });

    it('filters events by name, endpoint, stream, page, text and received time', async () => {
      const s1 = clientPage('pg_1', 'st-one'); // `_` is a LIKE wildcard: it must match only itself
      const s2 = clientPage('pgx1', 'st-two');
      const s3 = clientPage('pg_10', 'st-three');
      const one = s1.request(T0 + 1_000, [s1.event(ev.load()), s1.event(ev.state(-1, 1)), s1.event(ev.state(1, 2, 4)), s1.event(ev.watch(0, 4))]);
      const two = s2.request(T0 + 2_000, [s2.event(ev.state(-1, 1, 0, 'VFnight02')), s2.event(ev.error('50% of frames lost')), s2.event(ev.latency(95))]);
      const debug = s2.request(T0 + 3_000, [s2.event(ev.volume(50)), s2.event(ev.quality())], { endpoint: 'video_stats' });
      const three = s3.request(T0 + 4_000, [s3.event(ev.load()), s3.event(ev.state(-1, 1))]);
      for (const s of [one, two, debug, three]) await record(store, s);
      const list = async (query: Omit<Parameters<CollectorStore['listEvents']>[0], 'limit'>) =>
        (await store.listEvents({ limit: 100, ...query })).items.map((e) => `${e.stream}/${e.clientEventId}`);

      expect(await list({ name: 'playerStateChange' })).toEqual(['st-one/pg_1:2', 'st-one/pg_1:3', 'st-two/pgx1:1', 'st-three/pg_10:2']);
      expect(await list({ endpoint: 'video_stats' })).toEqual(['st-two/pgx1:4', 'st-two/pgx1:5']);
      expect(await list({ endpoint: 'log_event' })).toHaveLength(9);
      expect(await list({ stream: 'st-two' })).toEqual(['st-two/pgx1:1', 'st-two/pgx1:2', 'st-two/pgx1:3', 'st-two/pgx1:4', 'st-two/pgx1:5']);
      expect(await list({ pageId: 'pg_1' })).toEqual(['st-one/pg_1:1', 'st-one/pg_1:2', 'st-one/pg_1:3', 'st-one/pg_1:4']);
      expect(await list({ pageId: 'pg_10' })).toEqual(['st-three/pg_10:1', 'st-three/pg_10:2']);
      expect(await list({ pageId: 'pgx1' })).toHaveLength(5);
      expect(await list({ pageId: 'pg%' })).toEqual([]);
      expect(await list({ text: 'VFnight02' })).toEqual(['st-two/pgx1:1']); // in the JSON
      expect(await list({ text: 'quality' })).toEqual(['st-two/pgx1:5']); // the name qualityChange
      expect(await list({ text: 'PLAYERERROR' })).toEqual(['st-two/pgx1:2']); // case-insensitive
      expect(await list({ text: '50%' })).toEqual(['st-two/pgx1:2']); // `%` is literal (the volume 50 does not match)
      expect(await list({ text: 'no such text' })).toEqual([]);
      expect(await list({ sinceMs: T0 + 2_000, untilMs: T0 + 4_000 })).toEqual([
        'st-two/pgx1:1',
        'st-two/pgx1:2',
        'st-two/pgx1:3',
        'st-two/pgx1:4',
        'st-two/pgx1:5',
      ]);
      expect(await list({ sinceMs: T0 + 3_001 })).toEqual(['st-three/pg_10:1', 'st-three/pg_10:2']);
      expect(await list({ untilMs: T0 + 1_000 })).toEqual([]);
      expect(await list({ stream: 'st-two', endpoint: 'log_event', name: 'playerError', sinceMs: T0 })).toEqual(['st-two/pgx1:2']);
      const page = await store.listEvents({ limit: 100, name: 'nothing' });
      expect(page).toEqual({ items: [] });
    });

    it('pages requests, filtered by stream, page id (serializedEventId) and received time', async () => {
      const a = clientPage('pgReqA', 'st-req-a');
      const b = clientPage('pgReqB', 'st-req-b');
      const sent = [
        a.request(T0 + 1_000, [a.event(ev.load())]),
        b.request(T0 + 2_000, [b.event(ev.load())]),
        a.request(T0 + 3_000, [a.event(ev.state(-1, 1))], { compressed: true }),
        a.request(T0 + 4_000, [a.event(ev.watch(0, 1))], { refused: 2 }),
        b.request(T0 + 5_000, [b.event(ev.state(-1, 1))]),
      ];
      const anonymous = a.request(T0 + 6_000, [a.event(ev.state(1, 2))]);
      delete anonymous.request.serializedClientEventId; // a request without one: in the lists, never in a page's
      for (const s of [...sent, anonymous]) await record(store, s);
      const ids = (items: StoredRequest[]) => items.map((r) => r.requestId);
      const all = [...sent, anonymous].map((s) => s.request.requestId);

      const walked = await walk((cursor) => store.listRequests({ limit: 2, cursor }));
      expect(walked.sizes).toEqual([2, 2, 2]);
      expect(walked.items).toEqual([...sent, anonymous].map((s) => storedRequest(s.request, 1, 0)));
      expect(walked.items[2]).toMatchObject({ compressed: true, serializedClientEventId: { serializedEventId: 'pgReqA', clientCounter: 2 } });
      expect(walked.items[3]).toMatchObject({ refused: 2, eventCount: 3 });
      expect(walked.items[5].serializedClientEventId).toBeUndefined();

      expect(ids((await store.listRequests({ limit: 10, pageId: 'pgReqA' })).items)).toEqual([all[0], all[2], all[3]]);
      const pageB = await walk((cursor) => store.listRequests({ limit: 1, cursor, pageId: 'pgReqB' }));
      expect(ids(pageB.items)).toEqual([all[1], all[4]]);
      expect(pageB.sizes).toEqual([1, 1]);
      expect(ids((await store.listRequests({ limit: 10, stream: 'st-req-b' })).items)).toEqual([all[1], all[4]]);
      expect(ids((await store.listRequests({ limit: 10, sinceMs: T0 + 2_000, untilMs: T0 + 4_000 })).items)).toEqual([all[1], all[2]]);
      expect(ids((await store.listRequests({ limit: 10, pageId: 'pgReq' })).items)).toEqual([]);
    });

    it('attributes a request and the events it stores to the signed-in viewer; anonymous ones carry neither field', async () => {
      const page = clientPage('pgView', 'st-viewer');
      const signedIn = page.request(T0 + 1_000, [page.event(ev.load()), page.event(ev.state(-1, 1))], {
        viewer: { accountId: 'acct-7f3a', channelId: 'UCchan01' },
      });
      const accountOnly = page.request(T0 + 2_000, [page.event(ev.watch(0, 3))], { viewer: { accountId: 'acct-7f3a' } });
      const anonymous = page.request(T0 + 3_000, [page.event(ev.state(1, 2, 3))]);
      for (const s of [signedIn, accountOnly, anonymous])
        await expect(record(store, s)).resolves.toEqual({ accepted: s.events.length, duplicates: 0, conflicts: 0 });

      const events = (await store.listEvents({ limit: 10 })).items;
      expect(events).toEqual([signedIn, accountOnly, anonymous].flatMap((s) => s.events.map((e) => storedEvent(e, s.request))));
      expect(events.map((e) => [e.accountId, e.channelId])).toEqual([
        ['acct-7f3a', 'UCchan01'],
        ['acct-7f3a', 'UCchan01'],
        ['acct-7f3a', undefined],
        [undefined, undefined],
      ]);
      expect(events[2]).not.toHaveProperty('channelId');
      expect(events[3]).not.toHaveProperty('accountId');
      expect(events[3]).not.toHaveProperty('channelId');

      const requests = (await store.listRequests({ limit: 10 })).items;
      expect(requests).toEqual([storedRequest(signedIn.request, 2, 0), storedRequest(accountOnly.request, 1, 0), storedRequest(anonymous.request, 1, 0)]);
      expect(requests.map((r) => [r.accountId, r.channelId])).toEqual([
        ['acct-7f3a', 'UCchan01'],
        ['acct-7f3a', undefined],
        [undefined, undefined],
      ]);
      expect(requests[2]).not.toHaveProperty('accountId');
      for (const r of requests) expect(r).not.toHaveProperty('viewer');
    });

    it('keeps the first arrival’s attribution when another viewer resends an event', async () => {
      const page = clientPage('pgViewResend', 'st-viewer-resend');
      const [e1, e2, e3, e4] = [page.event(ev.load()), page.event(ev.state(-1, 1)), page.event(ev.state(1, 2, 1)), page.event(ev.watch(0, 1))];
      const anonymous = page.request(T0 + 1_000, [e1, e2]);
      const signedInResend = page.request(T0 + 2_000, [e1, e2, e3], { viewer: { accountId: 'acct-late' } }); // signed in since
      const anonymousResend = page.request(T0 + 3_000, [e3, e4]); // signed out again
      await expect(record(store, anonymous)).resolves.toEqual({ accepted: 2, duplicates: 0, conflicts: 0 });
      await expect(record(store, signedInResend)).resolves.toEqual({ accepted: 1, duplicates: 2, conflicts: 0 });
      await expect(record(store, anonymousResend)).resolves.toEqual({ accepted: 1, duplicates: 1, conflicts: 0 });

      expect((await store.listEvents({ limit: 10 })).items).toEqual([
        ...anonymous.events.map((e) => storedEvent(e, anonymous.request)),
        storedEvent(signedInResend.events[2], signedInResend.request),
        storedEvent(anonymousResend.events[1], anonymousResend.request),
      ]);
      expect((await store.listEvents({ limit: 10, accountId: 'acct-late' })).items.map((e) => e.clientEventId)).toEqual([e3.clientEventId]);
      expect((await store.listRequests({ limit: 10, accountId: 'acct-late' })).items.map((r) => [r.requestId, r.accepted, r.duplicates])).toEqual([
        [signedInResend.request.requestId, 1, 2],
      ]);
    });

    it('filters events and requests by accountId (exactly), page by page, together with the other filters', async () => {
      const alice = { accountId: 'acct-alice' };
      const bob = { accountId: 'acct-bob', channelId: 'UCbob' };
      const a = clientPage('pgAcctA', 'st-acct-a'); // anonymous at first, then signed in as alice
      const b = clientPage('pgAcctB', 'st-acct-b');
      const n = clientPage('pgAcctN', 'st-acct-n'); // never signed in
      const states = (page: ReturnType<typeof clientPage>, count: number) =>
        Array.from({ length: count }, (_, i) => page.event(i % 3 === 2 ? ev.watch(i, i + 1) : ev.state(1, 2, i)));
      const sent = [
        a.request(T0 + 1_000, states(a, 2)),
        a.request(T0 + 2_000, states(a, 3), { viewer: alice }),
        b.request(T0 + 3_000, states(b, 2), { viewer: bob }),
        n.request(T0 + 4_000, states(n, 3)),
        a.request(T0 + 5_000, states(a, 4), { viewer: alice }),
        b.request(T0 + 6_000, states(b, 1), { viewer: bob }),
        a.request(T0 + 7_000, states(a, 2), { viewer: alice }),
      ];
      for (const s of sent) await record(store, s);
      const sentBy = (accountId: string) => sent.filter((s) => s.request.viewer?.accountId === accountId);
      const aliceKeys = sentBy('acct-alice').flatMap((s) => s.events.map((e) => `${e.stream}/${e.dedupeKey}`));
      expect(aliceKeys).toHaveLength(9);

      for (const limit of [1, 2, 4, 9, 100]) {
        const { items, sizes } = await walk((cursor) => store.listEvents({ limit, cursor, accountId: 'acct-alice' }));
        expect(keysOf(items)).toEqual(aliceKeys);
        const pages = Math.ceil(9 / limit);
        expect(sizes).toEqual([...Array(pages - 1).fill(limit), 9 - limit * (pages - 1)]);
        expect(new Set(items.map((e) => e.accountId))).toEqual(new Set(['acct-alice']));
      }
      const bobs = await walk((cursor) => store.listEvents({ limit: 2, cursor, accountId: 'acct-bob' }));
      expect(bobs.items).toEqual(sentBy('acct-bob').flatMap((s) => s.events.map((e) => storedEvent(e, s.request))));
      expect(bobs.sizes).toEqual([2, 1]);

      // Exact match only: no prefix, no case folding, and anonymous events never match.
      for (const accountId of ['acct-ali', 'ACCT-ALICE', 'acct-alice ', '', 'acct-nobody']) {
        expect((await store.listEvents({ limit: 100, accountId })).items).toEqual([]);
        expect((await store.listRequests({ limit: 100, accountId })).items).toEqual([]);
      }

      // With the other filters and time bounds.
      const aliceWatched = sentBy('acct-alice').flatMap((s) => s.events.filter((e) => e.name === 'watchTimeSegment').map((e) => `${e.stream}/${e.dedupeKey}`));
      expect(keysOf((await walk((cursor) => store.listEvents({ limit: 1, cursor, accountId: 'acct-alice', name: 'watchTimeSegment' }))).items)).toEqual(
        aliceWatched,
      );
      expect(keysOf((await store.listEvents({ limit: 100, accountId: 'acct-alice', stream: 'st-acct-b' })).items)).toEqual([]);
      expect(keysOf((await store.listEvents({ limit: 100, accountId: 'acct-alice', sinceMs: T0 + 5_000, untilMs: T0 + 7_000 })).items)).toEqual(
        sent[4].events.map((e) => `${e.stream}/${e.dedupeKey}`),
      );
      expect((await store.listEvents({ limit: 100, stream: 'st-acct-a' })).items).toHaveLength(11); // the anonymous start too

      const aliceRequests = await walk((cursor) => store.listRequests({ limit: 1, cursor, accountId: 'acct-alice' }));
      expect(aliceRequests.items.map((r) => r.requestId)).toEqual(sentBy('acct-alice').map((s) => s.request.requestId));
      expect(aliceRequests.sizes).toEqual([1, 1, 1]);
      expect((await store.listRequests({ limit: 10, accountId: 'acct-bob' })).items).toEqual(
        sentBy('acct-bob').map((s) => storedRequest(s.request, s.events.length, 0)),
      );
      expect((await store.listRequests({ limit: 10, accountId: 'acct-alice', pageId: 'pgAcctB' })).items).toEqual([]);
      expect((await store.listRequests({ limit: 10, accountId: 'acct-alice', sinceMs: T0 + 3_000 })).items.map((r) => r.requestId)).toEqual([
        sent[4].request.requestId,
        sent[6].request.requestId,
      ]);
    });

    (previousVersion ? it : it.skip)('upgrades data stored before viewers were kept, in place: old rows read back without them', async () => {
      const page = clientPage('pgOld', 'st-old');
      const [e1, e2, e3] = [page.event(ev.load()), page.event(ev.state(-1, 1)), page.event(ev.watch(0, 2))];
      const old = page.request(T0 + 1_000, [e1, e2]);
      const legacy = await previousVersion!.create([old]);
      try {
        const upgraded = await legacy.open();
        const events = (await upgraded.listEvents({ limit: 10 })).items;
        expect(events).toEqual(old.events.map((e) => storedEvent(e, old.request)));
        for (const e of events) expect(Object.keys(e).filter((k) => k === 'accountId' || k === 'channelId')).toEqual([]);
        const [request] = (await upgraded.listRequests({ limit: 10 })).items;
        expect(request).toEqual(storedRequest(old.request, 2, 0));
        expect(request).not.toHaveProperty('accountId');
        expect(request).not.toHaveProperty('channelId');

        // The upgraded store keeps viewers from now on; an old event resent by a signed-in viewer stays as it was.
        const signedIn = page.request(T0 + 2_000, [e2, e3], { viewer: { accountId: 'acct-upgraded', channelId: 'UCup' } });
        await expect(record(upgraded, signedIn)).resolves.toEqual({ accepted: 1, duplicates: 1, conflicts: 0 });
        expect((await upgraded.listEvents({ limit: 10 })).items).toEqual([...events, storedEvent(signedIn.events[1], signedIn.request)]);
        expect((await upgraded.listEvents({ limit: 10, accountId: 'acct-upgraded' })).items.map((e) => e.clientEventId)).toEqual([e3.clientEventId]);
        expect((await upgraded.listRequests({ limit: 10 })).items).toEqual([storedRequest(old.request, 2, 0), storedRequest(signedIn.request, 1, 1)]);
        expect((await upgraded.listRequests({ limit: 10, accountId: 'acct-upgraded' })).items.map((r) => r.requestId)).toEqual([signedIn.request.requestId]);
      } finally {
        await legacy.cleanup();
      }
    });

    it('pages error reports, every field kept', async () => {
      const reports = [
        errorReport(T0 + 1_000, "Cannot read properties of undefined (reading 'play')"),
        { receivedAtMs: T0 + 2_000, message: 'Script error.', messageTruncated: false, extra: {} },
        errorReport(T0 + 3_000, 'x'.repeat(250), { messageTruncated: true, type: 'unhandledrejection', extra: { reason: '"quoted" \\ back\nslash' } }),
        errorReport(T0 + 4_000, 'ResizeObserver loop limit exceeded', { line: undefined, file: undefined }),
        errorReport(T0 + 5_000, 'Failed to fetch'),
      ] satisfies IncomingErrorReport[];
      for (const r of reports) await store.recordError(r);

      const walked = await walk((cursor) => store.listErrors({ limit: 2, cursor }));
      expect(walked.sizes).toEqual([2, 2, 1]);
      expect(walked.items).toEqual(reports.map((r) => ({ ...r, id: expect.any(String) })));
      expect(walked.items[1]).not.toHaveProperty('url');
      expect(walked.items[3]).not.toHaveProperty('line');
      expect(new Set(walked.items.map((r) => r.id)).size).toBe(5);
      expect((await store.listErrors({ limit: 10, sinceMs: T0 + 2_000, untilMs: T0 + 4_000 })).items.map((r) => r.receivedAtMs)).toEqual([
        T0 + 2_000,
        T0 + 3_000,
      ]);
    });

    it('stats total what is stored', async () => {
      await expect(store.stats()).resolves.toEqual(EMPTY_STATS);
      const page = clientPage('pgStats', 'st-stats');
      const first = page.request(T0 + 1_000, [page.event(ev.load()), page.event(ev.state(-1, 1)), page.event(ev.state(1, 2, 3))], { compressed: true });
      const debug = page.request(T0 + 2_000, [page.event(ev.volume(20)), page.event(ev.quality())], { endpoint: 'video_stats', refused: 2 });
      const resend = page.request(T0 + 3_000, [...first.events.map((e) => JSON.parse(e.json) as LogEvent), page.event(ev.watch(0, 3))]);
      for (const s of [first, debug, resend]) await record(store, s);
      await store.recordError(errorReport(T0 + 1_500, 'one'));
      await store.recordError(errorReport(T0 + 2_500, 'two'));

      await expect(store.stats()).resolves.toEqual({
        requests: 3,
        compressedRequests: 1,
        events: 6,
        duplicatesDropped: 3,
        conflicts: 0,
        refusedEvents: 2,
        byEndpoint: { log_event: 4, video_stats: 2 },
        byName: { playerLoad: 1, playerStateChange: 2, volumeChange: 1, qualityChange: 1, watchTimeSegment: 1 },
        errors: 2,
      });
    });

    it('charts events, sessions, watch time, state changes, errors and latency per time bucket', async () => {
      const a = clientPage('pgTsA', 'st-ts-a');
      const b = clientPage('pgTsB', 'st-ts-b');
      const before = a.request(T0 - 1, [a.event(ev.state(-1, 1))]); // outside: before sinceMs
      const a1 = a.request(T0 + 1_000, [
        a.event(ev.load()),
        a.event(ev.ready(900)),
        a.event(ev.state(-1, 1)),
        a.event(ev.watch(0, 4.5)),
        a.event(ev.latency(120)),
      ]);
      const b1 = b.request(T0 + 2_000, [b.event(ev.state(-1, 1)), b.event(ev.latency(80))]);
      const a2 = a.request(T0 + 15_000, [a.event(ev.watch(4.5, 10)), a.event(ev.error('decode error'))]);
      const after = b.request(T0 + 60_000, [b.event(ev.state(1, 2))]); // outside: untilMs is exclusive
      for (const s of [before, a1, b1, a2, after]) await record(store, s);
      await store.recordError(errorReport(T0 + 16_000, 'reported'));
      await store.recordError(errorReport(T0 + 35_000, 'alone in its bucket'));
      await store.recordError(errorReport(T0 + 60_000, 'outside'));

      await expect(store.timeseries({ sinceMs: T0, untilMs: T0 + 60_000, bucketMs: 10_000 })).resolves.toEqual([
        // the latency mean is that of latencyReport (120, 80), not playerReady's 900
        { startMs: T0, events: 7, sessions: 2, watchTimeSec: 4.5, stateChanges: 2, errors: 0, latencyMeanMs: 100 },
        { startMs: T0 + 10_000, events: 2, sessions: 1, watchTimeSec: 5.5, stateChanges: 0, errors: 2 },
        { startMs: T0 + 30_000, events: 0, sessions: 0, watchTimeSec: 0, stateChanges: 0, errors: 1 },
      ]);
      await expect(store.timeseries({ sinceMs: T0, untilMs: T0 + 60_000, bucketMs: 60_000 })).resolves.toEqual([
        { startMs: T0, events: 9, sessions: 2, watchTimeSec: 10, stateChanges: 2, errors: 3, latencyMeanMs: 100 },
      ]);
      const [withoutLatency] = await store.timeseries({ sinceMs: T0 + 10_000, untilMs: T0 + 20_000, bucketMs: 10_000 });
      expect(withoutLatency).toEqual({ startMs: T0 + 10_000, events: 2, sessions: 1, watchTimeSec: 5.5, stateChanges: 0, errors: 2 });
      expect(withoutLatency).not.toHaveProperty('latencyMeanMs');
      await expect(store.timeseries({ sinceMs: T0 + 40_000, untilMs: T0 + 50_000, bucketMs: 1_000 })).resolves.toEqual([]);
    });

    it('charts rebuffer time, the time-weighted bitrate and start-up time percentiles per time bucket', async () => {
      const a = clientPage('pgQoeA', 'st-qoe-a');
      const b = clientPage('pgQoeB', 'st-qoe-b');
      // 20 start-up times 50, 100, … 1000 ms in the first bucket, over two sessions and in no order.
      const startups = Array.from({ length: 20 }, (_, k) => ((k * 7) % 20) * 50 + 50);
      const a1 = a.request(T0 + 1_000, [
        a.event(ev.watch(0, 20)),
        a.event(ev.rebuffer(1_500)),
        a.event(ev.played('small', 300_000, 6_000)),
        a.event(ev.played('large', 1_200_000, 2_000)),
        a.event(ev.played('medium', 700_000, 0)), // no time on screen: no weight
        ...startups.slice(0, 12).map((ms) => a.event(ev.startup(ms))),
      ]);
      const b1 = b.request(T0 + 2_000, [b.event(ev.rebuffer(500)), ...startups.slice(12).map((ms) => b.event(ev.startup(ms)))]);
      const b2 = b.request(T0 + 12_000, [b.event(ev.startup(700)), b.event(ev.watch(0, 5))]);
      for (const s of [a1, b1, b2]) await record(store, s);

      const buckets = await store.timeseries({ sinceMs: T0, untilMs: T0 + 60_000, bucketMs: 10_000 });
      expect(buckets).toEqual([
        expect.objectContaining({
          startMs: T0,
          watchTimeSec: 20,
          rebufferSec: 2,
          bitrateMeanBps: 525_000,
          startupP50Ms: 550,
          startupP90Ms: 950,
          startupP99Ms: 1000,
        }),
        expect.objectContaining({ startMs: T0 + 10_000, watchTimeSec: 5, startupP50Ms: 700, startupP90Ms: 700, startupP99Ms: 700 }),
      ]);
      expect(buckets[1]).not.toHaveProperty('rebufferSec');
      expect(buckets[1]).not.toHaveProperty('bitrateMeanBps');
    });

    it('deletes what was received before a cutoff, and says how many events went', async () => {
      const page = clientPage('pgRet', 'st-retention');
      const old = page.request(T0 + 1_000, [page.event(ev.load()), page.event(ev.state(-1, 1)), page.event(ev.watch(0, 2))]);
      const edge = page.request(T0 + 2_000, [page.event(ev.state(1, 2)), page.event(ev.state(2, 1))]);
      const recent = page.request(T0 + 3_000, [page.event(ev.watch(2, 5)), page.event(ev.state(1, 0))]);
      for (const s of [old, edge, recent]) await record(store, s);
      await store.recordError(errorReport(T0 + 1_500, 'old'));
      await store.recordError(errorReport(T0 + 3_500, 'recent'));

      await expect(store.deleteReceivedBefore(T0 + 2_000)).resolves.toBe(3);

      expect((await store.listEvents({ limit: 100 })).items).toEqual([
        ...edge.events.map((e) => storedEvent(e, edge.request)),
        ...recent.events.map((e) => storedEvent(e, recent.request)),
      ]);
      expect((await store.listRequests({ limit: 10 })).items.map((r) => r.requestId)).toEqual([edge.request.requestId, recent.request.requestId]);
      expect((await store.listErrors({ limit: 10 })).items.map((r) => r.message)).toEqual(['recent']);
      const stats = await store.stats();
      expect(stats).toMatchObject({ requests: 2, events: 4, errors: 1, byEndpoint: { log_event: 4, video_stats: 0 } });
      expect(stats.byName).toEqual({ playerStateChange: 3, watchTimeSegment: 1 });
      await expect(store.deleteReceivedBefore(T0)).resolves.toBe(0);
      expect((await store.stats()).events).toBe(4);
    });

    it('clear forgets everything, and the store keeps working', async () => {
      const page = clientPage('pgClr', 'st-clear');
      const sent = page.request(T0 + 1_000, [page.event(ev.load()), page.event(ev.state(-1, 1))]);
      await record(store, sent);
      await store.recordError(errorReport(T0 + 1_000, 'gone'));

      await store.clear();

      await expect(store.stats()).resolves.toEqual(EMPTY_STATS);
      await expect(store.listEvents({ limit: 10 })).resolves.toEqual({ items: [] });
      await expect(store.listRequests({ limit: 10 })).resolves.toEqual({ items: [] });
      await expect(store.listErrors({ limit: 10 })).resolves.toEqual({ items: [] });
      await expect(store.timeseries({ sinceMs: T0, untilMs: T0 + 10_000, bucketMs: 1_000 })).resolves.toEqual([]);
      // Forgotten means forgotten: the same events are new again.
      await expect(record(store, sent)).resolves.toEqual({ accepted: 2, duplicates: 0, conflicts: 0 });
      expect((await store.listEvents({ limit: 10 })).items).toHaveLength(2);
    });

    it('stores ping beacons field for field, a resent ping once, and lists them in arrival order, page by page, filtered', async () => {
      const playback = incomingPing(T0 + 1_000, { kind: 'playback', seq: 0, cmt: 0, rt: 1.2, state: undefined, st: [], et: [] });
      const first = incomingPing(T0 + 2_000, { len: undefined });
      const paused = incomingPing(T0 + 3_000, { seq: 2, cmt: 7.25, state: 'paused', st: [4.5], et: [7.25] });
      const other = incomingPing(T0 + 3_000, {
        docid: 'VFcitylight',
        ei: 'ei-response-0002',
        cpn: 'cpnBBBBBBBBBBBBB',
        seq: 1,
        final: true,
        state: "it's \\ 😀",
      });
      for (const p of [playback, first, paused, other]) await expect(store.recordPing(p)).resolves.toEqual({ stored: true });
      // The client resent a ping whose answer it never saw (later, from another collector): one row, the first kept.
      await expect(store.recordPing({ ...first, receivedAtMs: T0 + 4_000, cmt: 99 })).resolves.toEqual({ stored: false });
      // The same seq of the other kind, or of another playback, is another ping.
      await expect(store.recordPing(incomingPing(T0 + 5_000, { kind: 'playback', seq: 2, st: [], et: [] }))).resolves.toEqual({ stored: true });

      const all = await walk((cursor) => store.listPings({ limit: 2, cursor }));
      expect(all.sizes).toEqual([2, 2, 1]);
      expect(all.items.slice(0, 4)).toEqual([playback, first, paused, other].map(storedPing));
      expect(all.items[1]).not.toHaveProperty('len');
      expect(all.items[0]).not.toHaveProperty('state');
      expect(new Set(all.items.map((p) => p.id)).size).toBe(5);

      expect((await store.listPings({ limit: 10, docid: 'VFcitylight' })).items).toEqual([storedPing(other)]);
      expect((await store.listPings({ limit: 10, ei: 'ei-response-0001', kind: 'watchtime' })).items.map((p) => p.seq)).toEqual([1, 2]);
      expect((await store.listPings({ limit: 10, cpn: 'cpnBBBBBBBBBBBBB' })).items).toHaveLength(1);
      expect((await store.listPings({ limit: 10, kind: 'playback' })).items.map((p) => p.seq)).toEqual([0, 2]);
      expect((await store.listPings({ limit: 10, sinceMs: T0 + 3_000, untilMs: T0 + 5_000 })).items.map((p) => p.docid)).toEqual([video, 'VFcitylight']);
      await expect(store.listPings({ limit: 10, cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(StoreQueryError);

      // Retention and clear reach the pings too; pings are not log events (the stats do not count them).
      expect((await store.stats()).events).toBe(0);
      await store.deleteReceivedBefore(T0 + 3_000);
      expect((await store.listPings({ limit: 10 })).items.map((p) => p.receivedAtMs)).toEqual([T0 + 3_000, T0 + 3_000, T0 + 5_000]);
      await store.clear();
      await expect(store.listPings({ limit: 10 })).resolves.toEqual({ items: [] });
      await expect(store.recordPing(first)).resolves.toEqual({ stored: true });
    });

    it('answers ping, and names its kind', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
      expect(store.kind).toMatch(/^[a-z]+$/);
    });

    it('stores concurrent overlapping requests without losing or repeating an event', async () => {
      const page = clientPage('pgConc', 'st-concurrent');
      const wire = Array.from({ length: 29 }, (_, i) => page.event(i % 2 ? ev.state(1, 2, i) : ev.watch(i, i + 1)));
      // 20 requests at once, request i carrying events i … i+9: every event but the ends arrives several times.
      const sent = Array.from({ length: 20 }, (_, i) => page.request(T0 + 1_000 + i, wire.slice(i, i + 10)));
      const outcomes = await Promise.all(sent.map((s) => record(store, s)));

      // Each of the 29 events is accepted once, by whichever request stored it first; the other arrivals are duplicates.
      expect(outcomes.reduce((n, o) => n + o.accepted, 0)).toBe(29);
      const { items } = await walk((cursor) => store.listEvents({ limit: 7, cursor }));
      expect(keysOf(items).sort()).toEqual(wire.map((e) => `st-concurrent/${e.clientEventId}`).sort());
      expect((await store.stats()).events).toBe(29);
    });

    it('keeps any text verbatim: quotes, backslashes, SQL, control characters, emoji', async () => {
      const hostile = `it's "quoted" \\ back\\slash '); DROP TABLE collector_events; -- \n\ttab \u2028 😀 %_ {x:String}`;
      const stream = `st-'\\"-${hostile.length}`;
      const event = { eventTimeMs: T0, clientEventId: `pg'\\:1`, playerError: { internalError: 'api.invalidparam', hostErrorCode: 2, message: hostile } };
      const viewer = { accountId: `acct-${hostile}`, channelId: hostile };
      const sent: Sent = {
        request: { ...clientPage(`pg'\\`, stream).request(T0 + 1_000, []).request, eventCount: 1, headers: { 'user-agent': hostile }, viewer },
        events: [incomingEvent(stream, event)],
      };
      await expect(record(store, sent)).resolves.toEqual({ accepted: 1, duplicates: 0, conflicts: 0 });
      await store.recordError(errorReport(T0 + 1_000, hostile, { stack: hostile, extra: { [hostile]: hostile } }));

      const [stored] = (await store.listEvents({ limit: 10, stream })).items;
      expect(stored).toEqual(storedEvent(sent.events[0], sent.request));
      expect(stored.event).toEqual(event);
      expect((await store.listEvents({ limit: 10, pageId: `pg'\\` })).items).toHaveLength(1);
      expect((await store.listEvents({ limit: 10, text: "'); DROP TABLE" })).items).toHaveLength(1);
      expect((await store.listEvents({ limit: 10, text: '%_ {x:String}' })).items).toHaveLength(1);
      expect((await store.listRequests({ limit: 10, stream })).items[0].headers).toEqual({ 'user-agent': hostile });
      expect(stored).toMatchObject({ accountId: viewer.accountId, channelId: hostile });
      expect((await store.listEvents({ limit: 10, accountId: viewer.accountId })).items).toEqual([stored]);
      expect((await store.listRequests({ limit: 10, accountId: viewer.accountId })).items.map((r) => [r.accountId, r.channelId])).toEqual([
        [viewer.accountId, hostile],
      ]);
      expect((await store.listEvents({ limit: 10, accountId: "acct-it's" })).items).toEqual([]);
      const [report] = (await store.listErrors({ limit: 10 })).items;
      expect(report).toMatchObject({ message: hostile, stack: hostile, extra: { [hostile]: hostile } });
      expect((await store.stats()).events).toBe(1);
    });

    it('finishes in-flight writes on close, refuses work once closed, and keeps its data across a reopen', async () => {
      const page = clientPage('pgDur', 'st-durable');
      const acknowledged = page.request(T0 + 1_000, [page.event(ev.load()), page.event(ev.state(-1, 1)), page.event(ev.watch(0, 6))]);
      await record(store, acknowledged);
      await store.recordError(errorReport(T0 + 1_100, 'kept'));
      const listedBefore = (await store.listEvents({ limit: 100 })).items;
      const statsBefore = await store.stats();
      const inFlight = page.request(T0 + 2_000, [page.event(ev.state(1, 2, 6))]);
      const writing = record(store, inFlight); // not awaited: close must finish it first

      await store.close();
      await expect(writing).resolves.toEqual({ accepted: 1, duplicates: 0, conflicts: 0 });
      await expect(store.close()).resolves.toBeUndefined();
      await expect(record(store, page.request(T0 + 3_000, [page.event(ev.load())]))).rejects.toThrow();

      if (!handle.reopen) {
        await expect(store.listEvents({ limit: 1 })).rejects.toThrow();
        return;
      }
      const reopened = await handle.reopen();
      const listed = (await reopened.listEvents({ limit: 100 })).items;
      expect(listed).toEqual([...listedBefore, storedEvent(inFlight.events[0], inFlight.request)]);
      expect(await reopened.stats()).toEqual({
        ...statsBefore,
        requests: 2,
        events: 4,
        byEndpoint: { log_event: 4, video_stats: 0 },
        byName: { ...statsBefore.byName, playerStateChange: 2 },
      });
      expect((await reopened.listErrors({ limit: 10 })).items.map((r) => r.message)).toEqual(['kept']);
      // De-duplication lives in the data, not in memory: the reopened store knows the events already.
      await expect(
        record(
          reopened,
          page.request(
            T0 + 4_000,
            acknowledged.events.map((e) => JSON.parse(e.json) as LogEvent),
          ),
        ),
      ).resolves.toEqual({
        accepted: 0,
        duplicates: 3,
        conflicts: 0,
      });
    });
  });
}
