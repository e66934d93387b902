import { asyncScheduler, map, Observable, type SchedulerLike, timer } from 'rxjs';
import { SCHEDULER_EMULATED_IDLE_DELAY_MS, SCHEDULER_IDLE_TIMEOUT_MS } from '../timing';

/** What an idle callback receives (the `IdleDeadline` of the browser). */
export interface IdleDeadlineLike {
  readonly didTimeout: boolean;
  timeRemaining(): number;
}

/** The part of `window` this needs; `requestIdleCallback` may be missing (Safari). */
export interface IdleCallbackTarget {
  requestIdleCallback?: (callback: (deadline: IdleDeadlineLike) => void, options?: { timeout?: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
}

export interface IdleCallbackOptions {
  /** The browser runs the callback after this long even when it never gets idle. */
  timeoutMs?: number;
  /** Where `requestIdleCallback` is missing, the emulated idle callback runs after this long. */
  emulatedDelayMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * One idle callback as an observable: emits the deadline once and completes. With
 * `target.requestIdleCallback` it asks the browser with `{ timeout: SCHEDULER_IDLE_TIMEOUT_MS }` (3 000 ms) and cancels
 * the request on unsubscribe; without it, it emulates one after {@link SCHEDULER_EMULATED_IDLE_DELAY_MS} (300 ms) on
 * `scheduler`, with a deadline that never runs out (the frame budget of the caller still applies).
 * Resubscribe for the next idle period. The target is a parameter (never a global).
 *
 * ```
 * no requestIdleCallback:  ^ 299ms (d|)
 * ```
 */
export function idleCallback$(
  target: IdleCallbackTarget,
  { timeoutMs = SCHEDULER_IDLE_TIMEOUT_MS, emulatedDelayMs = SCHEDULER_EMULATED_IDLE_DELAY_MS, scheduler = asyncScheduler }: IdleCallbackOptions = {},
): Observable<IdleDeadlineLike> {
  const request = target.requestIdleCallback;
  if (typeof request !== 'function') {
    return timer(emulatedDelayMs, scheduler).pipe(map((): IdleDeadlineLike => ({ didTimeout: false, timeRemaining: () => Infinity })));
  }
  // Hand-written: the edge to `requestIdleCallback`, cancelled on unsubscription.
  return new Observable<IdleDeadlineLike>((subscriber) => {
    let done = false;
    const handle = request.call(
      target,
      (deadline) => {
        done = true;
        subscriber.next(deadline);
        subscriber.complete();
      },
      { timeout: timeoutMs },
    );
    return () => {
      if (!done) target.cancelIdleCallback?.call(target, handle);
    };
  });
}
