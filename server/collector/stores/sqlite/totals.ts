import type { SqliteDatabase } from '../../../db/openDatabase';
import { type MinuteRollups, prepareMinuteRollups } from './minuteRollups';

/**
 * The running totals the stats read (`collector_totals`, `collector_name_totals`) and the time series' rollups per
 * minute (`minuteRollups.ts`). They change only inside the transaction that writes or deletes the rows they count, so
 * they always agree with the tables and neither the stats nor a time series of whole minutes scans the store.
 */
export interface RunningTotals extends MinuteRollups {
  /** Adds `by` (which may be negative) to a total; nothing is written for 0. */
  bump(key: string, by: number): void;
  /** Adds `by` (which may be negative) to the count of events of this name. */
  bumpName(name: string, by: number): void;
}

export function runningTotals(db: SqliteDatabase): RunningTotals {
  const bumpTotal = db.prepare('INSERT INTO collector_totals (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value');
  const bumpName = db.prepare('INSERT INTO collector_name_totals (name, count) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET count = count + excluded.count');
  return {
    ...prepareMinuteRollups(db),
    bump(key, by) {
      if (by !== 0) bumpTotal.run(key, by);
    },
    bumpName(name, by) {
      bumpName.run(name, by);
    },
  };
}
