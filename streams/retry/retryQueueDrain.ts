import {
  asyncScheduler,
  catchError,
  concatMap,
  defer,
  distinctUntilChanged,
  EMPTY,
  endWith,
  exhaustMap,
  expand,
  filter,
  ignoreElements,
  interval,
  map,
  merge,
  mergeMap,
  NEVER,
  type Observable,
  type ObservableInput,
  of,
  type SchedulerLike,
  shareReplay,
  takeUntil,
  tap,
  timer,
  withLatestFrom,
} from 'rxjs';
import { RETRY_QUEUE_RETRY_DELAY_MS, RETRY_QUEUE_RETRY_WINDOW_MS, RETRY_QUEUE_THROTTLE_MS } from '../timing';
import type { FailedSendOutcome } from './createRetryQueue';
import { isPotentialError as defaultIsPotentialError } from './isPotentialError';
import { retryAfterMsOf as defaultRetryAfterMsOf } from './retryAfterMsOf';
import type { LogRequest, QueuedLogRequest } from './QueuedLogRequest';

/** The queue operations the drain needs (a `RetryQueue` fits; a marble test passes `cold()` fakes). */
export interface RetryQueueEffects {
  claimNext(now: number): ObservableInput<QueuedLogRequest | undefined>;
  markSent(request: QueuedLogRequest): ObservableInput<unknown>;
  markFailed(request: QueuedLogRequest, failure: { potential: boolean }): ObservableInput<FailedSendOutcome>;
}

/** What the drain did; for logs, tests and the page's diagnostics. */
export type RetryQueueEvent =
  | { type: 'sent'; request: QueuedLogRequest }
  /** `retryInMs`: the wait before the next send, the back-off step or the server's `Retry-After`, whichever is longer. */
  | { type: 'failed'; request: QueuedLogRequest; error: unknown; potential: boolean; outcome: FailedSendOutcome; retryInMs: number }
  | { type: 'storage-error'; error: unknown };

export interface RetryQueueDrainOptions {
  queue: RetryQueueEffects;
  /** Resends one request; errors on failure (an HTTP error carrying `status`, or a network error). */
  send: (request: LogRequest) => ObservableInput<unknown>;
  /** Network status; must emit the current value on subscription (e.g. `startWith(navigator.onLine)`). */
  online$: Observable<boolean>;
  /**
   * One emission per request stored by the log sink; a drain follows {@link retryDelayMs} later. The value may be the
   * error of the send that failed: a `Retry-After` it carries holds the drain back too.
   */
  stored$?: Observable<unknown>;
  /** Potential errors (server or network may recover) versus refusals; see `isPotentialError`. */
  isPotentialError?: (error: unknown) => boolean;
  /** The wait a failure asked for (the server's `Retry-After`), or `undefined`; see `retryAfterMsOf`. */
  retryAfterMsOf?: (error: unknown) => number | undefined;
  /** Delay between storing and resending, and the first back-off step after a failure. */
  retryDelayMs?: number;
  /** Every queued request is retried within this window: the sweep period, the back-off ceiling and the longest `Retry-After` honoured. */
  retryWindowMs?: number;
  /** Pause between two sends from the queue. */
  throttleMs?: number;
  scheduler?: SchedulerLike;
}

type Step = { event?: RetryQueueEvent; next: 'send-next' | 'back-off' | 'stop'; failures: number };

/**
 * The drain loop of the retry queue: resends stored log requests one at a time, while online, without hammering a
 * failing server. Between cycles the drain holds one thing, the time before which the server asked not to be sent to
 * (`Retry-After`); everything else is in the queue (IndexedDB).
 *
 * - **When**: on subscription and each time the network comes back (`online$` true), {@link retryDelayMs} after a
 *   request is stored (`stored$`; later stores within that delay join the same drain), and every
 *   {@link retryWindowMs} as a sweep. A trigger while a drain runs or backs off is ignored (`exhaustMap`).
 * - **A drain cycle**: `claimNext` (NEW → QUEUED, atomic) → `send` → `markSent` (deleted), then
 *   {@link throttleMs} later the next one, until nothing is due.
 * - **Failure**: `markFailed` (back to NEW with sendCount + 1, or dropped) and the cycle stops sending: at most one
 *   failed send per back-off step. It resumes after an exponential back-off, `retryDelayMs · 2^(n−1)` for the n-th
 *   consecutive failure, capped at `retryWindowMs` (5 s, 10 s, 20 s, 40 s, 80 s, 120 s, 120 s …); a success resets it.
 * - **Retry-After** (429/503): a failure carrying `retryAfterMs` (see `retryAfterMsOf`) makes the next send
 *   wait the longer of the back-off step and that delay, capped at `retryWindowMs` so a hostile header cannot stall
 *   the queue. The deadline holds for every send from the queue, across cycles (an offline spell, a sweep, a store)
 *   and also when it came from the log sink's own send (`stored$` emitting that error). A malformed header leaves
 *   the plain back-off; the request itself is kept like any potential error.
 * - **Offline**: no send starts while offline; a send in flight finishes (and is booked), then the cycle ends. The
 *   next online starts a fresh cycle (back-off reset: the network, not the server, was the problem).
 * - **Storage errors** end the cycle with a `storage-error` event; the next trigger tries again.
 *
 * ```
 * online$:  t--------------------
 * claimNext: a  b  c  (none)
 * result:   s--s--s--|cycle ends   (throttleMs = 3 frames, instant sends)
 * ```
 */
