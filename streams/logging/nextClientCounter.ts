import { LOG_BATCH_COUNTER_MAX } from '../timing';

/**
 * The `serializedClientEventId.clientCounter` of the next log request. Counters run 1, 2, … up to
 * {@link LOG_BATCH_COUNTER_MAX} (65535) and then wrap back to 1 (0 is never used, so "no counter yet" is 0).
 * Anything that is not a whole number in range restarts the sequence at 1.
 */
export function nextClientCounter(previous: number, max: number = LOG_BATCH_COUNTER_MAX): number {
  if (!Number.isInteger(previous) || previous < 0 || previous >= max) return 1;
  return previous + 1;
}
