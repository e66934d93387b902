/**
 * The ClickHouse store's aggregations for the dashboard: totals and a time series, computed from the tables with
 * FINAL at read time (the engine keeps no running totals), so a resent event is counted once.
 */
import {
  COLLECTOR_ENDPOINTS,
  type CollectorEndpoint,
  type CollectorStats,
  type CollectorStore,
  StoreQueryError,
  type TimeseriesBucket,
  type TimeseriesQuery,
} from '../../store';
import type { ClickHouseConnection } from './connection';
import { timeBounds, whereClause } from './paging';
import { num } from './rows';
import { sqlInt } from './sql';
import { endpointOk } from './validate';

/** A chart spans at most this many buckets (the answer holds only those with data). */
export const MAX_TIMESERIES_BUCKETS = 100_000;
/** `byName` lists at most this many names (the most frequent), so a flood of invented names stays bounded. */
export const MAX_STATS_NAMES = 1_000;

export type ClickHouseRollups = Pick<CollectorStore, 'stats' | 'timeseries'>;

export function createClickHouseRollups(conn: ClickHouseConnection): ClickHouseRollups {
  return {
    stats: () => stats(conn),
    timeseries: (query) => timeseries(conn, query),
  };
}

async function stats(conn: ClickHouseConnection): Promise<CollectorStats> {
  const [requests, endpoints, names, errors, conflicts] = await Promise.all([
    conn.rows<{ n: string; compressed: string; duplicates: string; refused: string }>(
      `SELECT count() AS n, sum(compressed) AS compressed, sum(duplicates) AS duplicates, sum(refused) AS refused
       FROM ${conn.table('requests')} FINAL`,
    ),
    conn.rows<{ endpoint: string; n: string }>(`SELECT endpoint, count() AS n FROM ${conn.table('events')} FINAL GROUP BY endpoint`),
    conn.rows<{ name: string; n: string }>(
      `SELECT name, count() AS n FROM ${conn.table('events')} FINAL GROUP BY name ORDER BY n DESC, name LIMIT ${MAX_STATS_NAMES}`,
    ),
    conn.rows<{ n: string }>(`SELECT count() AS n FROM ${conn.table('errors')} FINAL`),
    conn.rows<{ n: string }>(`SELECT count() AS n FROM ${conn.table('conflicts')} FINAL`),
  ]);
  const byEndpoint = Object.fromEntries(COLLECTOR_ENDPOINTS.map((e) => [e, 0])) as Record<CollectorEndpoint, number>;
  let events = 0;
  for (const row of endpoints) {
    events += num(row.n);
    if (endpointOk(row.endpoint)) byEndpoint[row.endpoint] = num(row.n);
  }
  const r = requests[0];
  return {
    requests: num(r?.n ?? 0),
    compressedRequests: num(r?.compressed ?? 0),
    events,
    duplicatesDropped: num(r?.duplicates ?? 0),
    conflicts: num(conflicts[0]?.n ?? 0),
    refusedEvents: num(r?.refused ?? 0),
    byEndpoint,
    byName: Object.fromEntries(names.map((row) => [row.name, num(row.n)])),
    errors: num(errors[0]?.n ?? 0),
  };
}

interface EventBucketRow {
  start: string;
  events: string;
  sessions: string;
  watch: number;
  state_changes: string;
  player_errors: string;
  latency_sum: number;
  latency_n: string;
  rebuffer_ms: number;
  rebuffer_n: string;
  played_ms: number;
  bit_ms: number;
  startup_n: string;
  p50: number;
  p90: number;
  p99: number;
}

/** The start-up percentile at `level` of the bucket: ClickHouse's exact quantile is the value at ⌊level·n⌋. */
const startupQuantile = (level: number) => `quantileExactIf(${level})(ifNull(value, 0), name = 'startupTime' AND isNotNull(value))`;

