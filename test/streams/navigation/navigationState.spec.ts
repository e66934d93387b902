import { navigationState } from '../../../streams/navigation/navigationState';
import { NAVIGATION_RESET_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const values = { n: 'none', a: 'application_navigating' } as const;

describe('navigationState', () => {
  it('falls back to none 5 s after a navigation start (production constant)', () => {
    expect(NAVIGATION_RESET_MS).toBe(5_000);
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      // prettier-ignore
      const starts = hot('  --s 9999ms |');
      // 'a' at frame 2; 'n' 5000 ms later at frame 5002 ('a' takes frame 2, 4999ms brings us to 5002).
      const expected = '   n-a 4999ms n 4999ms |';
      expectObservable(navigationState(starts)).toBe(expected, values);
      // the source completes at 2 + 1 + 9999 = 10002 and the result completes with it.
      expectSubscriptions(starts.subscriptions).toBe('^ 10001ms !');
    });
  });

  it('is still navigating 1 ms before the reset (production constant)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const starts = hot('  s');
      // started at 0, unsubscribed at 4999: the reset at 5000 must not have happened yet.
      expectObservable(navigationState(starts), '^ 4998ms !').toBe('(na)', values);
    });
  });

  it('restarts the clock on every new start and emits once per real change', () => {
    createTestScheduler().run(({ hot, time, expectObservable, expectSubscriptions }) => {
      // prettier-ignore
      const starts = hot('  -s--s------s-|');
      const subs = '       ^------------!';
      const reset = time('  -----|');
      // starts at 1 and 4: the clock restarts at 4, so 'n' at 4 + 5 = 9; the start at 11 is navigating again
      // and its reset at 16 still arrives after the source completed at 13, completing the result with it.
      const expected = '   na-------n-a----(n|)';
      expectObservable(navigationState(starts, { resetMs: reset })).toBe(expected, values);
      expectSubscriptions(starts.subscriptions).toBe(subs);
    });
  });

  it('cancels the pending reset timer on unsubscribe', () => {
    createTestScheduler().run(({ hot, time, expectObservable, expectSubscriptions }) => {
      const starts = hot('  -s------');
      const reset = time('  -----|');
      expectObservable(navigationState(starts, { resetMs: reset }), '^--!').toBe('na-', values);
      expectSubscriptions(starts.subscriptions).toBe('^--!');
    });
  });
});
