import { rebuildMinuteRollups } from '../../server/collector/stores/sqlite/minuteRollups';
import { openDatabase } from '../../server/db/openDatabase';

/**
 * Fills a collector store's database file with `count` events in one SQL statement (one transaction), far faster than
 * through HTTP: a large store for the tests and the benchmark that read it. The events look like the player's (state
 * changes, watch time, start-up and latency reports with values, a JSON body of some 200 bytes), spread over 1000
 * streams, received one every `spacingMs` from `fromMs`. The store must have been opened once (its tables exist); the
 * running totals are left as they are; the minutes' rollups are rebuilt, so the time series reads as on a store filled
 * through the server.
 */
export function fillCollectorEvents(file: string, { count, fromMs, spacingMs }: { count: number; fromMs: number; spacingMs: number }): void {
  const db = openDatabase(file);
  try {
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @count),
         e AS (SELECT i, 'st-bulk-' || (i % 1000) AS stream,
                 CASE i % 5 WHEN 0 THEN 'playerStateChange' WHEN 1 THEN 'watchTimeSegment' WHEN 2 THEN 'startupTime'
                   WHEN 3 THEN 'latencyReport' ELSE 'renditionPlayed' END AS name FROM n)
       INSERT INTO collector_events (stream, dedupe_key, client_event_id, name, endpoint, event_time_ms, received_at_ms, request_id, value, json)
       SELECT stream, 'bulk-' || i, 'pgbulk' || (i % 1000) || ':' || i, name, 'log_event', @from + i * @spacing, @from + i * @spacing,
         'rq-bulk-' || (i / 10), (i % 997) * 1.5,
         json_object('eventTimeMs', @from + i * @spacing, 'clientEventId', 'pgbulk' || (i % 1000) || ':' || i,
           name, json_object('videoId', 'video-' || (i % 50), 'state', i % 6, 'mediaTimeSec', i % 600, 'bitrate', 800000 + (i % 7) * 100000,
             'detail', 'an event of the bulk fill, about as long as a real one'))
       FROM e`,
    ).run({ count, from: fromMs, spacing: spacingMs });
    rebuildMinuteRollups(db);
  } finally {
    db.close();
  }
}
