import { STORED_LOG_SAMPLE_RATE } from '../timing';
import { isSampledIn } from './isSampledIn';

/**
 * Whether a stored-log event is kept (spec §9: stored logs are sampled at {@link STORED_LOG_SAMPLE_RATE}, 10 %).
 * Call it once per candidate event; `true` means log it. The draw is `random() < rate` (see {@link isSampledIn}).
 *
 * ```
 * random():  0.0999   0.1
 * result:    true     false
 * ```
 *
 * @param random the random source, injected so tests can fix the draw.
 */
export function sampleStoredLog(random: () => number = Math.random, rate: number = STORED_LOG_SAMPLE_RATE): boolean {
  return isSampledIn(rate, random);
}
