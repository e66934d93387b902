import { catchError, filter, type Observable, retry, type SchedulerLike, type Subject, switchMap, take, throwError, timer } from 'rxjs';
import type { TrackEvent, TrackPorts } from './trackLoader';

/**
 * The `SourceBuffer` refused what was appended (the bytes are not media it decodes): fetching them again would not
 * help, so the loader fails with it instead of retrying.
 */
export class AppendFailure extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'AppendFailure';
  }
}

/**
 * The ports with every append's failure made an `AppendFailure`, except a full buffer (`QuotaExceededError`): the
 * playhead moves on and frees room, so that append is tried again like a failed request.
 */
export const failingAppends = (ports: TrackPorts): TrackPorts => ({
  ...ports,
  append: (data) =>
    ports
      .append(data)
      .pipe(
        catchError((e: unknown) =>
          throwError(() => (e instanceof AppendFailure || (e as { name?: unknown } | null)?.name === 'QuotaExceededError' ? e : new AppendFailure(e))),
        ),
      ),
});

/**
 * Retries a failed request after a doubling delay, once the network is up, saying each retry on `retries$`; an
 * `AppendFailure` is not retried.
 */
export function retrying(
  retries$: Subject<TrackEvent>,
  online$: Observable<boolean>,
  { retryBaseMs, retryMaxMs, scheduler }: { retryBaseMs: number; retryMaxMs: number; scheduler?: SchedulerLike },
) {
  return <T>(work: Observable<T>, url: string): Observable<T> =>
    work.pipe(
      retry({
        delay: (error: unknown, attempt: number) => {
          if (error instanceof AppendFailure) return throwError(() => error);
          retries$.next({ type: 'retry', url, attempt, error });
          const wait = Math.min(retryBaseMs * 2 ** (attempt - 1), retryMaxMs);
          return online$.pipe(
            filter(Boolean),
            take(1),
            switchMap(() => timer(wait, scheduler)),
          );
        },
      }),
    );
}
