import { arrivesWithin, type EstimateState, estimateBps, ewmaValue, initialEstimate, nextEstimate } from '../../../streams/abr/bandwidthEstimate';
import type { BandwidthSample } from '../../../streams/abr/bandwidthSample';
import {
  ABR_DEFAULT_ESTIMATE_BPS,
  ABR_ESTIMATE_TRUST_BYTES,
  ABR_FAST_HALF_LIFE_S,
  ABR_RISE_FACTOR,
  ABR_RISE_SAMPLES,
  ABR_SLOW_HALF_LIFE_S,
} from '../../../streams/timing';

/** Back-to-back samples of `bps`, each `durationMs` long, the first ending at `startMs + durationMs`. */
function feed(state: EstimateState, bps: number, count: number, durationMs: number, startMs: number, gapMs = 0): EstimateState {
  let s = state;
  for (let i = 0; i < count; i++) {
    const endMs = startMs + (i + 1) * (durationMs + gapMs) - gapMs;
    s = nextEstimate(s, { bps, durationMs, bytes: (bps * durationMs) / 8000, endMs });
  }
  return s;
}

/** Within 0.5 %: the averages also carry the (tiny) correction of their zero start. */
const expectNear = (actual: number | null, expected: number) => expect(Math.abs((actual ?? NaN) / expected - 1)).toBeLessThan(0.005);

const sample = (bps: number, durationMs: number, endMs: number): BandwidthSample => ({ bps, durationMs, bytes: (bps * durationMs) / 8000, endMs });

describe('bandwidth estimate', () => {
  it('is the default (1 Mbps, production constant) before any sample', () => {
    expect(ABR_DEFAULT_ESTIMATE_BPS).toBe(1_000_000);
    expect(estimateBps(initialEstimate)).toBe(1_000_000);
    expect(estimateBps(initialEstimate, 500_000)).toBe(500_000);
  });

  it('is never above the default until 128 KB were measured, and may be below it at once', () => {
    expect(ABR_ESTIMATE_TRUST_BYTES).toBe(128_000);
    const fast = nextEstimate(initialEstimate, sample(5_000_000, 80, 80)); // 50 000 bytes
    expect(estimateBps(fast)).toBe(1_000_000);
    const slow = nextEstimate(initialEstimate, sample(300_000, 500, 500)); // 18 750 bytes
    expect(estimateBps(slow)).toBeCloseTo(300_000, 0);
    const trusted = feed(initialEstimate, 5_000_000, 3, 80, 0); // 150 000 bytes
    expect(estimateBps(trusted)).toBeCloseTo(5_000_000, 0);
  });

  it('removes the bias of the zero start: one sample is its own average', () => {
    const s = nextEstimate(initialEstimate, sample(2_000_000, 1_000, 1_000));
    expect(ewmaValue(s.fast, ABR_FAST_HALF_LIFE_S)).toBeCloseTo(2_000_000, 3);
    expect(ewmaValue(s.slow, ABR_SLOW_HALF_LIFE_S)).toBeCloseTo(2_000_000, 3);
    expect(ewmaValue(initialEstimate.fast, ABR_FAST_HALF_LIFE_S)).toBeNull();
  });

  it('follows a drop at the fast half-life (2 s) and a rise at the slow one (3 s): the lower wins', () => {
    expect([ABR_FAST_HALF_LIFE_S, ABR_SLOW_HALF_LIFE_S]).toEqual([2, 3]);
    const steady = feed(initialEstimate, 5_000_000, 60, 1_000, 0); // 60 s at 5 Mbps
    // 2 s at 500 kbps: the fast average moves half way (2.75 Mbps), the slow one by 1 − 2^(−2/3) ≈ 37 %.
    const dropped = nextEstimate(steady, sample(500_000, 2_000, 62_000));
    expectNear(estimateBps(dropped), 2_750_000);
    const calm = feed(initialEstimate, 1_000_000, 60, 1_000, 0);
    // 2 s at 5 Mbps: the fast average reaches 3 Mbps, the slow one 1 + 4 × (1 − 2^(−2/3)) ≈ 2.48 Mbps, which wins.
    const burst = nextEstimate(calm, sample(5_000_000, 2_000, 62_000));
    expectNear(estimateBps(burst), 1_000_000 + 4_000_000 * (1 - Math.pow(0.5, 2 / 3)));
  });

  it('weighs a sample by the time since the previous one: short transfers on a fast link catch up in seconds', () => {
    const calm = feed(initialEstimate, 500_000, 20, 2_000, 0); // 40 s at 500 kbps, back to back
    // Then 2-s segments that each transfer in 100 ms at 5 Mbps, one every 2 s: each stands for 2 s of the link.
    const after = feed(calm, 5_000_000, 8, 100, 41_900, 1_900);
    // 16 s of history at 5 Mbps: the slow average is 5 − 4.5 × 2^(−16/3) ≈ 4.9 Mbps (weighed by transfer time alone,
    // 0.8 s, it would be 5 − 4.5 × 2^(−0.8/3) ≈ 1.3 Mbps).
    expect(estimateBps(after)).toBeGreaterThan(4_800_000);
  });

  it('gives a sample after a long silence at most one slow half-life more than its duration', () => {
    const calm = feed(initialEstimate, 1_000_000, 60, 1_000, 0);
    const later = nextEstimate(calm, sample(5_000_000, 100, 60_000 + 3_600_000));
    // Weight 3.1 s: the slow average moves by 1 − 2^(−3.1/3) ≈ 51 %.
    expectNear(ewmaValue(later.slow, ABR_SLOW_HALF_LIFE_S), 1_000_000 + 4_000_000 * (1 - Math.pow(0.5, 3.1 / 3)));
  });
});

