/**
 * The wire shapes of the collector's admin API (`/collector/api/…`), shared by the server that answers it
 * (`server/collector/store.ts`) and the dashboard that reads it (`src/dashboard/`): one definition, so the two
 * cannot drift apart: the shapes and the limits both sides must agree on.
 */
import { LOG_ENDPOINTS, type LogEndpoint } from '../transport/logEndpoints';

/** The log endpoints the collector takes: the client's log endpoints. */
export type CollectorEndpoint = LogEndpoint;
export const COLLECTOR_ENDPOINTS: readonly CollectorEndpoint[] = LOG_ENDPOINTS;

/** The largest page of an admin read (`limit`), and the most buckets one timeseries read may ask for. */
export const ADMIN_API_MAX_PAGE_SIZE = 500;
export const ADMIN_API_MAX_TIMESERIES_BUCKETS = 1_000;
/**
 * The `accountId` filter of the event and request lists: a bounded token (letters, digits and `_ - . : @`, at most
 * this long), so a bad value is the client's 400 before any store sees it.
 */
export const ADMIN_API_MAX_ACCOUNT_ID_CHARS = 128;
export const ADMIN_API_ACCOUNT_ID_PATTERN = '^[A-Za-z0-9_.:@-]+$';

/**
 * Who sent a stored request (and so its events), as the server verified it when it arrived (a bearer access token,
 * a delegation): both absent for an anonymous viewer, and on what was stored before the collector kept them.
 */
export interface ViewerAttribution {
  /** The signed-in account. */
  accountId?: string;
  /** The channel it acted as, when it named one. */
  channelId?: string;
}

/**
 * One event as the store lists it. Its attribution is that of the request that stored it first (a resend, by
 * whomever, changes neither the event's request nor its account).
 */
export interface StoredEvent extends ViewerAttribution {
  stream: string;
  dedupeKey: string;
  clientEventId?: string;
  name: string;
  endpoint: CollectorEndpoint;
  eventTimeMs?: number;
  receivedAtMs: number;
  requestId: string;
  value?: number;
  event: Record<string, unknown>;
}

/** A page of a read: the items, and the cursor of the next page (absent on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** Totals over the whole store. */
export interface CollectorStats {
  requests: number;
  compressedRequests: number;
  events: number;
  /** Resent events: their key was stored before with the same payload, so they are stored once. */
  duplicatesDropped: number;
  /** Events whose key was stored before with another payload: kept as conflicts (`/collector/api/conflicts`). */
  conflicts: number;
  refusedEvents: number;
  byEndpoint: Record<CollectorEndpoint, number>;
  byName: Record<string, number>;
  errors: number;
}

/** One time bucket of the dashboard's charts. */
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
  /** Seconds of rebuffering (sum of `rebufferEnd` durations), when there were any: over `watchTimeSec`, the rebuffer ratio. */
  rebufferSec?: number;
  /** Bitrate on screen weighted by how long it played (from `renditionPlayed`), when anything played. */
  bitrateMeanBps?: number;
  /**
   * Start-up time percentiles (`startupTime`), when there were any: the value at index ⌊p·n⌋ (at most n − 1) of the
   * bucket's n start-up times in ascending order.
   */
  startupP50Ms?: number;
  startupP90Ms?: number;
  startupP99Ms?: number;
}

export interface TimeseriesQuery {
  sinceMs: number;
  untilMs: number;
  bucketMs: number;
}

/** `GET /collector/api/stats`: the store's totals and which store answers. */
export interface AdminStats extends CollectorStats {
  /** `sqlite` or `clickhouse`. */
  store: string;
}
