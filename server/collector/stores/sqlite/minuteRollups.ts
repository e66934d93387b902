import type { SqliteDatabase } from '../../../db/openDatabase';
import { COLLECTOR_ROLLUP_MS } from '../../limits';

/**
 * The time series' rollups per minute of receipt (`collector_minutes`, `collector_minute_streams`): the counts and sums
 * of the time series' columns over a minute's events, the error reports of the minute, and the streams that stored
 * events in it (so the sessions of a bucket of whole minutes are exact: the distinct streams of its minutes).
 *
 * They change only in the transaction that writes or deletes the rows they count, so they always agree with the
 * tables: the rows a request stored are added once they are in; a deletion recomputes the minutes it touched from the
 * rows left. Each column is the same SQL expression the raw time series evaluates (`rollups.ts`), so a series read
 * from the rollups is the one read from the events.
 */
export interface MinuteRollups {
  /** Adds the events stored from row `firstSeq` on (this request's) to their minutes. */
  rollUpEventsFrom(firstSeq: number): void;
  /** Adds `by` error reports to the minute of `receivedAtMs`. */
  rollUpErrors(receivedAtMs: number, by: number): void;
  /** Recomputes these minutes from the rows left in them. */
  recomputeMinutes(minutes: Iterable<number>): void;
}

/** The minute (its first millisecond) of a receipt time, in SQL. */
export const MINUTE_OF_RECEIPT = `(received_at_ms / ${COLLECTOR_ROLLUP_MS}) * ${COLLECTOR_ROLLUP_MS}`;

/** The minute (its first millisecond) of a receipt time. */
export const minuteOf = (receivedAtMs: number) => Math.floor(receivedAtMs / COLLECTOR_ROLLUP_MS) * COLLECTOR_ROLLUP_MS;

/** The rolled-up columns of `collector_minutes`, in the order of {@link EVENT_AGGREGATES}. */
export const MINUTE_COLUMNS =
  'events, watch_time_sec, state_changes, player_errors, latency_sum, latency_count, rebuffer_ms, rebuffer_count, played_ms, bit_ms';

/** The aggregates of {@link MINUTE_COLUMNS} over rows of `collector_events`. */
export const EVENT_AGGREGATES = `count(*), total(CASE WHEN name = 'watchTimeSegment' THEN value END),
  sum(name = 'playerStateChange'), sum(name = 'playerError'),
  total(CASE WHEN name = 'latencyReport' THEN value END), count(CASE WHEN name = 'latencyReport' THEN value END),
  total(CASE WHEN name = 'rebufferEnd' THEN value END), count(CASE WHEN name = 'rebufferEnd' THEN value END),
  total(CASE WHEN name = 'renditionPlayed' AND value > 0 THEN value END),
  total(CASE WHEN name = 'renditionPlayed' AND value > 0 THEN value * coalesce(json_extract(json, '$.renditionPlayed.bitrate'), 0) END)`;

const ADD_EXCLUDED = MINUTE_COLUMNS.split(', ')
  .map((c) => `${c} = ${c} + excluded.${c}`)
  .join(', ');

export function prepareMinuteRollups(db: SqliteDatabase): MinuteRollups {
  // `WHERE` before `GROUP BY` keeps SQLite's upsert grammar unambiguous after an INSERT … SELECT.
  const addEvents = db.prepare(
    `INSERT INTO collector_minutes (minute_ms, ${MINUTE_COLUMNS})
     SELECT ${MINUTE_OF_RECEIPT} AS m, ${EVENT_AGGREGATES} FROM collector_events WHERE seq >= ? GROUP BY m
     ON CONFLICT (minute_ms) DO UPDATE SET ${ADD_EXCLUDED}`,
  );
  const addStreams = db.prepare(
    `INSERT INTO collector_minute_streams (minute_ms, stream) SELECT DISTINCT ${MINUTE_OF_RECEIPT}, stream FROM collector_events WHERE seq >= ?
     ON CONFLICT DO NOTHING`,
  );
  const addErrors = db.prepare(
    'INSERT INTO collector_minutes (minute_ms, errors) VALUES (?, ?) ON CONFLICT (minute_ms) DO UPDATE SET errors = errors + excluded.errors',
  );
  const forgetMinute = db.prepare('DELETE FROM collector_minutes WHERE minute_ms = ?');
  const forgetMinuteStreams = db.prepare('DELETE FROM collector_minute_streams WHERE minute_ms = ?');
  const inMinute = `received_at_ms >= @m AND received_at_ms < @m + ${COLLECTOR_ROLLUP_MS}`;
  const refillMinute = db.prepare(
    `INSERT INTO collector_minutes (minute_ms, ${MINUTE_COLUMNS})
     SELECT @m, ${EVENT_AGGREGATES} FROM collector_events WHERE ${inMinute} HAVING count(*) > 0`,
  );
  const refillMinuteStreams = db.prepare(
    `INSERT INTO collector_minute_streams (minute_ms, stream) SELECT DISTINCT @m, stream FROM collector_events WHERE ${inMinute}`,
  );
  const refillMinuteErrors = db.prepare(
    `INSERT INTO collector_minutes (minute_ms, errors) SELECT @m, count(*) FROM collector_errors WHERE ${inMinute} HAVING count(*) > 0
     ON CONFLICT (minute_ms) DO UPDATE SET errors = excluded.errors`,
  );

  return {
    rollUpEventsFrom(firstSeq) {
      addEvents.run(firstSeq);
      addStreams.run(firstSeq);
    },
    rollUpErrors(receivedAtMs, by) {
      if (by !== 0) addErrors.run(minuteOf(receivedAtMs), by);
    },
    recomputeMinutes(minutes) {
      for (const m of new Set(minutes)) {
        forgetMinute.run(m);
        forgetMinuteStreams.run(m);
        refillMinute.run({ m });
        refillMinuteStreams.run({ m });
        refillMinuteErrors.run({ m });
      }
    },
  };
}

/**
 * Rebuilds every rollup from the rows stored, in one transaction: for a store whose rows were written around the
 * store (a bulk fill by SQL).
 */
export function rebuildMinuteRollups(db: SqliteDatabase): void {
  db.transaction(() => {
    db.prepare('DELETE FROM collector_minutes').run();
    db.prepare('DELETE FROM collector_minute_streams').run();
    db.prepare(
      `INSERT INTO collector_minutes (minute_ms, ${MINUTE_COLUMNS})
       SELECT ${MINUTE_OF_RECEIPT} AS m, ${EVENT_AGGREGATES} FROM collector_events WHERE true GROUP BY m`,
    ).run();
    db.prepare(`INSERT INTO collector_minute_streams (minute_ms, stream) SELECT DISTINCT ${MINUTE_OF_RECEIPT}, stream FROM collector_events`).run();
    db.prepare(
      `INSERT INTO collector_minutes (minute_ms, errors) SELECT ${MINUTE_OF_RECEIPT} AS m, count(*) FROM collector_errors WHERE true GROUP BY m
       ON CONFLICT (minute_ms) DO UPDATE SET errors = excluded.errors`,
    ).run();
  }).immediate();
}
