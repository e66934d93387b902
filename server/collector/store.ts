/**
 * The collector's store interface. Two stores implement it: SQLite (`sqlite/`, the embedded default) and
 * ClickHouse (`clickhouse/`, for several stateless collectors). The shared conformance suite
 * (`test/server/collector/storeConformance.ts`) proves both against the same expectations.
 *
 * Rules every store keeps:
 * - `recordLogRequest` resolves only after what it stored is durable (the SQLite transaction committed, the
 *   ClickHouse insert acknowledged). The route acknowledges the client only then.
 * - De-duplication is the store's own unique key (stream, dedupeKey), never a set in memory: a resent event is stored
 *   once, however many times and through however many collectors it arrives. A resend is an event whose key is stored
 *   with the same payload (compared by a hash of its JSON); a key stored with another payload is a **conflict**, kept
 *   as well (`listConflicts`), never dropped: whoever holds a stream's token and sends its ids first cannot make the
 *   page's own events vanish.
 * - Everything a stream token reaches is scoped to that stream: de-duplication, and the `pageId` filters, which list
 *   only what the page's own stream sent (see {@link EventQuery.pageId}).
 * - Nothing is held in memory in proportion to the store's size; reads are pages with a cursor and a bounded size.
 */
import type {
  CollectorEndpoint,
  CollectorStats,
  Page,
  StoredEvent,
  TimeseriesBucket,
  TimeseriesQuery,
  ViewerAttribution,
} from '../../streams/collector/adminApi';
import { COLLECTOR_ENDPOINTS } from '../../streams/collector/adminApi';

export { COLLECTOR_ENDPOINTS };
export type { CollectorEndpoint, CollectorStats, Page, StoredEvent, TimeseriesBucket, TimeseriesQuery, ViewerAttribution };

/** One validated event, ready to store (built by `ingest/validateEvents.ts`). */
export interface IncomingEvent {
  /** The server-issued stream the event belongs to (from the verified stream token). */
  stream: string;
  /** The client's `clientEventId`, or a content hash for events that carry none. Unique within the stream. */
  dedupeKey: string;
  clientEventId?: string;
  /** The payload key of the event (`playerStateChange`, …). */
  name: string;
  endpoint: CollectorEndpoint;
  eventTimeMs?: number;
  /**
   * The number the dashboard charts for this event, when it has one: seconds watched for `watchTimeSegment`,
   * milliseconds for `latencyReport` and `playerReady`, `startupTime`, `rebufferEnd` and `renditionPlayed`.
   */
  value?: number;
  /** The whole wire event, serialised (bounded by `COLLECTOR_MAX_EVENT_BYTES`). */
  json: string;
}

/** Metadata of one log request, stored in the same transaction as its events. */
export interface IncomingRequest {
  requestId: string;
  stream: string;
  endpoint: CollectorEndpoint;
  receivedAtMs: number;
  compressed: boolean;
  contentType: string;
  /** Bytes on the wire, and after gunzip. */
  bodyBytes: number;
  decodedBytes: number;
  /** The request headers that matter (visitor id, client name/version, time zone, …), bounded. */
  headers: Record<string, string>;
  serializedClientEventId?: unknown;
  requestTimeMs?: unknown;
  /** The request's `context` object, serialised and bounded. */
  contextJson?: string;
  /** Events in the request, and how many of them validation refused. */
  eventCount: number;
  refused: number;
  /**
   * Who sent the request, as the server verified it (bearer access token, delegation): absent for anonymous viewers.
   * The store keeps it on the request and on each event the request stores first, so an event is attributable
   * without a join.
   */
  viewer?: { accountId: string; channelId?: string };
}

/** One log request as the store lists it: its `viewer` is listed as `accountId` / `channelId`. */
export interface StoredRequest extends Omit<IncomingRequest, 'contextJson' | 'viewer'>, ViewerAttribution {
  context?: unknown;
  accepted: number;
  duplicates: number;
  conflicts: number;
}

/** One report of the error-reporting endpoint (every field bounded by the route). */
export interface IncomingErrorReport {
  receivedAtMs: number;
  message: string;
  messageTruncated: boolean;
  url?: string;
  file?: string;
  line?: string;
  stack?: string;
  type?: string;
  /** Everything else the client sent, kept as strings. */
  extra: Record<string, string>;
}
export interface StoredErrorReport extends IncomingErrorReport {
  id: string;
}

export interface PageQuery {
  /** An opaque cursor from a previous page's `nextCursor`. */
  cursor?: string;
  /** At most this many items (the route bounds it by `COLLECTOR_MAX_PAGE_SIZE`). */
  limit: number;
  /** Received at or after / before this time (ms since the epoch). */
  sinceMs?: number;
  untilMs?: number;
}

export interface EventQuery extends PageQuery {
  name?: string;
  endpoint?: CollectorEndpoint;
  stream?: string;
  /**
   * The events of this page: their `clientEventId` starts with `{pageId}:` and they came on the page's own stream,
   * the stream of the first request that named the page (`serializedClientEventId.serializedEventId`). A page id is
   * random per page view and the stream token is issued per page view, so another stream that uses the page's id
   * prefix (or names the page in its requests later) is not the page, and is not listed under it.
   */
  pageId?: string;
  /** Free text searched in the event's name and JSON. */
  text?: string;
  /** Events attributed to this account (anonymous events never match). */
  accountId?: string;
}

