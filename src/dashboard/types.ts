/**
 * The shapes of the collector's admin API (`/collector/api/…`) as the dashboard reads them. Copied from the server's
 * store interface (`server/collector/store.ts`): the page may not import server code, and it only needs these few.
 */

/** The log endpoints the collector takes. */
export type CollectorEndpoint = 'log_event' | 'video_stats';
export const COLLECTOR_ENDPOINTS: readonly CollectorEndpoint[] = ['log_event', 'video_stats'];

/** `GET /collector/api/stats`: totals over the whole store. */
export interface CollectorStats {
  /** `sqlite` or `clickhouse`. */
  store: string;
  requests: number;
  compressedRequests: number;
  events: number;
  duplicatesDropped: number;
  refusedEvents: number;
  byEndpoint: Record<CollectorEndpoint, number>;
  byName: Record<string, number>;
  /** Error reports received at the error endpoint. */
  errors: number;
}

/** One time bucket of `GET /collector/api/timeseries` (empty buckets may be absent). */
export interface TimeseriesBucket {
  /** Bucket start (ms since the epoch). */
  startMs: number;
  events: number;
  /** Distinct streams (viewing sessions) that sent events in the bucket. */
  sessions: number;
  /** Seconds watched (sum of `watchTimeSegment` values). */
  watchTimeSec: number;
  stateChanges: number;
  /** `playerError` events plus error reports. */
  errors: number;
  /** Mean of the `latencyReport` durations in the bucket, when there were any. */
  latencyMeanMs?: number;
}

export interface TimeseriesQuery {
  sinceMs: number;
  untilMs: number;
  bucketMs: number;
}

/** One stored event as `GET /collector/api/events` lists it. */
export interface DashboardEvent {
  stream: string;
  dedupeKey: string;
  clientEventId?: string;
  name: string;
  endpoint: CollectorEndpoint;
  eventTimeMs?: number;
  receivedAtMs: number;
  requestId: string;
  /** Seconds watched for `watchTimeSegment`, milliseconds for `latencyReport` and `playerReady`. */
  value?: number;
  /** The whole wire event. */
  event: Record<string, unknown>;
}

/** A page of a read: the items (oldest first) and the cursor of the next page (absent on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** The query of `GET /collector/api/events`. */
export interface EventListQuery {
  limit: number;
  cursor?: string;
  name?: string;
  endpoint?: CollectorEndpoint;
  stream?: string;
  /** Free text searched in the event's name and JSON. */
  text?: string;
  sinceMs?: number;
  untilMs?: number;
  pageId?: string;
}

/** What the table is narrowed to: empty strings mean "any". */
export interface EventFilter {
  text: string;
  name: string;
  endpoint: '' | CollectorEndpoint;
}
export const NO_FILTER: EventFilter = { text: '', name: '', endpoint: '' };
