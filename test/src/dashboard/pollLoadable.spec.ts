import type { Observable } from 'rxjs';
import { CollectorApiError } from '../../../src/dashboard/collectorApi';
import { DASHBOARD_POLL_MS, DASHBOARD_REQUEST_TIMEOUT_MS } from '../../../src/dashboard/dashboardTiming';
import { type Loadable, pollLoadable } from '../../../src/dashboard/pollLoadable';
import { createTestScheduler } from '../../helpers/testScheduler';

/** A `read` that answers the given observables in turn (the last one again when they run out). */
const answers = <T>(...reads: Observable<T>[]) => {
  let i = 0;
  return jest.fn(() => reads[Math.min(i++, reads.length - 1)]);
};

describe('pollLoadable', () => {
  it('uses the dashboard constants', () => {
    expect([DASHBOARD_POLL_MS, DASHBOARD_REQUEST_TIMEOUT_MS]).toEqual([2000, 10_000]);
  });

  it('reads at once and every 2000 ms: loading, then ready with the answer and its time', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const read = answers(cold('5ms (a|)'), cold('5ms (b|)'));
      // L at 0; the first read answers at 5; the second starts at 2000 and answers at 2005 (6 + 1999).
      expectObservable(pollLoadable(read, { scheduler }), '^ 2010ms !').toBe('L 4ms A 1999ms B', {
        L: { status: 'loading' },
        A: { status: 'ready', data: 'a', updatedAtMs: 5 },
        B: { status: 'ready', data: 'b', updatedAtMs: 2005 },
      } satisfies Record<string, Loadable<string>>);
    });
  });

  it('a failure keeps the last data and polling goes on; the next answer recovers', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const boom = new CollectorApiError('http', 500, 'Internal server error.');
      const read = answers(cold('(a|)'), cold('#', undefined, boom), cold('(b|)'));
      // pollMs 5: reads at 0, 5, 10.
      expectObservable(pollLoadable(read, { pollMs: 5, scheduler }), '^ 12ms !').toBe('(LA)-F----B', {
        L: { status: 'loading' },
        A: { status: 'ready', data: 'a', updatedAtMs: 0 },
        F: { status: 'failed', message: 'Internal server error.', data: 'a', updatedAtMs: 0 },
        B: { status: 'ready', data: 'b', updatedAtMs: 10 },
      });
    });
  });

  it('a refused token (401) ends the polling with unauthorized', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const read = answers(cold('#', undefined, new CollectorApiError('unauthorized', 401, 'The admin token is wrong')));
      expectObservable(pollLoadable(read, { pollMs: 5, scheduler })).toBe('(LU|)', {
        L: { status: 'loading' },
        U: { status: 'unauthorized', message: 'The admin token is wrong' },
      });
      scheduler.flush();
      expect(read).toHaveBeenCalledTimes(1);
    });
  });

  it('a read that does not answer fails after 10000 ms; the polls due meanwhile are skipped, not stacked', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const read = answers<string>(cold('-'), cold('3ms (a|)'));
      // The read at 0 times out at 10000 (L at 0, F at 1 + 9999); the ticks at 2000…8000 find it running and are
      // dropped; the tick at 10000 reads again, answered at 10003 (10001 + 2).
      expectObservable(pollLoadable(read, { scheduler }), '^ 10005ms !').toBe('L 9999ms F 2ms A', {
        L: { status: 'loading' },
        F: { status: 'failed', message: 'The collector did not answer within 10 s.' },
        A: { status: 'ready', data: 'a', updatedAtMs: 10_003 },
      });
      scheduler.flush();
      expect(read).toHaveBeenCalledTimes(2);
    });
  });
});
