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
  /** Seconds of rebuffering per slot (0 without any). */
  rebufferSec: number[];
  /** Rebuffer time over watch time per slot; `null` where nothing was watched. */
  rebufferRatio: (number | null)[];
  /** Bitrate on screen weighted by playing time; `null` where nothing played. */
  bitrateMeanBps: (number | null)[];
  /** Start-up time percentiles; `null` where no playback started. */
  startupP50Ms: (number | null)[];
  startupP90Ms: (number | null)[];
  startupP99Ms: (number | null)[];
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

/** What the buckets laid on one slot of the window add up to. */
interface Slot {
  /** Whether any bucket landed on it. */
  active: boolean;
  events: number;
  sessions: number;
  watchTimeSec: number;
  stateChanges: number;
  errors: number;
  latencySum: number;
  latencyCount: number;
  rebufferSec: number;
  /** The optional means of the slot's buckets (two buckets in one slot are averaged). */
  means: Record<MeanKey, { sum: number; count: number }>;
}

/** The bucket fields that are present only when the bucket had such events. */
const MEAN_KEYS = ['bitrateMeanBps', 'startupP50Ms', 'startupP90Ms', 'startupP99Ms'] as const;
type MeanKey = (typeof MEAN_KEYS)[number];

const emptySlot = (): Slot => ({
  active: false,
  events: 0,
  sessions: 0,
  watchTimeSec: 0,
  stateChanges: 0,
  errors: 0,
  latencySum: 0,
  latencyCount: 0,
  rebufferSec: 0,
  means: Object.fromEntries(MEAN_KEYS.map((k) => [k, { sum: 0, count: 0 }])) as Slot['means'],
});

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
  const slots = Array.from({ length: count }, emptySlot);
  for (const bucket of buckets) {
    // A bucket outside the window (before or after it) finds no slot.
    const slot = slots[Math.floor((bucket.startMs - sinceMs) / bucketMs)];
    if (slot === undefined) continue;
    slot.active = true;
    slot.events += finite(bucket.events);
    slot.sessions += finite(bucket.sessions);
    slot.watchTimeSec += finite(bucket.watchTimeSec);
    slot.stateChanges += finite(bucket.stateChanges);
    slot.errors += finite(bucket.errors);
    if (typeof bucket.latencyMeanMs === 'number' && Number.isFinite(bucket.latencyMeanMs)) {
      slot.latencySum += bucket.latencyMeanMs;
      slot.latencyCount += 1;
    }
    slot.rebufferSec += finite(bucket.rebufferSec);
    for (const key of MEAN_KEYS) {
      const v = bucket[key];
      if (typeof v === 'number' && Number.isFinite(v)) {
        slot.means[key].sum += v;
        slot.means[key].count += 1;
      }
    }
  }
  const meanOf = (key: MeanKey) => slots.map(({ means }) => (means[key].count > 0 ? means[key].sum / means[key].count : null));
  const events = slots.map((slot) => slot.events);
  const sessions = slots.map((slot) => slot.sessions);
  const watchTimeSec = slots.map((slot) => slot.watchTimeSec);
  const stateChanges = slots.map((slot) => slot.stateChanges);
  const errors = slots.map((slot) => slot.errors);
  const xs = events.map((_, i) => (sinceMs + i * bucketMs) / 1000);
  const secondsOf = (i: number) => {
    const start = sinceMs + i * bucketMs;
    const elapsed = nowMs >= start && nowMs < start + bucketMs ? nowMs - start : bucketMs;
    return Math.max(1000, elapsed) / 1000;
  };
  const eventsPerSec = events.map((n, i) => n / secondsOf(i));
  const latencyMeanMs = slots.map((slot) => (slot.latencyCount > 0 ? slot.latencySum / slot.latencyCount : null));
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
    rebufferSec: slots.map((slot) => slot.rebufferSec),
    rebufferRatio: slots.map((slot) => (slot.watchTimeSec > 0 ? slot.rebufferSec / slot.watchTimeSec : null)),
    bitrateMeanBps: meanOf('bitrateMeanBps'),
    startupP50Ms: meanOf('startupP50Ms'),
    startupP90Ms: meanOf('startupP90Ms'),
    startupP99Ms: meanOf('startupP99Ms'),
    totals: {
      events: sum(events),
      latestEventsPerSec: eventsPerSec[edge] ?? 0, // no slot (edge -1) without a window
      peakEventsPerSec: Math.max(0, ...eventsPerSec),
      recentSessions: Math.max(0, ...sessions.filter((_, i) => sinceMs + (i + 1) * bucketMs > nowMs - recentMs && sinceMs + i * bucketMs <= nowMs)),
      peakSessions: Math.max(0, ...sessions),
      watchTimeSec: sum(watchTimeSec),
      stateChanges: sum(stateChanges),
      errors: sum(errors),
      latencyMeanMs: latencies.length ? sum(latencies) / latencies.length : null,
      activeSlots: slots.filter((slot) => slot.active).length,
    },
  };
}
