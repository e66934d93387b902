import {
  asyncScheduler,
  catchError,
  defaultIfEmpty,
  defer,
  distinctUntilChanged,
  EMPTY,
  expand,
  map,
  type Observable,
  of,
  type SchedulerLike,
  startWith,
  switchMap,
  take,
  throwError,
  timeout,
  timer,
} from 'rxjs';
import { requestTimedOut } from '../transport/apiErrors';
import { ANONYMOUS_ID_MAX_RETRIES, ANONYMOUS_ID_REFRESH_MS, ANONYMOUS_ID_RETRY_MS, ANONYMOUS_ID_TIMEOUT_MS } from '../timing';
import { parseAnonymousIdResponse } from './parseAnonymousIdResponse';

/**
 * Where the anonymous id stands:
 * - `none`: no consent (yet), or consent withdrawn: the caller forgets any id it holds, in memory and in storage;
 *   also the state while the first fetch after a grant is in flight;
 * - `ready`: the id, and when it was fetched (scheduler time);
 * - `missing`: the latest fetch failed; `retriesLeft` more attempts will follow, {@link ANONYMOUS_ID_RETRY_MS} apart.
 */
export type AnonymousIdState =
  { status: 'none' } | { status: 'ready'; id: string; fetchedAtMs: number } | { status: 'missing'; error: string; retriesLeft: number };

export interface AnonymousIdOptions {
  /** One GET of the ads host (with credentials); emits the response text. Subscribed once per attempt. */
  fetchId: () => Observable<string>;
  /** Refresh period after a success. */
  refreshMs?: number;
  /** Wait before retrying a failed fetch. */
  retryMs?: number;
  /** Attempts after the first failed one (so `maxRetries + 1` attempts in all). */
  maxRetries?: number;
  /** Per-attempt timeout; a timeout is a failure like any other. */
  timeoutMs?: number;
  scheduler?: SchedulerLike;
}

const NONE: AnonymousIdState = { status: 'none' };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The consent-gated anonymous id of spec §5, §8 and §9.
 *
 * - No consent (before the first consent value, or `false`) → `none`, nothing fetched.
 * - Consent `true` → fetch at once, with a {@link ANONYMOUS_ID_TIMEOUT_MS} timeout on the scheduler.
 * - Success → `ready`, then fetch again every {@link ANONYMOUS_ID_REFRESH_MS}.
 * - Failure (an error, the timeout: `Request timed out`, or an answer {@link parseAnonymousIdResponse} refuses:
 *   `Biscotti ID is missing from server`) → `missing`, then a retry {@link ANONYMOUS_ID_RETRY_MS} later, at most
 *   {@link ANONYMOUS_ID_MAX_RETRIES} times; after the last one it stays `missing` (`retriesLeft: 0`) with no timer left.
 *   A success after failures restores the full retry budget for the next failure.
 * - Consent withdrawn → the fetch in flight and every timer are unsubscribed and `none` is emitted at once.
 *   Consent granted again → a fresh fetch. Repeated consent values are ignored; consecutive `none`s are emitted once.
 *
 * ```
 * consent$: t------------f---t-
 * fetches:  -x  -x  -x       -a
 * result:   nm---m---m---n----r   (retryMs = 3 frames, maxRetries = 2; m = missing, r = ready)
 * ```
 */
export function anonymousId(
  consent$: Observable<boolean>,
  {
    fetchId,
    refreshMs = ANONYMOUS_ID_REFRESH_MS,
    retryMs = ANONYMOUS_ID_RETRY_MS,
    maxRetries = ANONYMOUS_ID_MAX_RETRIES,
    timeoutMs = ANONYMOUS_ID_TIMEOUT_MS,
    scheduler = asyncScheduler,
  }: AnonymousIdOptions,
): Observable<AnonymousIdState> {
  /** One attempt: exactly one state, never an error. */
  const attempt = (retriesLeft: number): Observable<AnonymousIdState> =>
    defer(() => fetchId()).pipe(
      timeout({ first: timeoutMs, with: () => throwError(requestTimedOut), scheduler }),
      take(1),
      // An answer-less completion is an answer without an id.
      defaultIfEmpty(''),
      map((text): AnonymousIdState => ({ status: 'ready', id: parseAnonymousIdResponse(text), fetchedAtMs: scheduler.now() })),
      catchError((error: unknown) => of<AnonymousIdState>({ status: 'missing', error: messageOf(error), retriesLeft })),
    );

  /** The next attempt a state calls for, after its wait; none once the retries are spent. */
  const next = (state: AnonymousIdState): Observable<AnonymousIdState> => {
    if (state.status === 'ready') return timer(refreshMs, scheduler).pipe(switchMap(() => attempt(maxRetries)));
    if (state.status === 'missing' && state.retriesLeft > 0) {
      return timer(retryMs, scheduler).pipe(switchMap(() => attempt(state.retriesLeft - 1)));
    }
    return EMPTY;
  };

  return consent$.pipe(
    distinctUntilChanged(),
    switchMap((consent) => (consent ? attempt(maxRetries).pipe(expand(next)) : of(NONE))),
    startWith(NONE),
    distinctUntilChanged((a, b) => a.status === 'none' && b.status === 'none'),
  );
}
