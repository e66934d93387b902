import type { SqliteDatabase } from '../../../db/openDatabase';
import { COLLECTOR_ROLLUP_MS } from '../../limits';
import { type CollectorStats, StoreQueryError, type TimeseriesBucket, type TimeseriesQuery } from '../../store';
import { EVENT_AGGREGATES, MINUTE_COLUMNS } from './minuteRollups';

/**
 * The SQLite store's aggregations for the dashboard: the stats are the running totals (`totals.ts`), read whole;
 * the time series adds up the minutes' rollups (`minuteRollups.ts`) where its buckets are whole minutes, and the rows
 * of the asked range through the received-time index where they are not.
 */
export interface SqliteRollups {
  stats(): CollectorStats;
  timeseries(query: TimeseriesQuery): TimeseriesBucket[];
}

export function createSqliteRollups(db: SqliteDatabase): SqliteRollups {
  return {
    stats() {
      const totals = new Map((db.prepare('SELECT key, value FROM collector_totals').all() as { key: string; value: number }[]).map((r) => [r.key, r.value]));
      const t = (key: string) => totals.get(key) ?? 0;
      const byName: Record<string, number> = {};
      for (const { name, count } of db.prepare('SELECT name, count FROM collector_name_totals WHERE count > 0 ORDER BY name').all() as {
        name: string;
        count: number;
      }[]) {
        byName[name] = count;
      }
      return {
        requests: t('requests'),
        compressedRequests: t('compressedRequests'),
        events: t('events'),
        duplicatesDropped: t('duplicatesDropped'),
        conflicts: t('conflicts'),
        refusedEvents: t('refusedEvents'),
        byEndpoint: { log_event: t('endpoint:log_event'), video_stats: t('endpoint:video_stats') },
        byName,
        errors: t('errors'),
      };
    },

    timeseries(query) {
      return timeseriesOf(db, query, { rollups: true });
    },
  };
}

/** What a time series adds up per bucket, from minutes' rollups and from raw rows alike (`minuteRollups.ts`'s columns). */
interface BucketSums {
  startMs: number;
  events: number;
  watchTimeSec: number;
  stateChanges: number;
  playerErrors: number;
  latencySum: number;
  latencyCount: number;
  rebufferMs: number;
  rebufferCount: number;
  playedMs: number;
  bitMs: number;
  errors: number;
}

const BUCKET = 'CAST(@bucket AS INTEGER)';

/**
 * The time series of `query`. With `rollups`, and buckets of whole minutes, the whole minutes of the range are read
 * from `collector_minutes` and only the part minutes at its two ends from the rows; otherwise every row of the range
 * is read. Both give the same buckets (each rollup column is the raw expression, summed).
 */
