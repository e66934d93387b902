import { asyncScheduler, concat, filter, interval, map, Observable, of, SchedulerLike, startWith, take } from 'rxjs';
import { PLAYER_READINESS_POLL_MS } from '../timing';

/** Spec §4 player readiness. */
export type PlayerReadiness = 'loading' | 'ready';

export interface PlayerReadinessOptions {
  pollMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * Player readiness (spec §4): `loading` at once, then `ready` at the first check at which `isReady()` answers true;
 * it checks on subscription and then every {@link PLAYER_READINESS_POLL_MS}, and stops polling once ready.
 *
 * ```
 * isReady:  false  false  false  true
 * result:   l-----------------------(r|)   (checks at 0, 50, 100, 150 ms; ready at 150 ms)
 * ```
 */
export function playerReadiness$(
  isReady: () => boolean,
  { pollMs = PLAYER_READINESS_POLL_MS, scheduler = asyncScheduler }: PlayerReadinessOptions = {},
): Observable<PlayerReadiness> {
  return concat(
    of<PlayerReadiness>('loading'),
    interval(pollMs, scheduler).pipe(
      startWith(-1),
      filter(() => isReady()),
      take(1),
      map((): PlayerReadiness => 'ready'),
    ),
  );
}
