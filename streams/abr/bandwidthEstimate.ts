import { ABR_DEFAULT_ESTIMATE_BPS, ABR_ESTIMATE_TRUST_BYTES, ABR_FAST_HALF_LIFE_S, ABR_RISE_FACTOR, ABR_RISE_SAMPLES, ABR_SLOW_HALF_LIFE_S } from '../timing';
import type { BandwidthSample } from './bandwidthSample';

/** An exponentially weighted moving average whose weights are seconds. */
export interface Ewma {
  /** The biased average: it starts from 0, `ewmaValue` corrects for that. */
  value: number;
  /** The seconds of weight seen so far. */
  weightS: number;
}

/** The bandwidth estimator's state: a fast and a slow average, the bytes measured and when the last sample ended. */
export interface EstimateState {
  fast: Ewma;
  slow: Ewma;
  bytes: number;
  /** The end of the latest sample, or null before the first. */
  lastEndMs: number | null;
  /** How many samples in a row, up to the latest, were well above the estimate, and the lowest of them (bits/s). */
  rise: { count: number; lowestBps: number };
}

export interface EstimateOptions {
  fastHalfLifeS?: number;
  slowHalfLifeS?: number;
  riseSamples?: number;
  riseFactor?: number;
  trustBytes?: number;
}

export const initialEstimate: EstimateState = {
  fast: { value: 0, weightS: 0 },
  slow: { value: 0, weightS: 0 },
  bytes: 0,
  lastEndMs: null,
  rise: { count: 0, lowestBps: Infinity },
};

function addTo(ewma: Ewma, halfLifeS: number, bps: number, weightS: number): Ewma {
  const keep = Math.pow(0.5, weightS / halfLifeS);
  return { value: bps * (1 - keep) + ewma.value * keep, weightS: ewma.weightS + weightS };
}

/** The average with the bias of its zero start removed; null before any weight. */
export function ewmaValue(ewma: Ewma, halfLifeS: number): number | null {
  if (ewma.weightS <= 0) return null;
  return ewma.value / (1 - Math.pow(0.5, ewma.weightS / halfLifeS));
}

/** The same weight of history, all of it at `bps`. */
const settledAt = (ewma: Ewma, halfLifeS: number, bps: number): Ewma => ({
  value: bps * (1 - Math.pow(0.5, ewma.weightS / halfLifeS)),
  weightS: ewma.weightS,
});

/**
 * The estimate after one more sample. A sample weighs the seconds of the link's history it stands for: the time since
 * the previous sample ended, and never less than its own duration. On a link much faster than the ladder a segment
 * transfers in a fraction of its play time, and weighing only the transfer time would leave an old slow sample in
 * charge for minutes; the engine fetches whenever it has room, so the link's rate between two transfers is best
 * described by the latest one.
 *
 * A rise that lasts is taken at once: when `riseSamples` samples in a row each measured at least `riseFactor` × the
 * trusted estimate, both averages restart from the lowest of them. The link has changed (a better network, a
 * neighbour's download ended), and the averages would otherwise need seconds of fast transfers, at the old rate's
 * pace, to believe it; one fast sample, or a burst between slow ones, still moves them only by its weight.
 */
export function nextEstimate(state: EstimateState, sample: BandwidthSample, options: EstimateOptions = {}): EstimateState {
  const { fastHalfLifeS = ABR_FAST_HALF_LIFE_S, slowHalfLifeS = ABR_SLOW_HALF_LIFE_S } = options;
  const { riseSamples = ABR_RISE_SAMPLES, riseFactor = ABR_RISE_FACTOR, trustBytes = ABR_ESTIMATE_TRUST_BYTES } = options;
  const spanMs = state.lastEndMs === null ? sample.durationMs : sample.endMs - state.lastEndMs;
  const weightS = Math.max(sample.durationMs, Math.min(spanMs, sample.durationMs + slowHalfLifeS * 1000)) / 1000;
  const before = state.bytes >= trustBytes ? estimateBps(state, Infinity, { fastHalfLifeS, slowHalfLifeS, trustBytes }) : Infinity;
  const rising = sample.bps >= riseFactor * before;
  const rise = rising ? { count: state.rise.count + 1, lowestBps: Math.min(state.rise.lowestBps, sample.bps) } : initialEstimate.rise;
  let fast = addTo(state.fast, fastHalfLifeS, sample.bps, weightS);
  let slow = addTo(state.slow, slowHalfLifeS, sample.bps, weightS);
  if (rise.count >= riseSamples) {
    fast = settledAt(fast, fastHalfLifeS, rise.lowestBps);
    slow = settledAt(slow, slowHalfLifeS, rise.lowestBps);
  }
  return {
    fast,
    slow,
    bytes: state.bytes + sample.bytes,
    lastEndMs: Math.max(sample.endMs, state.lastEndMs ?? sample.endMs),
    rise: rise.count >= riseSamples ? initialEstimate.rise : rise,
  };
}

export type EstimateBpsOptions = Pick<EstimateOptions, 'fastHalfLifeS' | 'slowHalfLifeS' | 'trustBytes'>;

/**
 * The bandwidth to plan with: the lower of the two averages (a drop shows at once, a rise only once it lasts), or
 * `defaultBps` before any sample. Until `trustBytes` were measured the estimate is never above `defaultBps`: a few
 * small transfers can say the link is slow, not that it is fast.
 */
export function estimateBps(state: EstimateState, defaultBps = ABR_DEFAULT_ESTIMATE_BPS, options: EstimateBpsOptions = {}): number {
  const { fastHalfLifeS = ABR_FAST_HALF_LIFE_S, slowHalfLifeS = ABR_SLOW_HALF_LIFE_S, trustBytes = ABR_ESTIMATE_TRUST_BYTES } = options;
  const fast = ewmaValue(state.fast, fastHalfLifeS);
  const slow = ewmaValue(state.slow, slowHalfLifeS);
  if (fast === null || slow === null) return defaultBps;
  const measured = Math.min(fast, slow);
  return state.bytes >= trustBytes ? measured : Math.min(measured, defaultBps);
}

/**
 * Whether `bytes` arrive within `withinMs` at the link's measured rate, trusted or not (the page's own load counts):
 * false before any sample. The engine asks it before appending a segment as it arrives, where playback starts on the
 * first frames and the rest must outpace it.
 */
export function arrivesWithin(state: EstimateState, bytes: number, withinMs: number, options: EstimateOptions = {}): boolean {
  if (state.lastEndMs === null) return false;
  return (bytes * 8 * 1000) / estimateBps(state, Infinity, { ...options, trustBytes: 0 }) <= withinMs;
}
