import { asyncScheduler, concat, EMPTY, filter, interval, map, merge, type Observable, of, type SchedulerLike, startWith, take } from 'rxjs';
import { PLAYER_READINESS_POLL_MS } from '../timing';

/** Spec §4 player readiness. */
export type PlayerReadiness = 'loading' | 'ready';

export interface PlayerReadinessOptions {
  pollMs?: number;
  scheduler?: SchedulerLike;
  /**
   * Events that may have made the player ready (the element's `loadstart` or `error`, the model's change): each one checks at once,
   * so readiness does not wait for the next poll when an event already says so. The poll stays (spec §9).
   */
  changes$?: Observable<unknown>;
}

/**
 * Player readiness (spec §4): `loading` at once, then `ready` at the first check at which `isReady()` answers true;
 * it checks on subscription, then every {@link PLAYER_READINESS_POLL_MS} and on every `changes$` emission, and stops
 * polling once ready.
 *
 * ```
 * isReady:  false  false  false  true
 * result:   l-----------------------(r|)   (checks at 0, 50, 100, 150 ms; ready at 150 ms)
 * changes$: ---------------c                (an event at 120 ms: checked then, ready at 120 ms)
 * ```
 */
export function playerReadiness$(
  isReady: () => boolean,
  { pollMs = PLAYER_READINESS_POLL_MS, scheduler = asyncScheduler, changes$ = EMPTY }: PlayerReadinessOptions = {},
): Observable<PlayerReadiness> {
  return concat(
    of<PlayerReadiness>('loading'),
    merge(interval(pollMs, scheduler).pipe(startWith(-1)), changes$).pipe(
      filter(() => isReady()),
      take(1),
      map((): PlayerReadiness => 'ready'),
    ),
  );
}
