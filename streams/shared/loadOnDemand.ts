import {
  asyncScheduler,
  catchError,
  concat,
  defer,
  from,
  map,
  merge,
  NEVER,
  type Observable,
  type ObservableInput,
  of,
  race,
  type SchedulerLike,
  switchMap,
  take,
  timer,
} from 'rxjs';

/** Where a load on demand stands: each attempt is `loading`, then `failed` or, once, `loaded` (which ends it). */
export type ChunkLoad<T> =
  | { readonly status: 'loading' }
  | { readonly status: 'failed'; readonly error: unknown; /** Consecutive failures so far, this one included. */ readonly failures: number }
  | { readonly status: 'loaded'; readonly value: T };

export interface LoadOnDemandOptions {
  /** The wait after the first failure (ms); each next failure doubles it, up to `retryMaxMs`. */
  retryAfterMs: number;
  /** The longest wait between two attempts (ms); `retryAfterMs` when absent (no growth). */
  retryMaxMs?: number;
  /** Demands that do not wait out a failure's backoff: each one during the wait starts the next attempt at once. */
  urgent$?: Observable<unknown>;
  scheduler?: SchedulerLike;
}

/** The wait after `failures` consecutive failures: `retryAfterMs`, doubled after each next failure, at most `retryMaxMs`. */
export function backoffMs(failures: number, retryAfterMs: number, retryMaxMs = retryAfterMs): number {
  return Math.min(retryAfterMs * 2 ** Math.max(failures - 1, 0), Math.max(retryMaxMs, retryAfterMs));
}

/**
 * Loads something once, on demand — the page's chunks follow this one rule. The first demand (of `demand$` or
 * `urgent$`) starts `load`. A demand stays in force until it is met: a failed attempt is tried again by itself after
 * its backoff (`backoffMs`), so a chunk that is gone for a while (the network, a deploy in between) is not asked for on
 * every pointer move, nor forgotten; an `urgent$` demand during the wait (the page being hidden) starts the next
 * attempt at once. Demands while an attempt runs change nothing. The first value loaded ends it (and stops listening
 * to the demands). Time comes from `scheduler` only.
 *
 * ```
 * demand$:  -d-d------     load: the first two fail after 1 frame, the third answers after 2; retryAfterMs 2, max 3
 * attempts: -1--2---3-     failure @2, wait 2 -> @4; failure @5, wait min(4, 3) = 3 -> @8
 * result:   -lf-lf--l-(v|)
 * ```
 */
export function loadOnDemand<T>(
  demand$: Observable<unknown>,
  load: () => ObservableInput<T>,
  { retryAfterMs, retryMaxMs, urgent$ = NEVER, scheduler = asyncScheduler }: LoadOnDemandOptions,
): Observable<ChunkLoad<T>> {
  const attempt = (failuresBefore: number): Observable<ChunkLoad<T>> =>
    concat(
      of({ status: 'loading' } as const),
      defer(() => from(load())).pipe(
        take(1),
        map((value): ChunkLoad<T> => ({ status: 'loaded', value })),
        catchError((error: unknown) => {
          const failures = failuresBefore + 1;
          const next$ = race(timer(backoffMs(failures, retryAfterMs, retryMaxMs), scheduler), urgent$).pipe(
            take(1),
            switchMap(() => attempt(failures)),
          );
          return concat(of({ status: 'failed', error, failures } as const), next$);
        }),
      ),
    );
  return merge(demand$, urgent$).pipe(
    take(1),
    switchMap(() => attempt(0)),
  );
}

/** The value a load ended with, once (`loadOnDemand`'s `loaded`). */
export function loadedValue<T>(load: ChunkLoad<T>): load is { readonly status: 'loaded'; readonly value: T } {
  return load.status === 'loaded';
}
