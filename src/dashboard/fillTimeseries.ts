import { DASHBOARD_RECENT_SESSIONS_MS } from './dashboardTiming';
import type { TimeseriesBucket, TimeseriesQuery } from './types';

/** The charts' data: one slot per bucket of the window, gaps filled with zeros (latency: `null`, "no report"). */
export interface Series {
  sinceMs: number;
  untilMs: number;
  bucketMs: number;
  /** Slot starts in seconds since the epoch (uPlot's time axis). */
  xs: number[];
  eventsPerSec: number[];
  sessions: number[];
  watchTimeSec: number[];
  stateChanges: number[];
  errors: number[];
  latencyMeanMs: (number | null)[];
  totals: SeriesTotals;
}

/** The headline numbers of the window. */
export interface SeriesTotals {
  events: number;
  /** The rate of the latest slot with a full second behind it (events per second). */
  latestEventsPerSec: number;
  peakEventsPerSec: number;
  /**
   * The most sessions seen in one slot over the last `recentMs` (a lower bound of the sessions active lately: the
   * collector counts distinct sessions per bucket, and a player sends its events in batches).
   */
  recentSessions: number;
  peakSessions: number;
  watchTimeSec: number;
  stateChanges: number;
  errors: number;
  /** Mean of the slots' latency means; `null` without any latency report in the window. */
  latencyMeanMs: number | null;
  /** Slots that received anything. */
  activeSlots: number;
}

const finite = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? n : 0);
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * Lays the collector's buckets (empty ones may be absent, any order) onto the window's slots. A bucket goes to the slot
 * that holds its start; buckets outside the window are ignored. Events per second divide a slot's events by its
 * length — for the slot holding `nowMs`, by the time elapsed in it (at least one second), so the live edge does not
 * dip while its slot fills.
 */
export function fillTimeseries(
  buckets: readonly TimeseriesBucket[],
  { sinceMs, untilMs, bucketMs }: TimeseriesQuery,
  nowMs: number,
  recentMs = DASHBOARD_RECENT_SESSIONS_MS,
): Series {
  const count = Math.max(0, Math.ceil((untilMs - sinceMs) / bucketMs));
  const zeros = () => new Array<number>(count).fill(0);
  const events = zeros();
  const sessions = zeros();
  const watchTimeSec = zeros();
  const stateChanges = zeros();
  const errors = zeros();
  const latencySums = zeros();
  const latencyCounts = zeros();
  const active = new Array<boolean>(count).fill(false);
  for (const bucket of buckets) {
    const i = Math.floor((bucket.startMs - sinceMs) / bucketMs);
    if (i < 0 || i >= count) continue;
    active[i] = true;
    events[i] += finite(bucket.events);
    sessions[i] += finite(bucket.sessions);
    watchTimeSec[i] += finite(bucket.watchTimeSec);
    stateChanges[i] += finite(bucket.stateChanges);
    errors[i] += finite(bucket.errors);
    if (typeof bucket.latencyMeanMs === 'number' && Number.isFinite(bucket.latencyMeanMs)) {
      latencySums[i] += bucket.latencyMeanMs;
      latencyCounts[i] += 1;
    }
  }
  const xs = events.map((_, i) => (sinceMs + i * bucketMs) / 1000);
  const secondsOf = (i: number) => {
    const start = sinceMs + i * bucketMs;
    const elapsed = nowMs >= start && nowMs < start + bucketMs ? nowMs - start : bucketMs;
    return Math.max(1000, elapsed) / 1000;
  };
  const eventsPerSec = events.map((n, i) => n / secondsOf(i));
  const latencyMeanMs = latencySums.map((s, i) => (latencyCounts[i] > 0 ? s / latencyCounts[i] : null));
  const latencies = latencyMeanMs.filter((v): v is number => v !== null);
  // The live edge (for the current rate): the slot holding `now`, unless less than a second of it has passed (then the
  // one before).
  let edge = count - 1;
  for (let i = count - 1; i >= 0; i--) {
    const start = sinceMs + i * bucketMs;
    if (start + 1000 <= nowMs) {
      edge = i;
      break;
    }
  }
  return {
    sinceMs,
    untilMs,
    bucketMs,
    xs,
    eventsPerSec,
    sessions,
    watchTimeSec,
    stateChanges,
    errors,
    latencyMeanMs,
    totals: {
      events: sum(events),
      latestEventsPerSec: edge >= 0 ? eventsPerSec[edge] : 0,
      peakEventsPerSec: Math.max(0, ...eventsPerSec),
      recentSessions: Math.max(0, ...sessions.filter((_, i) => sinceMs + (i + 1) * bucketMs > nowMs - recentMs && sinceMs + i * bucketMs <= nowMs)),
      peakSessions: Math.max(0, ...sessions),
      watchTimeSec: sum(watchTimeSec),
      stateChanges: sum(stateChanges),
      errors: sum(errors),
      latencyMeanMs: latencies.length ? sum(latencies) / latencies.length : null,
      activeSlots: active.filter(Boolean).length,
    },
  };
}