/** Buckets aligned on multiples of `bucketMs` since the epoch, oldest first; only buckets with events or errors. */
async function timeseries(conn: ClickHouseConnection, query: TimeseriesQuery): Promise<TimeseriesBucket[]> {
  const { sinceMs, untilMs, bucketMs } = query;
  if (![sinceMs, untilMs].every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw new StoreQueryError('sinceMs and untilMs must be times in ms since the epoch');
  }
  if (!Number.isSafeInteger(bucketMs) || bucketMs < 1) throw new StoreQueryError('bucketMs must be a whole number of milliseconds ≥ 1');
  const buckets = Math.ceil((untilMs - sinceMs) / bucketMs);
  if (buckets > MAX_TIMESERIES_BUCKETS) throw new StoreQueryError(`at most ${MAX_TIMESERIES_BUCKETS} buckets, asked for ${buckets}`);
  const bucket = sqlInt(bucketMs, 'bucketMs');
  const where = whereClause(timeBounds({ sinceMs, untilMs, limit: 1 }));
  const [events, errors] = await Promise.all([
    conn.rows<EventBucketRow>(
      `SELECT intDiv(received_at_ms, ${bucket}) * ${bucket} AS start,
              count() AS events,
              uniqExact(stream) AS sessions,
              sumIf(ifNull(value, 0), name = 'watchTimeSegment') AS watch,
              countIf(name = 'playerStateChange') AS state_changes,
              countIf(name = 'playerError') AS player_errors,
              sumIf(ifNull(value, 0), name = 'latencyReport' AND isNotNull(value)) AS latency_sum,
              countIf(name = 'latencyReport' AND isNotNull(value)) AS latency_n,
              sumIf(ifNull(value, 0), name = 'rebufferEnd' AND isNotNull(value)) AS rebuffer_ms,
              countIf(name = 'rebufferEnd' AND isNotNull(value)) AS rebuffer_n,
              sumIf(ifNull(value, 0), name = 'renditionPlayed' AND value > 0) AS played_ms,
              sumIf(ifNull(value, 0) * visitParamExtractFloat(json, 'bitrate'), name = 'renditionPlayed' AND value > 0) AS bit_ms,
              countIf(name = 'startupTime' AND isNotNull(value)) AS startup_n,
              ${startupQuantile(0.5)} AS p50,
              ${startupQuantile(0.9)} AS p90,
              ${startupQuantile(0.99)} AS p99
       FROM ${conn.table('events')} FINAL ${where}
       GROUP BY start`,
    ),
    conn.rows<{ start: string; n: string }>(
      `SELECT intDiv(received_at_ms, ${bucket}) * ${bucket} AS start, count() AS n
       FROM ${conn.table('errors')} FINAL ${where} GROUP BY start`,
    ),
  ]);
  const byStart = new Map<number, TimeseriesBucket>();
  const at = (startMs: number): TimeseriesBucket => {
    let b = byStart.get(startMs);
    if (!b) byStart.set(startMs, (b = { startMs, events: 0, sessions: 0, watchTimeSec: 0, stateChanges: 0, errors: 0 }));
    return b;
  };
  for (const row of events) {
    const b = at(num(row.start));
    b.events = num(row.events);
    b.sessions = num(row.sessions);
    b.watchTimeSec = num(row.watch);
    b.stateChanges = num(row.state_changes);
    b.errors += num(row.player_errors);
    if (num(row.latency_n) > 0) b.latencyMeanMs = num(row.latency_sum) / num(row.latency_n);
    if (num(row.rebuffer_n) > 0) b.rebufferSec = num(row.rebuffer_ms) / 1000;
    if (num(row.played_ms) > 0) b.bitrateMeanBps = num(row.bit_ms) / num(row.played_ms);
    if (num(row.startup_n) > 0) Object.assign(b, { startupP50Ms: num(row.p50), startupP90Ms: num(row.p90), startupP99Ms: num(row.p99) });
  }
  for (const row of errors) at(num(row.start)).errors += num(row.n);
  return [...byStart.values()].sort((a, b) => a.startMs - b.startMs);
}
