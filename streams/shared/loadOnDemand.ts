import { asyncScheduler, from, type ObservableInput, Observable, type SchedulerLike, type Subscription } from 'rxjs';

export interface LoadOnDemandOptions {
  /** After a failed load, demands are ignored for this long (ms): a pointer moving over the player is not a request per event. */
  retryAfterMs: number;
  /** Told of each failed load (the next demand after `retryAfterMs` tries again). */
  onFailure?: (error: unknown) => void;
  scheduler?: SchedulerLike;
}

/**
 * Loads something once, on demand: the first demand starts `load`; demands while it runs are ignored; a load that
 * fails is reported and started again by the first demand `retryAfterMs` after the failure or later; the first value
 * loaded is the result, which then completes (and stops listening to the demands). Time comes from `scheduler` only.
 *
 * ```
 * demand$:  -d-d---d--d-----d     load: first fails after 1 frame, second answers after 2; retryAfterMs 4
 * loads:    -1---------2--          (the demand @7 is within 4 of the failure @2: ignored)
 * result:   -------------(v|)
 * ```
 */
export function loadOnDemand<T>(
  demand$: Observable<unknown>,
  load: () => ObservableInput<T>,
  { retryAfterMs, onFailure, scheduler = asyncScheduler }: LoadOnDemandOptions,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    let loading: Subscription | undefined;
    let retryAt = -Infinity;
    const demands = demand$.subscribe(() => {
      if (loading || scheduler.now() < retryAt) return;
      loading = from(load()).subscribe({
        next: (value) => {
          subscriber.next(value);
          subscriber.complete();
        },
        error: (error: unknown) => {
          loading = undefined;
          retryAt = scheduler.now() + retryAfterMs;
          onFailure?.(error);
        },
      });
    });
    return () => {
      demands.unsubscribe();
      loading?.unsubscribe();
    };
  });
}
