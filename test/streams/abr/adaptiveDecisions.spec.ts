import type { QualityPreference } from '../../../streams/abr/abrDecision';
import { adaptiveDecisions, type TransferProgress } from '../../../streams/abr/adaptiveDecisions';
import { type EstimateState, estimateBps, initialEstimate, nextEstimate } from '../../../streams/abr/bandwidthEstimate';
import { sampleOf, type SegmentTransfer } from '../../../streams/abr/bandwidthSample';
import { ABR_ESTIMATE_THROTTLE_MS, ABR_REPLACE_KEEP_S } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';
import { ladder } from './fixtures';

/** A completed transfer of `bytes` at `bps`, ending at `endMs`, after a 40 ms first byte. */
function transfer(bytes: number, bps: number, endMs: number, segmentIndex?: number): SegmentTransfer {
  const firstByteMs = endMs - (bytes * 8000) / bps;
  return { bytes, requestMs: firstByteMs - 40, firstByteMs, endMs, segmentIndex };
}

const decisions = {
  s: { index: 0, reason: 'startup' },
  m: { index: 2, reason: 'throughput' },
  T: { index: 5, reason: 'throughput' },
  f: { index: 1, reason: 'fixed' },
  c: { index: 3, reason: 'cap' },
  A: { index: 3, reason: 'abandon' },
  L: { index: 3, reason: 'throughput' },
  k: { index: 3, reason: 'seek' },
  R: { index: 5, reason: 'throughput', replaceFromS: ABR_REPLACE_KEEP_S },
} as const;