export function retryQueueDrain({
  queue,
  send,
  online$,
  stored$ = NEVER,
  isPotentialError = defaultIsPotentialError,
  retryAfterMsOf = defaultRetryAfterMsOf,
  retryDelayMs = RETRY_QUEUE_RETRY_DELAY_MS,
  retryWindowMs = RETRY_QUEUE_RETRY_WINDOW_MS,
  throttleMs = RETRY_QUEUE_THROTTLE_MS,
  scheduler = asyncScheduler,
}: RetryQueueDrainOptions): Observable<RetryQueueEvent> {
  return defer(() => {
    const online = online$.pipe(distinctUntilChanged(), shareReplay({ bufferSize: 1, refCount: true }));
    const offline$ = online.pipe(filter((isOnline) => !isOnline));
    /** No send from the queue starts before this time (scheduler ms): the server's latest `Retry-After`. */
    let notBefore = 0;
    /** Books the wait an error asks for, capped at the retry window (nothing when it asks for none). */
    const holdOff = (error: unknown): void => {
      const asked = retryAfterMsOf(error);
      if (asked !== undefined) notBefore = Math.max(notBefore, scheduler.now() + Math.min(asked, retryWindowMs));
    };
    /** What is left of the server's wait, from now. */
    const heldOffMs = () => Math.max(0, notBefore - scheduler.now());

    /**
     * One attempt: first the rest of the server's wait, whenever it was booked (by a failure of the queue's own or
     * by the log sink's, through `stored$`, even while a back-off or throttle timer ran), then one claim and, when
     * something was due, one send with its booking.
     */
    const attempt = (failures: number): Observable<Step> =>
      defer(() => {
        const waitMs = heldOffMs();
        return waitMs > 0 ? after(waitMs, failures) : claim(failures);
      });

    const claim = (failures: number): Observable<Step> =>
      defer(() => queue.claimNext(scheduler.now())).pipe(
        concatMap((request): Observable<Step> => (request === undefined ? of<Step>({ next: 'stop', failures }) : sendOne(request, failures))),
        catchError((error: unknown) => of<Step>({ event: { type: 'storage-error', error }, next: 'stop', failures })),
      );

    const sendOne = (request: QueuedLogRequest, failures: number): Observable<Step> =>
      defer(() => send({ url: request.url, options: request.options })).pipe(
        ignoreElements(),
        endWith<{ ok: true } | { ok: false; error: unknown }>({ ok: true }),
        catchError((error: unknown) => of({ ok: false as const, error })),
        concatMap((result) => {
          if (result.ok) {
            return defer(() => queue.markSent(request)).pipe(
              ignoreElements(),
              endWith<Step>({ event: { type: 'sent', request }, next: 'send-next', failures: 0 }),
            );
          }
          const potential = isPotentialError(result.error);
          holdOff(result.error);
          const retryInMs = Math.max(Math.min(retryDelayMs * 2 ** failures, retryWindowMs), heldOffMs());
          return defer(() => queue.markFailed(request, { potential })).pipe(
            map((outcome): Step => ({
              event: { type: 'failed', request, error: result.error, potential, outcome, retryInMs },
              next: 'back-off',
              failures: failures + 1,
            })),
          );
        }),
      );

    /** Waits `ms`, then attempts again (which waits out the server's wait too), unless the network goes away first. */
    const after = (ms: number, failures: number): Observable<Step> =>
      timer(ms, scheduler).pipe(
        takeUntil(offline$),
        concatMap(() => attempt(failures)),
      );

    const cycle$ = attempt(0).pipe(
      expand((step) =>
        step.next === 'send-next'
          ? after(throttleMs, 0)
          : step.next === 'back-off'
            ? after(Math.min(retryDelayMs * 2 ** (step.failures - 1), retryWindowMs), step.failures)
            : EMPTY,
      ),
      mergeMap((step) => (step.event ? of(step.event) : EMPTY)),
    );

    const triggers$ = merge(
      online.pipe(filter(Boolean)),
      stored$.pipe(
        tap(holdOff),
        exhaustMap(() => timer(retryDelayMs, scheduler)),
      ),
      interval(retryWindowMs, scheduler),
    ).pipe(
      withLatestFrom(online),
      filter(([, isOnline]) => isOnline),
    );

    return triggers$.pipe(exhaustMap(() => cycle$));
  });
}
