import { Subject } from 'rxjs';
import { loadOnDemand } from '../../../streams/shared/loadOnDemand';
import { createTestScheduler } from '../../helpers/testScheduler';

describe('loadOnDemand', () => {
  it('loads at the first demand, ignores demands while loading and within the delay after a failure, then loads again', () => {
    const failures: unknown[] = [];
    createTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const failing = cold<string>('-#', undefined, 'chunk');
      const answering = cold<string>('--(v|)', { v: 'ui' });
      const loads = [failing, answering];
      const demand$ = hot('-d-d---d--d-----d');
      const result$ = loadOnDemand(demand$, () => loads.shift()!, { retryAfterMs: 4, onFailure: (e) => failures.push(e) });
      // Load 1 @1 fails @2; the demand @3 is within 4 of the failure: ignored; load 2 @7 answers @9, which ends it:
      // the demands @10 and @16 are no longer listened to.
      expectObservable(result$).toBe('---------(v|)', { v: 'ui' });
      expectSubscriptions(failing.subscriptions).toBe('-^!');
      expectSubscriptions(answering.subscriptions).toBe('-------^-!');
      expectSubscriptions(demand$.subscriptions).toBe('^--------!');
    });
    expect(failures).toEqual(['chunk']);
  });

  it('reports each failure and never completes while every load fails; a demand as the delay ends loads again', () => {
    const failures: unknown[] = [];
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const result$ = loadOnDemand(hot('d-d-d-d'), () => cold('#', undefined, 'x'), { retryAfterMs: 2, onFailure: (e) => failures.push(e) });
      expectObservable(result$).toBe('-------');
    });
    expect(failures).toEqual(['x', 'x', 'x', 'x']);
  });

  it('takes a promise as a load, as the page does with its chunk, and stops listening once loaded', async () => {
    let calls = 0;
    const demand$ = new Subject<void>();
    const values: string[] = [];
    loadOnDemand(demand$, () => Promise.resolve(++calls), { retryAfterMs: 3000 }).subscribe((v) => values.push(`ui${JSON.stringify(v)}`));
    demand$.next();
    demand$.next(); // while loading: ignored
    await Promise.resolve();
    await Promise.resolve();
    expect(values).toEqual(['ui1']);
    expect(calls).toBe(1);
    expect(demand$.observed).toBe(false);
  });
});
