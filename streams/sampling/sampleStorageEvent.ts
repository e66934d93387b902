import { STORAGE_EVENT_SAMPLE_RATE } from '../timing';
import { isSampledIn } from './isSampledIn';

/**
 * Whether a storage event is logged (spec §9: most kinds of storage events are sampled at
 * {@link STORAGE_EVENT_SAMPLE_RATE}, 20 %). Kinds the caller must always log (the "most kinds" exception of the
 * spec, e.g. errors) simply do not call this. `true` means log it; the draw is `random() < rate`.
 *
 * ```
 * random():  0.1999   0.2
 * result:    true     false
 * ```
 *
 * @param random the random source, injected so tests can fix the draw.
 */
export function sampleStorageEvent(random: () => number = Math.random, rate: number = STORAGE_EVENT_SAMPLE_RATE): boolean {
  return isSampledIn(rate, random);
}
