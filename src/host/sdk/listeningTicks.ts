import { asyncScheduler, type Observable, type SchedulerLike, switchMap, takeUntil, timer } from 'rxjs';
import { HOST_LISTENING_INTERVAL_MS } from '../../../streams/timing';

export interface ListeningTicksOptions {
  /** How often `listening` is repeated until the embed answers. */
  intervalMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * When the host sends `listening` (host-protocol §3.1): at once on every start (the iframe was created, or it fired
 * `load`), then every {@link HOST_LISTENING_INTERVAL_MS} until the embed answers. A new start restarts the loop; an
 * answer stops it until the next start.
 *
 * ```
 * starts$:  s---------------s------
 * answers$: -----------a-----------
 * result:   t---t---t-------t---t--  (intervalMs = 4 frames; stops at the answer, restarts at the next start)
 * ```
 *
 * Emits the tick number since the latest start (0, 1, 2, …).
 */
export function listeningTicks(
  starts$: Observable<unknown>,
  answers$: Observable<unknown>,
  { intervalMs = HOST_LISTENING_INTERVAL_MS, scheduler = asyncScheduler }: ListeningTicksOptions = {},
): Observable<number> {
  return starts$.pipe(switchMap(() => timer(0, intervalMs, scheduler).pipe(takeUntil(answers$))));
}
