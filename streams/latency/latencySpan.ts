import { type LatencyLog, latencyKey } from './recordLatencyTick';

/** The time between two ticks of one action. */
export interface LatencySpanResult {
  startMs: number;
  endMs: number;
  durationMs: number;
}

/**
 * The span between two named ticks of an action in the latency log (spec §9 latency timing), e.g. `navigationStart`
 * → `playerReady` of action `watch`: from the latest `from` tick at or before the latest `to` tick, to that `to`
 * tick. `undefined` when either tick is missing (never logged, or purged as stale), or when every `from` tick is
 * later than the latest `to` tick (the action started again and has not reached `to` yet).
 *
 * ```
 * watch/navigationStart: [100, 900]   watch/playerReady: [700]   → { startMs: 100, endMs: 700, durationMs: 600 }
 * ```
 */
export function latencySpan(log: LatencyLog, action: string, from: string, to: string): LatencySpanResult | undefined {
  const ends = log.get(latencyKey(action, to));
  const endMs = ends?.[ends.length - 1];
  if (endMs === undefined) return undefined;
  const starts = (log.get(latencyKey(action, from)) ?? []).filter((time) => time <= endMs);
  const startMs = starts[starts.length - 1];
  if (startMs === undefined) return undefined;
  return { startMs, endMs, durationMs: endMs - startMs };
}
