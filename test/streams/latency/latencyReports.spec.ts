import { latencyReports, type LatencyTick } from '../../../streams/latency/latencyReports';
import { createTestScheduler } from '../../helpers/testScheduler';

const ticks: Record<string, LatencyTick> = {
  s: { action: 'watch', name: 'navigationStart' },
  r: { action: 'watch', name: 'playerReady' },
  S: { action: 'embed', name: 'navigationStart' },
  R: { action: 'embed', name: 'playerReady' },
  x: { action: 'watch', name: 'other' },
};
const spans = [{ from: 'navigationStart', to: 'playerReady' }];
const report = (action: string, startMs: number, endMs: number) => ({
  action,
  from: 'navigationStart',
  to: 'playerReady',
  startMs,
  endMs,
  durationMs: endMs - startMs,
});

describe('latencyReports', () => {
  it('reports a span whose start is exactly 60 s old at the end tick (production constant)', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const input = hot('  s 59999ms (r|)', ticks);
      // s at 0; r at 1 + 59 999 = 60 000: the start is exactly 60 000 ms old and kept.
      expectObservable(latencyReports(input, { spans })).toBe('  - 59999ms (a|)', { a: report('watch', 0, 60_000) });
      expectSubscriptions(input.subscriptions).toBe('^ 59999ms !');
    });
  });

  it('gives no report when the start is 60 001 ms old (purged as stale)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // s at 0; r at 1 + 60 000 = 60 001: the start is 60 001 ms old.
      const input = hot('  s 60000ms (r|)', ticks);
      expectObservable(latencyReports(input, { spans })).toBe('- 60000ms |');
    });
  });

  it('keeps at most 5 starts per key (production constant): after a 6th, the oldest can no longer be paired', () => {
    // starts with explicit times 1…6 all arrive at frame 0; an end tick carrying time 1 can only pair with start 1.
    const starts = [1, 2, 3, 4, 5, 6].map((time): LatencyTick => ({ action: 'watch', name: 'navigationStart', time }));
    const values = { a: starts[0], b: starts[1], c: starts[2], d: starts[3], e: starts[4], f: starts[5] };
    const end: LatencyTick = { action: 'watch', name: 'playerReady', time: 1 };
    createTestScheduler().run(({ hot, expectObservable }) => {
      // the group takes frames 0–7, so the end is at 8 + 4 = 12.
      const input = hot('  (abcdef)----(r|)', { ...values, r: end });
      expectObservable(latencyReports(input, { spans })).toBe('------------|');
    });
    createTestScheduler().run(({ hot, expectObservable }) => {
      const input = hot('  (abcdef)----(r|)', { ...values, r: end });
      expectObservable(latencyReports(input, { spans, maxEntriesPerKey: 6 })).toBe('------------(A|)', { A: report('watch', 1, 1) });
    });
  });

  it('reports per action, for every span that a tick ends, with small overrides', () => {
    createTestScheduler().run(({ hot, time, expectObservable }) => {
      const stale = time('    ----------|');
      const input = hot('  s-S-x-r-R-----s-----------r-|', ticks);
      // watch: 0→6 and embed: 2→8 are within 10 frames; the start at 14 is 12 frames old at 26 (> 10): purged.
      const expected = '   ------a-b-------------------|';
      expectObservable(latencyReports(input, { spans, staleEntryMs: stale })).toBe(expected, {
        a: report('watch', 0, 6),
        b: report('embed', 2, 8),
      });
    });
  });

  it('restricts a span to its action when one is given', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const input = hot('  sS-rR|', ticks);
      const only = [{ action: 'embed', from: 'navigationStart', to: 'playerReady' }];
      expectObservable(latencyReports(input, { spans: only })).toBe('    ----a|', { a: report('embed', 1, 4) });
    });
  });

  it('skips malformed ticks without failing', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const bad = {
        n: null as unknown as LatencyTick,
        a: { action: 1, name: 'playerReady' } as unknown as LatencyTick,
        t: { action: 'watch', name: 'playerReady', time: NaN },
      };
      const input = hot('  s-n-a-t-r|', { ...ticks, ...bad });
      expectObservable(latencyReports(input, { spans })).toBe('--------a|', { a: report('watch', 0, 8) });
    });
  });

  it('tears down the tick source', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const input = hot('  s--r--', ticks);
      expectObservable(latencyReports(input, { spans }), '^-!').toBe('---');
      expectSubscriptions(input.subscriptions).toBe('^-!');
    });
  });
});
