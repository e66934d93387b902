import { map } from 'rxjs';
import { type IdleDeadlineLike, idleCallback$ } from '../../../streams/scheduler/idleCallback';
import { SCHEDULER_EMULATED_IDLE_DELAY_MS, SCHEDULER_IDLE_TIMEOUT_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

describe('idleCallback$', () => {
  it('emulates one idle callback 300 ms after subscription where requestIdleCallback is missing (production constant)', () => {
    expect(SCHEDULER_EMULATED_IDLE_DELAY_MS).toBe(300);
    createTestScheduler().run(({ expectObservable }) => {
      const remaining = idleCallback$({}).pipe(map((d) => [d.didTimeout, d.timeRemaining()]));
      expectObservable(remaining).toBe('300ms (d|)', { d: [false, Infinity] });
    });
  });

  it('takes a smaller emulated delay and cancels the pending timer on unsubscribe', () => {
    createTestScheduler().run(({ time, expectObservable }) => {
      const delay = time('---|');
      expectObservable(idleCallback$({}, { emulatedDelayMs: delay }).pipe(map(() => 'd'))).toBe('---(d|)');
      expectObservable(idleCallback$({}, { emulatedDelayMs: delay }).pipe(map(() => 'd')), '^-!').toBe('---');
    });
  });

  it('asks requestIdleCallback with the 3000 ms timeout (production constant) and emits its deadline once', () => {
    expect(SCHEDULER_IDLE_TIMEOUT_MS).toBe(3_000);
    let callback: ((d: IdleDeadlineLike) => void) | undefined;
    const requestIdleCallback = jest.fn((cb: (d: IdleDeadlineLike) => void, _options?: { timeout?: number }) => {
      callback = cb;
      return 7;
    });
    const cancelIdleCallback = jest.fn();
    const seen: unknown[] = [];
    let completed = false;
    idleCallback$({ requestIdleCallback, cancelIdleCallback }).subscribe({ next: (d) => seen.push(d.didTimeout), complete: () => (completed = true) });
    expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: 3_000 });
    expect(seen).toEqual([]);
    callback?.({ didTimeout: true, timeRemaining: () => 0 });
    expect(seen).toEqual([true]);
    expect(completed).toBe(true);
    expect(cancelIdleCallback).not.toHaveBeenCalled();
  });

  it('cancels a pending idle request on unsubscribe, with the handle it got', () => {
    const target = { requestIdleCallback: jest.fn(() => 42), cancelIdleCallback: jest.fn() };
    idleCallback$(target, { timeoutMs: 10 }).subscribe().unsubscribe();
    expect(target.requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: 10 });
    expect(target.cancelIdleCallback).toHaveBeenCalledWith(42);
  });
});
