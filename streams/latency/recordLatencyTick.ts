import { LATENCY_MAX_ENTRIES_PER_KEY, LATENCY_STALE_ENTRY_MS } from '../timing';

/** One named moment of an action, e.g. `{ action: 'watch', name: 'playerReady', time: 1234 }`. */
export interface TimedLatencyTick {
  action: string;
  name: string;
  /** Milliseconds on the scheduler's clock. */
  time: number;
}

/** The latency log: for each (action, name) key, the times of its latest ticks, oldest first. */
export type LatencyLog = ReadonlyMap<string, readonly number[]>;

export interface RecordLatencyTickOptions {
  maxEntriesPerKey?: number;
  staleEntryMs?: number;
}

/** The log key of a tick: action and name, unambiguous whatever characters they contain. */
export const latencyKey = (action: string, name: string): string => JSON.stringify([action, name]);

/**
 * Adds a tick to the latency log (spec §9) and returns the new log; the given log is not changed.
 *
 * - Keeps at most {@link LATENCY_MAX_ENTRIES_PER_KEY} (5) entries per (action, name) key: the 6th tick of a key
 *   drops that key's oldest entry.
 * - Purges, in every key, the entries older than {@link LATENCY_STALE_ENTRY_MS} (60 s) at `now`: an entry exactly
 *   60 000 ms old is kept, one 60 001 ms old is gone; keys left empty are removed, so the log stays bounded.
 *
 * ```
 * key watch/start, max 5:  [1 2 3 4 5] + 6 → [2 3 4 5 6]
 * stale 60 s, now 70 000:  [9 999, 10 000, 20 000] → [10 000, 20 000]
 * ```
 *
 * @param now the scheduler's clock at this tick (usually `scheduler.now()`; the tick's own time may be earlier).
 */
export function recordLatencyTick(
  log: LatencyLog,
  tick: TimedLatencyTick,
  now: number,
  { maxEntriesPerKey = LATENCY_MAX_ENTRIES_PER_KEY, staleEntryMs = LATENCY_STALE_ENTRY_MS }: RecordLatencyTickOptions = {},
): LatencyLog {
  const oldest = now - staleEntryMs;
  const next = new Map<string, readonly number[]>();
  for (const [key, times] of log) {
    const fresh = times.filter((time) => time >= oldest);
    if (fresh.length > 0) next.set(key, fresh);
  }
  if (tick.time >= oldest && maxEntriesPerKey > 0) {
    const key = latencyKey(tick.action, tick.name);
    const times = [...(next.get(key) ?? []), tick.time].sort((a, b) => a - b);
    next.set(key, times.slice(-maxEntriesPerKey));
  }
  return next;
}
