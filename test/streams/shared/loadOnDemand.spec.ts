import { Subject, take } from 'rxjs';
import { backoffMs, loadOnDemand, type ChunkLoad } from '../../../streams/shared/loadOnDemand';
import { CONTROLS_RETRY_AFTER_MS, CONTROLS_RETRY_MAX_MS, SERVICES_RETRY_AFTER_MS, SERVICES_RETRY_MAX_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const L: ChunkLoad<string> = { status: 'loading' };
const failed = (failures: number, error: unknown = 'chunk'): ChunkLoad<string> => ({ status: 'failed', error, failures });
const loaded = (value: string): ChunkLoad<string> => ({ status: 'loaded', value });

describe('loadOnDemand', () => {
  it('loads at the first demand, ignores demands while loading or waiting, retries by itself after a growing backoff', () => {
    createTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const first = cold<string>('-#', undefined, 'chunk');
      const second = cold<string>('-#', undefined, 'chunk');
      const third = cold<string>('--(v|)', { v: 'ui' });
      const loads = [first, second, third];
      const demand$ = hot('-d-d-d-d-d');
      const result$ = loadOnDemand(demand$, () => loads.shift()!, { retryAfterMs: 2, retryMaxMs: 3 });
      // Attempt 1 @1 fails @2 and waits 2: attempt 2 @4 fails @5 and waits min(2 * 2, 3) = 3: attempt 3 @8 answers @10,
      // which ends it. The demands after the first change nothing.
      expectObservable(result$).toBe('-la-lb--l-(v|)', { l: L, a: failed(1), b: failed(2), v: loaded('ui') });
      expectSubscriptions(first.subscriptions).toBe('-^!');
      expectSubscriptions(second.subscriptions).toBe('----^!');
      expectSubscriptions(third.subscriptions).toBe('--------^-!');
      // The first demand is enough: a demand stays in force until it is met.
      expectSubscriptions(demand$.subscriptions).toBe('^!');
    });
  });

  it('counts consecutive failures, and the wait stops growing at its maximum', () => {
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const result$ = loadOnDemand(hot('d'), () => cold('#', undefined, 'x'), { retryAfterMs: 10, retryMaxMs: 30 }).pipe(take(10));
      // Failures @0, @10 (waited 10), @30 (waited 20), @60 (waited 30, the maximum), @90 (waited 30). A group takes as
      // many frames of the diagram as it has characters, and no time.
      expectObservable(result$).toBe('(la) 6ms (lb) 16ms (lc) 26ms (ld) 26ms (le|)', {
        l: L,
        a: failed(1, 'x'),
        b: failed(2, 'x'),
        c: failed(3, 'x'),
        d: failed(4, 'x'),
        e: failed(5, 'x'),
      });
    });
  });

  it('an urgent demand during the wait starts the next attempt at once; before any demand it starts the first', () => {
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const loads = [cold<string>('-#', undefined, 'chunk'), cold<string>('-(v|)', { v: 'services' })];
      const urgent$ = hot('---u--u');
      const result$ = loadOnDemand(hot('d'), () => loads.shift()!, { retryAfterMs: 10, urgent$ });
      // Attempt 1 @0 fails @1 and would wait until @11; the urgent demand @3 starts attempt 2, which answers @4.
      expectObservable(result$).toBe('lf-l(v|)', { l: L, f: failed(1), v: loaded('services') });
    });
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const result$ = loadOnDemand(hot('------d'), () => cold('-(v|)', { v: 'services' }), { retryAfterMs: 10, urgent$: hot('--u') });
      expectObservable(result$).toBe('--l(v|)', { l: L, v: loaded('services') });
    });
  });

  it('waits the same after each failure without a maximum above the first wait', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 3000))).toEqual([3000, 3000, 3000, 3000]);
  });

  it('backs off at the production values: services 5 s, 10 s, 20 s, 40 s, then 60 s; controls 3 s doubling to 60 s', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, SERVICES_RETRY_AFTER_MS, SERVICES_RETRY_MAX_MS))).toEqual([5000, 10000, 20000, 40000, 60000, 60000]);
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(n, CONTROLS_RETRY_AFTER_MS, CONTROLS_RETRY_MAX_MS))).toEqual([
      3000, 6000, 12000, 24000, 48000, 60000, 60000,
    ]);
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const loads = [cold<string>('#', undefined, 'chunk'), cold<string>('#', undefined, 'chunk'), cold<string>('(v|)', { v: 'services' })];
      const result$ = loadOnDemand(hot('d'), () => loads.shift()!, { retryAfterMs: SERVICES_RETRY_AFTER_MS, retryMaxMs: SERVICES_RETRY_MAX_MS });
      // Failure @0; wait 5000 -> attempt 2 @5000 fails; wait 10000 -> attempt 3 @15000 answers. A group `(lf)` takes 4
      // frames of the diagram but no time: the next one is 5000 - 4 frames later.
      expectObservable(result$).toBe('(lf) 4996ms (lg) 9996ms (lv|)', { l: L, f: failed(1), g: failed(2), v: loaded('services') });
    });
  });

  it('takes a promise as a load, as the page does with its chunk, and stops listening once loaded', async () => {
    let calls = 0;
    const demand$ = new Subject<void>();
    const values: ChunkLoad<number>[] = [];
    loadOnDemand(demand$, () => Promise.resolve(++calls), { retryAfterMs: 3000 }).subscribe((v) => values.push(v));
    demand$.next();
    demand$.next(); // already loading: changes nothing
    await Promise.resolve();
    await Promise.resolve();
    expect(values).toEqual([{ status: 'loading' }, { status: 'loaded', value: 1 }]);
    expect(calls).toBe(1);
    expect(demand$.observed).toBe(false);
  });
});