export interface RequestQuery extends PageQuery {
  stream?: string;
  /** Requests whose `serializedClientEventId.serializedEventId` is this page id, on the page's own stream (as {@link EventQuery.pageId}). */
  pageId?: string;
  /** Requests sent by this account (anonymous requests never match). */
  accountId?: string;
}

/** The two ping beacons of spec §7: playback started, and what was watched. */
export const PING_KINDS = ['playback', 'watchtime'] as const;
export type PingKind = (typeof PING_KINDS)[number];

/**
 * One validated ping beacon (built by `pings/parsePing.ts`). A ping is one playback's report, so it is keyed by
 * (ei, cpn, kind, seq): the response, the client playback nonce, and the ping's number within that playback. A resend
 * of the same ping (the client retries one whose answer it never saw) is stored once.
 */
export interface IncomingPing {
  kind: PingKind;
  /** The video id. */
  docid: string;
  /** The player response the playback started from (`ei` of its tracking URLs). */
  ei: string;
  /** The client playback nonce: one per video load in a page. */
  cpn: string;
  /** The ping's number within its playback (0 for the playback ping, then 1, 2, … for the watchtime pings). */
  seq: number;
  receivedAtMs: number;
  /** Current media time (s). */
  cmt: number;
  /** Seconds since the video was loaded. */
  rt: number;
  /** The video's length (s), when known. */
  len?: number;
  /** The player's state when the ping left (`playing`, `paused`, `ended`, …); watchtime pings only. */
  state?: string;
  /** The segments played since the previous ping: `st[i]` to `et[i]` (s of media time); empty for a playback ping. */
  st: number[];
  et: number[];
  /** True for the last ping of a playback (page hidden, video changed). */
  final: boolean;
}
export interface StoredPing extends IncomingPing {
  /** Opaque, stable id of the stored ping. */
  id: string;
}

/** The conflicting copies of events, narrowed by the same filters as the events. */
export type ConflictQuery = EventQuery;

export interface PingQuery extends PageQuery {
  docid?: string;
  ei?: string;
  cpn?: string;
  kind?: PingKind;
}

/** A read the store cannot answer as asked (an unknown cursor, a bad bucket): the route answers 400 with it. */
export class StoreQueryError extends Error {
  override readonly name = 'StoreQueryError';
}

/**
 * A read the store could not answer in time (it ran past its time bound, or too many reads were waiting): the route
 * answers 503 with its message and `Retry-After`. Writes are never behind it.
 */
export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';
}

/**
 * The outcome of one stored request: every event of it is stored (`accepted`, `conflicts`) or was stored before with
 * the same payload (`duplicates`). The client treats all three alike: delivered, never to be sent again.
 */
export interface RecordOutcome {
  /** Events stored for the first time. */
  accepted: number;
  /** Events stored before with the same payload: resends, stored once. */
  duplicates: number;
  /** Events whose key was stored before with another payload: stored as conflicts, beside the first arrival. */
  conflicts: number;
}

export interface CollectorStore {
  /** `sqlite` or `clickhouse`, for logs, metrics and the readiness answer. */
  readonly kind: string;
  /** Stores the request and every event not stored before; resolves once durable. */
  recordLogRequest(request: IncomingRequest, events: readonly IncomingEvent[]): Promise<RecordOutcome>;
  recordError(report: IncomingErrorReport): Promise<void>;
  /** Stores a ping beacon unless that ping (ei, cpn, kind, seq) is stored already; resolves once durable. */
  recordPing(ping: IncomingPing): Promise<{ stored: boolean }>;
  /** Pings in arrival order (oldest first), one page at a time. */
  listPings(query: PingQuery): Promise<Page<StoredPing>>;
  /** Events in arrival order (oldest first), one page at a time. */
  listEvents(query: EventQuery): Promise<Page<StoredEvent>>;
  /**
   * The conflicting copies of events (a key already stored with another payload), in arrival order, one page at a
   * time; the first arrival of each key is among the events.
   */
  listConflicts(query: ConflictQuery): Promise<Page<StoredEvent>>;
  listRequests(query: RequestQuery): Promise<Page<StoredRequest>>;
  listErrors(query: PageQuery): Promise<Page<StoredErrorReport>>;
  stats(): Promise<CollectorStats>;
  timeseries(query: TimeseriesQuery): Promise<TimeseriesBucket[]>;
  /** Deletes what was received before `cutoffMs` (retention: events, conflicts, requests, error reports, pings); resolves with how many events went. */
  deleteReceivedBefore(cutoffMs: number): Promise<number>;
  /** Resolves when the store answers (readiness); rejects otherwise. */
  ping(): Promise<void>;
  /** Forgets everything (test hook only). */
  clear(): Promise<void>;
  /** Finishes what is in flight and closes. */
  close(): Promise<void>;
}
