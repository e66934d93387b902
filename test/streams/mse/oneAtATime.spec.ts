import { merge, takeUntil, timer } from 'rxjs';
import { oneAtATime } from '../../../streams/mse/oneAtATime';
import { createTestScheduler } from '../../helpers/testScheduler';

describe('oneAtATime', () => {
  it('subscribes each request once the one before it has ended, in the order they came', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = oneAtATime();
      const a = cold('--a|');
      const b = cold('-b|');
      const c = cold('c|');
      expectObservable(merge(turn(a), turn(b), turn(c))).toBe('--a-bc|');
      expectSubscriptions(a.subscriptions).toBe('^--!');
      expectSubscriptions(b.subscriptions).toBe('---^-!');
      expectSubscriptions(c.subscriptions).toBe('-----^!');
    });
  });

  it('hands the turn on when a request fails', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const turn = oneAtATime();
      const failing = cold('-#');
      const next = cold('-x|');
      expectObservable(turn(failing)).toBe('-#');
      expectObservable(turn(next)).toBe('--x|');
    });
  });

  it('hands the turn on when the request holding it is unsubscribed (an abort)', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = oneAtATime();
      const slow = cold('-----s|');
      const next = cold('-x|');
      expectObservable(turn(slow).pipe(takeUntil(timer(2)))).toBe('--|');
      expectObservable(turn(next)).toBe('---x|');
      expectSubscriptions(slow.subscriptions).toBe('^-!');
      expectSubscriptions(next.subscriptions).toBe('--^-!');
    });
  });

  it('never subscribes a request unsubscribed while it waits, and keeps the line moving past it', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = oneAtATime();
      const first = cold('---a|');
      const dropped = cold('d|');
      const last = cold('l|');
      expectObservable(turn(first)).toBe('---a|');
      expectObservable(turn(dropped).pipe(takeUntil(timer(1)))).toBe('-|');
      expectObservable(turn(last)).toBe('----l|');
      expectSubscriptions(dropped.subscriptions).toBe([]);
      expectSubscriptions(last.subscriptions).toBe('----^!');
    });
  });

  it('keeps separate lines for separate turnstiles', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const one = oneAtATime();
      const other = oneAtATime();
      expectObservable(merge(one(cold('--a|')), other(cold('-b|')))).toBe('-ba|');
    });
  });
});