describe('a rise that lasts', () => {
  const calm = feed(initialEstimate, 500_000, 20, 2_000, 0); // 40 s at 500 kbps, back to back
  const after = (state: EstimateState, rates: readonly number[], options = {}) =>
    rates.reduce((s, bps, i) => nextEstimate(s, sample(bps, 100, 40_000 + (i + 1) * 100), options), state);

  it('is believed at once after three samples in a row at 1.5× the estimate or more: both averages restart from the lowest', () => {
    expect([ABR_RISE_SAMPLES, ABR_RISE_FACTOR]).toEqual([3, 1.5]);
    const risen = after(calm, [6_000_000, 4_000_000, 5_000_000]);
    expectNear(estimateBps(risen), 4_000_000);
    expectNear(ewmaValue(risen.fast, ABR_FAST_HALF_LIFE_S), 4_000_000);
    expectNear(ewmaValue(risen.slow, ABR_SLOW_HALF_LIFE_S), 4_000_000);
    // The averages alone, over 0.3 s of fast transfers: the slow one has moved by 1 − 2^(−0.3/3) ≈ 7 %.
    const averaged = after(calm, [6_000_000, 4_000_000, 5_000_000], { riseSamples: Infinity });
    expect(estimateBps(averaged)).toBeLessThan(1_000_000);
  });

  it('is not believed after two fast samples, nor when a sample under 1.5× breaks the run', () => {
    const two = after(calm, [5_000_000, 5_000_000]);
    expect(estimateBps(two)).toBeLessThan(1_000_000);
    const broken = after(calm, [5_000_000, 5_000_000, 700_000, 5_000_000]);
    expect(estimateBps(broken)).toBeLessThan(1_000_000);
    // 1.4× three times is a drift for the averages to follow, not a new link.
    expect(estimateBps(after(calm, [700_000, 700_000, 700_000]))).toBeLessThan(700_000);
  });

  it('starts counting again after it was believed, and never before the estimate is trusted', () => {
    const risen = after(calm, [5_000_000, 5_000_000, 5_000_000]);
    // Two more samples well above the new level are not a second rise.
    expect(estimateBps(after(risen, [20_000_000, 20_000_000]))).toBeLessThan(6_000_000);
    // Untrusted (under 128 KB measured), the samples only feed the averages.
    const small = (bps: number, endMs: number): BandwidthSample => ({ bps, durationMs: 20, bytes: (bps * 20) / 8000, endMs });
    const rates = [500_000, 2_000_000, 3_000_000, 4_000_000];
    const fed = (options: object) => rates.reduce((s, bps, i) => nextEstimate(s, small(bps, (i + 1) * 20), options), initialEstimate);
    expect(fed({}).bytes).toBeLessThan(ABR_ESTIMATE_TRUST_BYTES);
    expect(estimateBps(fed({}), Infinity, { trustBytes: 0 })).toBe(estimateBps(fed({ riseSamples: Infinity }), Infinity, { trustBytes: 0 }));
  });
});

describe('arrivesWithin', () => {
  const at = (bps: number, bytes: number): EstimateState => nextEstimate(initialEstimate, { bps, bytes, durationMs: (bytes * 8 * 1000) / bps, endMs: 1_000 });

  it('says whether the bytes arrive in time at the measured rate, trusted or not, and no before any sample', () => {
    // 50 kB measured at 4 Mbps: below the bytes the estimate needs to be trusted, and counted all the same.
    const link = at(4_000_000, 50_000);
    expect(arrivesWithin(link, 350_000, 700)).toBe(true);
    expect(arrivesWithin(link, 351_000, 700)).toBe(false);
    expect(arrivesWithin(initialEstimate, 1, 10_000)).toBe(false);
  });
});
