import {
  asyncScheduler,
  catchError,
  exhaustMap,
  map,
  type Observable,
  of,
  scan,
  type SchedulerLike,
  startWith,
  take,
  takeWhile,
  throwError,
  timeout,
  timer,
} from 'rxjs';
import { CollectorApiError, isUnauthorized } from './collectorApi';
import { DASHBOARD_POLL_MS, DASHBOARD_REQUEST_TIMEOUT_MS } from './dashboardTiming';

/**
 * What a panel of the dashboard shows about one polled read:
 * - `loading` until the first answer;
 * - `ready` with the latest data and when it came;
 * - `failed` while the collector cannot be read (the last data, if any, stays for the reader, marked stale);
 * - `unauthorized` once the admin token is refused: polling stops, the page asks for a token.
 */
export type Loadable<T> =
  | { status: 'loading' }
  | { status: 'ready'; data: T; updatedAtMs: number }
  | { status: 'failed'; message: string; data?: T; updatedAtMs?: number }
  | { status: 'unauthorized'; message: string };

export const LOADING: Loadable<never> = { status: 'loading' };

export interface PollOptions {
  /** A new read starts this often (a read still under way when the next is due makes that one skip). */
  pollMs?: number;
  /** A read that takes longer fails (and the next poll tries again). */
  timeoutMs?: number;
  scheduler?: SchedulerLike;
}

type Outcome<T> = { ok: true; data: T; atMs: number } | { ok: false; error: unknown };

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The first answer of an admin API read, or a `network` failure when none comes within `timeoutMs`. */
export const answerWithin =
  <T>(timeoutMs: number, scheduler: SchedulerLike) =>
  (read$: Observable<T>): Observable<T> =>
    read$.pipe(
      take(1),
      timeout({
        first: timeoutMs,
        scheduler,
        with: () => throwError(() => new CollectorApiError('network', 0, `The collector did not answer within ${timeoutMs / 1000} s.`)),
      }),
    );

/**
 * Polls `read` (a cold observable of one answer) at once and every `pollMs`, as a {@link Loadable}. Reads never
 * overlap (`exhaustMap`); each failure is caught inside, so one failure never ends the polling — except a 401,
 * which ends it with `unauthorized` (asking again with the same token is pointless).
 *
 * ```
 * read:    (a|)  (#)   (b|)          pollMs = 3
 * result:  La----F--R--…              L loading, a ready a, F failed (data a), R ready b
 * ```
 */
export function pollLoadable<T>(
  read: () => Observable<T>,
  { pollMs = DASHBOARD_POLL_MS, timeoutMs = DASHBOARD_REQUEST_TIMEOUT_MS, scheduler = asyncScheduler }: PollOptions = {},
): Observable<Loadable<T>> {
  const attempt = (): Observable<Outcome<T>> =>
    read().pipe(
      answerWithin<T>(timeoutMs, scheduler),
      map((data): Outcome<T> => ({ ok: true, data, atMs: scheduler.now() })),
      catchError((error: unknown) => of<Outcome<T>>({ ok: false, error })),
    );
  return timer(0, pollMs, scheduler).pipe(
    exhaustMap(attempt),
    scan((previous: Loadable<T>, outcome: Outcome<T>): Loadable<T> => {
      if (outcome.ok) return { status: 'ready', data: outcome.data, updatedAtMs: outcome.atMs };
      if (isUnauthorized(outcome.error)) return { status: 'unauthorized', message: messageOf(outcome.error) };
      const kept = previous.status === 'ready' || previous.status === 'failed' ? { data: previous.data, updatedAtMs: previous.updatedAtMs } : {};
      return { status: 'failed', message: messageOf(outcome.error), ...kept };
    }, LOADING),
    startWith(LOADING),
    takeWhile((state) => state.status !== 'unauthorized', true),
  );
}
