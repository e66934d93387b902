import type { SqliteDatabase } from '../../../db/openDatabase';
import { type CollectorStats, StoreQueryError, type TimeseriesBucket, type TimeseriesQuery } from '../../store';

/**
 * The SQLite store's aggregations for the dashboard: the stats are the running totals (`totals.ts`), read whole;
 * the time series groups the rows of the asked range through the received-time index.
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

    timeseries({ sinceMs, untilMs, bucketMs }) {
      if (!Number.isInteger(bucketMs) || bucketMs < 1) throw new StoreQueryError('bucketMs must be a whole number of milliseconds ≥ 1');
      const events = db
        .prepare(
          `SELECT (received_at_ms / CAST(@bucket AS INTEGER)) * CAST(@bucket AS INTEGER) AS startMs, count(*) AS events, count(DISTINCT stream) AS sessions,
             total(CASE WHEN name = 'watchTimeSegment' THEN value END) AS watchTimeSec,
             sum(name = 'playerStateChange') AS stateChanges, sum(name = 'playerError') AS playerErrors,
             avg(CASE WHEN name = 'latencyReport' THEN value END) AS latencyMeanMs,
             sum(CASE WHEN name = 'rebufferEnd' THEN value END) AS rebufferMs,
             sum(CASE WHEN name = 'renditionPlayed' AND value > 0 THEN value END) AS playedMs,
             sum(CASE WHEN name = 'renditionPlayed' AND value > 0 THEN value * coalesce(json_extract(json, '$.renditionPlayed.bitrate'), 0) END) AS bitMs
           FROM collector_events WHERE received_at_ms >= @since AND received_at_ms < @until
           GROUP BY startMs ORDER BY startMs`,
        )
        .all({ bucket: bucketMs, since: Math.trunc(sinceMs), until: Math.trunc(untilMs) }) as (Omit<TimeseriesBucket, 'errors'> & {
        playerErrors: number;
        latencyMeanMs: number | null;
        rebufferMs: number | null;
        playedMs: number | null;
        bitMs: number | null;
      })[];
      const startups = startupPercentiles(db, { bucket: bucketMs, since: Math.trunc(sinceMs), until: Math.trunc(untilMs) });
      const errors = db
        .prepare(
          `SELECT (received_at_ms / CAST(@bucket AS INTEGER)) * CAST(@bucket AS INTEGER) AS startMs, count(*) AS n FROM collector_errors
           WHERE received_at_ms >= @since AND received_at_ms < @until GROUP BY startMs`,
        )
        .all({ bucket: bucketMs, since: Math.trunc(sinceMs), until: Math.trunc(untilMs) }) as { startMs: number; n: number }[];
      const buckets = new Map<number, TimeseriesBucket>();
      for (const { playerErrors, latencyMeanMs, rebufferMs, playedMs, bitMs, ...b } of events) {
        buckets.set(b.startMs, {
          ...b,
          errors: playerErrors,
          ...(latencyMeanMs !== null ? { latencyMeanMs } : {}),
          ...(rebufferMs !== null ? { rebufferSec: rebufferMs / 1000 } : {}),
          ...(playedMs ? { bitrateMeanBps: (bitMs ?? 0) / playedMs } : {}),
          ...startups.get(b.startMs),
        });
      }
      for (const { startMs, n } of errors) {
        const b = buckets.get(startMs) ?? { startMs, events: 0, sessions: 0, watchTimeSec: 0, stateChanges: 0, errors: 0 };
        buckets.set(startMs, { ...b, errors: b.errors + n });
      }
      return [...buckets.values()].sort((a, b) => a.startMs - b.startMs);
    },
  };
}

type StartupPercentiles = Pick<TimeseriesBucket, 'startupP50Ms' | 'startupP90Ms' | 'startupP99Ms'>;

/**
 * The start-up time percentiles of each bucket that has any: ranked in SQL (window functions), so only three rows per
 * bucket come out, never the bucket's values.
 */
function startupPercentiles(db: SqliteDatabase, params: { bucket: number; since: number; until: number }): Map<number, StartupPercentiles> {
  const at = (p: number) => `max(CASE WHEN i = min(n - 1, CAST(n * ${p} AS INTEGER)) THEN value END)`;
  const rows = db
    .prepare(
      `WITH ranked AS (
         SELECT (received_at_ms / CAST(@bucket AS INTEGER)) * CAST(@bucket AS INTEGER) AS startMs, value,
           row_number() OVER (PARTITION BY received_at_ms / CAST(@bucket AS INTEGER) ORDER BY value) - 1 AS i,
           count(*) OVER (PARTITION BY received_at_ms / CAST(@bucket AS INTEGER)) AS n
         FROM collector_events
         WHERE name = 'startupTime' AND value IS NOT NULL AND received_at_ms >= @since AND received_at_ms < @until)
       SELECT startMs, ${at(0.5)} AS p50, ${at(0.9)} AS p90, ${at(0.99)} AS p99 FROM ranked GROUP BY startMs`,
    )
    .all(params) as { startMs: number; p50: number; p90: number; p99: number }[];
  return new Map(rows.map((r) => [r.startMs, { startupP50Ms: r.p50, startupP90Ms: r.p90, startupP99Ms: r.p99 }]));
}
