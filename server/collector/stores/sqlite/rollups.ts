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
             avg(CASE WHEN name = 'latencyReport' THEN value END) AS latencyMeanMs
           FROM collector_events WHERE received_at_ms >= @since AND received_at_ms < @until
           GROUP BY startMs ORDER BY startMs`,
        )
        .all({ bucket: bucketMs, since: Math.trunc(sinceMs), until: Math.trunc(untilMs) }) as (Omit<TimeseriesBucket, 'errors'> & {
        playerErrors: number;
        latencyMeanMs: number | null;
      })[];
      const errors = db
        .prepare(
          `SELECT (received_at_ms / CAST(@bucket AS INTEGER)) * CAST(@bucket AS INTEGER) AS startMs, count(*) AS n FROM collector_errors
           WHERE received_at_ms >= @since AND received_at_ms < @until GROUP BY startMs`,
        )
        .all({ bucket: bucketMs, since: Math.trunc(sinceMs), until: Math.trunc(untilMs) }) as { startMs: number; n: number }[];
      const buckets = new Map<number, TimeseriesBucket>();
      for (const { playerErrors, latencyMeanMs, ...b } of events) {
        buckets.set(b.startMs, { ...b, errors: playerErrors, ...(latencyMeanMs !== null ? { latencyMeanMs } : {}) });
      }
      for (const { startMs, n } of errors) {
        const b = buckets.get(startMs) ?? { startMs, events: 0, sessions: 0, watchTimeSec: 0, stateChanges: 0, errors: 0 };
        buckets.set(startMs, { ...b, errors: b.errors + n });
      }
      return [...buckets.values()].sort((a, b) => a.startMs - b.startMs);
    },
  };
}