export function timeseriesOf(db: SqliteDatabase, { sinceMs, untilMs, bucketMs }: TimeseriesQuery, { rollups }: { rollups: boolean }): TimeseriesBucket[] {
  if (!Number.isInteger(bucketMs) || bucketMs < 1) throw new StoreQueryError('bucketMs must be a whole number of milliseconds ≥ 1');
  const since = Math.trunc(sinceMs);
  const until = Math.trunc(untilMs);
  // [from, to): the whole minutes read from the rollups; empty when the buckets are not whole minutes.
  let from = since;
  let to = since;
  if (rollups && bucketMs % COLLECTOR_ROLLUP_MS === 0) {
    const firstWhole = Math.ceil(since / COLLECTOR_ROLLUP_MS) * COLLECTOR_ROLLUP_MS;
    const endOfWhole = Math.floor(until / COLLECTOR_ROLLUP_MS) * COLLECTOR_ROLLUP_MS;
    if (firstWhole < endOfWhole) [from, to] = [firstWhole, endOfWhole];
  }
  const params = { bucket: bucketMs, since, until, from, to };
  const rawRange = '((received_at_ms >= @since AND received_at_ms < @from) OR (received_at_ms >= @to AND received_at_ms < @until))';
  const sums = db
    .prepare(
      `WITH parts (t, ${MINUTE_COLUMNS}, errors) AS (
         SELECT minute_ms, ${MINUTE_COLUMNS}, errors FROM collector_minutes WHERE minute_ms >= @from AND minute_ms < @to
         UNION ALL
         SELECT (received_at_ms / ${BUCKET}) * ${BUCKET} AS t, ${EVENT_AGGREGATES}, 0 FROM collector_events WHERE ${rawRange} GROUP BY t
         UNION ALL
         SELECT (received_at_ms / ${BUCKET}) * ${BUCKET} AS t, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, count(*) FROM collector_errors WHERE ${rawRange} GROUP BY t)
       SELECT (t / ${BUCKET}) * ${BUCKET} AS startMs, sum(events) AS events, total(watch_time_sec) AS watchTimeSec,
         sum(state_changes) AS stateChanges, sum(player_errors) AS playerErrors, total(latency_sum) AS latencySum,
         sum(latency_count) AS latencyCount, total(rebuffer_ms) AS rebufferMs, sum(rebuffer_count) AS rebufferCount,
         total(played_ms) AS playedMs, total(bit_ms) AS bitMs, sum(errors) AS errors
       FROM parts GROUP BY startMs HAVING sum(events) > 0 OR sum(errors) > 0 ORDER BY startMs`,
    )
    .all(params) as BucketSums[];
  const sessions = new Map(
    (
      db
        .prepare(
          `SELECT (t / ${BUCKET}) * ${BUCKET} AS startMs, count(DISTINCT stream) AS n FROM (
             SELECT minute_ms AS t, stream FROM collector_minute_streams WHERE minute_ms >= @from AND minute_ms < @to
             UNION ALL
             SELECT received_at_ms, stream FROM collector_events WHERE ${rawRange})
           GROUP BY startMs`,
        )
        .all(params) as { startMs: number; n: number }[]
    ).map((r) => [r.startMs, r.n]),
  );
  const startups = startupPercentiles(db, { bucket: bucketMs, since, until });
  return sums.map((b) => {
    // A bucket with error reports and no events has only the counts.
    if (b.events === 0) return { startMs: b.startMs, events: 0, sessions: 0, watchTimeSec: 0, stateChanges: 0, errors: b.errors };
    return {
      startMs: b.startMs,
      events: b.events,
      sessions: sessions.get(b.startMs) ?? 0,
      watchTimeSec: b.watchTimeSec,
      stateChanges: b.stateChanges,
      errors: b.playerErrors + b.errors,
      ...(b.latencyCount > 0 ? { latencyMeanMs: b.latencySum / b.latencyCount } : {}),
      ...(b.rebufferCount > 0 ? { rebufferSec: b.rebufferMs / 1000 } : {}),
      ...(b.playedMs ? { bitrateMeanBps: b.bitMs / b.playedMs } : {}),
      ...startups.get(b.startMs),
    };
  });
}

type StartupPercentiles = Pick<TimeseriesBucket, 'startupP50Ms' | 'startupP90Ms' | 'startupP99Ms'>;

/**
 * The start-up time percentiles of each bucket that has any (the value at ⌊p·n⌋ of the bucket's n values in ascending
 * order, as the ClickHouse store's exact quantile). The values come from the (name, received_at_ms, value) index alone
 * and are ranked here once the read is over: the read's snapshot lasts only as long as the scan, which keeps the
 * checkpoints from falling behind it.
 */
function startupPercentiles(db: SqliteDatabase, { bucket, since, until }: { bucket: number; since: number; until: number }): Map<number, StartupPercentiles> {
  const rows = db
    .prepare(
      `SELECT received_at_ms, value FROM collector_events INDEXED BY collector_events_name_received
       WHERE name = 'startupTime' AND value IS NOT NULL AND received_at_ms >= ? AND received_at_ms < ?`,
    )
    .raw()
    .iterate(since, until) as IterableIterator<[number, number]>;
  // Row by row into one array of numbers per bucket: the rows are never all held at once.
  const byBucket = new Map<number, number[]>();
  for (const [receivedAtMs, value] of rows) {
    const startMs = Math.floor(receivedAtMs / bucket) * bucket;
    const values = byBucket.get(startMs);
    if (values) values.push(value);
    else byBucket.set(startMs, [value]);
  }
  const percentiles = new Map<number, StartupPercentiles>();
  for (const [startMs, values] of byBucket) {
    const sorted = Float64Array.from(values).sort();
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
    percentiles.set(startMs, { startupP50Ms: at(0.5), startupP90Ms: at(0.9), startupP99Ms: at(0.99) });
  }
  return percentiles;
}