describe('adaptiveDecisions', () => {
  it('starts at the lowest rung and climbs as the transfers show a fast link', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const preference = hot<QualityPreference>('a-------', { a: 'auto' });
      const buffer = hot<number>('                -x--y--z', { x: 0, y: 2, z: 4 });
      // The first segment (27.5 kB at 5 Mbps) is too little to trust: the estimate stays at the 1 Mbps default, and
      // 0.7 × 1 Mbps reaches medium. With the second (152.5 kB in all) it is 5 Mbps: 0.7 × 5 Mbps reaches hd1080.
      const transfers = hot<SegmentTransfer>('----a--b', { a: transfer(27_500, 5_000_000, 4, 0), b: transfer(125_000, 5_000_000, 7, 1) });
      const unsub = '                         ^-------!';
      const expected = '                      s---m--T';
      const { decisions$ } = adaptiveDecisions({ ladder, segmentSeconds: 2, transfers$: transfers, buffer$: buffer, preference$: preference });
      expectObservable(decisions$, unsub).toBe(expected, decisions);
      expectSubscriptions(transfers.subscriptions).toBe(unsub);
      expectSubscriptions(buffer.subscriptions).toBe(unsub);
      expectSubscriptions(preference.subscriptions).toBe(unsub);
    });
  });

  it('replaces the video buffered below the rung at the next decision once it is told what is buffered', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const preference = hot<QualityPreference>('a---------', { a: 'auto' });
      const buffer = hot<number>('                -x----y---', { x: 4, y: 9 });
      // Transfers at 12 Mbps: the climb to hd1080 comes over 4 s of buffer, too little to replace anything; with 9 s,
      // told that medium lies beyond the kept seconds, the next decision (still hd1080) fetches it again. Told that
      // nothing is below, the one after is hd1080 as it was.
      const transfers = hot<SegmentTransfer>('--a--b--c--d', {
        a: transfer(100_000, 12_000_000, 2, 0),
        b: transfer(900_000, 12_000_000, 5, 1),
        c: transfer(900_000, 12_000_000, 8, 2),
        d: transfer(900_000, 12_000_000, 11, 3),
      });
      const ahead = hot<number | undefined>('       -------x--y', { x: 2, y: 5 });
      const expected = '                      s-m--T--R--T';
      const { decisions$ } = adaptiveDecisions({
        ladder,
        segmentSeconds: 2,
        transfers$: transfers,
        buffer$: buffer,
        preference$: preference,
        aheadRung$: ahead,
      });
      expectObservable(decisions$).toBe(expected, decisions);
    });
  });

  it('starts from what the page load measured: the rung that arrives quickly, before the estimate is trusted', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const preference = hot<QualityPreference>('a-------', { a: 'auto' });
      const buffer = hot<number>('                -x--y---', { x: 0, y: 2 });
      // 60 kB of the page at 10 Mbps (less than the estimate needs to be trusted): the first segment is hd720 (450 kB
      // in 360 ms), not hd1080 (700 ms). Its transfer makes the estimate trusted: hd1080 next.
      const transfers = hot<SegmentTransfer>('----a---', { a: transfer(450_000, 10_000_000, 4, 0) });
      const expected = '                         S---T---';
      const { decisions$ } = adaptiveDecisions({
        ladder,
        segmentSeconds: 2,
        transfers$: transfers,
        buffer$: buffer,
        preference$: preference,
        startSamples: [{ bps: 10_000_000, durationMs: 48, bytes: 60_000, endMs: -1 }],
      });
      expectObservable(decisions$).toBe(expected, { ...decisions, S: { index: 4, reason: 'startup' } });
    });
  });

  it('follows the preference: a fixed rung, a cap, then auto again', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const preference = hot<QualityPreference>('a-f-c-a-', { a: 'auto', f: { fixed: 1 }, c: { cap: 3 } });
      const buffer = hot<number>('                x-------', { x: 4 });
      const transfers = hot<SegmentTransfer>('   -t------', { t: transfer(200_000, 5_000_000, 1, 0) });
      // Auto at 5 Mbps is hd1080; fixed 1 plays small; a cap of 3 lowers hd1080 to large; auto lifts it at once.
      const expected = '                         sTf-c-T-';
      const { decisions$ } = adaptiveDecisions({ ladder, segmentSeconds: 2, transfers$: transfers, buffer$: buffer, preference$: preference });
      expectObservable(decisions$).toBe(expected, decisions);
    });
  });

  it('abandons a transfer that would arrive after the buffer runs dry, then decides on what it got', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const preference = hot<QualityPreference>('a', { a: 'auto' });
      // Two fast segments put hd1080 in charge; its next segment (875 kB), asked at 1 000 ms, crawls after a drop.
      const transfers = hot<SegmentTransfer>('-ab 3002ms f', {
        a: transfer(200_000, 5_000_000, 1, 0),
        b: transfer(200_000, 5_000_000, 2, 1),
        f: { bytes: 100_000, requestMs: 1_000, firstByteMs: 1_040, endMs: 3_005, segmentIndex: 2, failed: true },
      });
      const buffer = hot<number>('      x 1999ms y', { x: 6, y: 5 });
      const progress = hot<TransferProgress>('2999ms p', {
        p: { rungIndex: 5, segmentIndex: 2, requestMs: 1_000, firstByteMs: 1_040, bytesLoaded: 100_000, bytesTotal: 875_000 },
      });
      // At 2 999 ms: 100 kB in 1 959 ms (51 bytes/ms); the other 775 kB need 15.2 s and 5 s of buffer are left. hd720's
      // 450 kB would take 8.8 s, large's 225 kB 4.45 s: abandon for large. The failed transfer's 407 kbps then stand
      // for 3 s of the link against 0.64 s measured at 5 Mbps: the estimate falls to 0.86 Mbps, and the throughput
      // rule takes medium (large's 0.9 Mbps is over 0.95 × 0.86).
      const expected = '          sT 2997ms A 5ms m';
      const { decisions$ } = adaptiveDecisions({
        ladder,
        segmentSeconds: 2,
        transfers$: transfers,
        buffer$: buffer,
        preference$: preference,
        progress$: progress,
      });
      expectObservable(decisions$).toBe(expected, decisions);
    });
  });

  it('replaces what is buffered beyond 3 s on a switch up over a deep buffer, and nothing over a shallow one', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const preference = hot<QualityPreference>('a-', { a: 'auto' });
      // 200 kB at 8 Mbps: the throughput rule climbs from tiny to hd1080, whose 3.5 Mbps are within 0.6 × 8 Mbps.
      const transfers = hot<SegmentTransfer>('   -t', { t: transfer(200_000, 8_000_000, 1, 0) });
      const deep = hot<number>('                 x-', { x: 9 });
      const shallow = hot<number>('              x-', { x: 5 });
      const inputs = { ladder, segmentSeconds: 2, transfers$: transfers, preference$: preference };
      expectObservable(adaptiveDecisions({ ...inputs, buffer$: deep }).decisions$).toBe('sR', { ...decisions, R: { ...decisions.T, replaceFromS: 3 } });
      expectObservable(adaptiveDecisions({ ...inputs, buffer$: shallow }).decisions$).toBe('sT', decisions);
    });
  });

  it('restarts at the throughput rule after a seek', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const preference = hot<QualityPreference>('a----', { a: 'auto' });
      const buffer = hot<number>('                x--y-', { x: 4, y: 0 });
      const transfers = hot<SegmentTransfer>('   -t---', { t: transfer(200_000, 1_300_000, 1, 0) });
      const seeks = hot<number>('                ---k-', { k: 30 });
      // 1.3 Mbps: 0.7 × 1.3 = 0.91 Mbps reaches large, at start and again after the seek.
      const expected = '                   sL-k-';
      const { decisions$ } = adaptiveDecisions({ ladder, segmentSeconds: 2, transfers$: transfers, buffer$: buffer, preference$: preference, seeks$: seeks });
      expectObservable(decisions$).toBe(expected, decisions);
    });
  });

  it('reports the estimate at most every 2 s (production constant), the latest at the end of each window', () => {
    expect(ABR_ESTIMATE_THROTTLE_MS).toBe(2_000);
    const a = transfer(200_000, 2_000_000, 0);
    const b = transfer(200_000, 4_000_000, 500);
    const c = transfer(200_000, 1_000_000, 2_500);
    const after = [a, b, c].reduce<EstimateState[]>((states, t) => [...states, nextEstimate(states[states.length - 1] ?? initialEstimate, sampleOf(t)!)], []);
    const [ea, eb, ec] = after.map((s) => Math.round(estimateBps(s)));
    createTestScheduler().run(({ hot, expectObservable }) => {
      const transfers = hot<SegmentTransfer>('a 499ms b 1999ms c 3499ms |', { a, b, c });
      // a at 0 leaves at once and opens a 2 s window; b (500) waits for its end, at 2 000, which opens the next
      // window; c (2 500) leaves at its end, 4 000.
      const expected = '                     a 1999ms b 1999ms c 1999ms |';
      const { estimate$ } = adaptiveDecisions({ ladder, segmentSeconds: 2, transfers$: transfers, buffer$: hot(''), preference$: hot('') });
      expectObservable(estimate$).toBe(expected, { a: ea, b: eb, c: ec });
    });
    expect(new Set([ea, eb, ec]).size).toBe(3);
  });
});
