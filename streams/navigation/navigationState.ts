import { asyncScheduler, concat, distinctUntilChanged, map, type Observable, of, type SchedulerLike, startWith, switchMap, timer } from 'rxjs';
import { NAVIGATION_RESET_MS } from '../timing';

/** The two application navigation states of spec §4. */
export type NavigationState = 'none' | 'application_navigating';

export interface NavigationStateOptions {
  /** How long after the latest navigation start the state falls back to `none`. */
  resetMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * Application navigation state (spec §4): `none` until a navigation starts, `application_navigating` from then
 * on, and `none` again {@link NAVIGATION_RESET_MS} after the latest start. A start while navigating restarts the
 * clock and emits nothing (one value per real change).
 *
 * ```
 * starts$: ----s---------s--s-----------
 * result:  n---a----n----a-------n------  (resetMs = 5 frames)
 * ```
 *
 * @param navigationStarts$ one emission per navigation start; its values are ignored.
 */
export function navigationState(
  navigationStarts$: Observable<unknown>,
  { resetMs = NAVIGATION_RESET_MS, scheduler = asyncScheduler }: NavigationStateOptions = {},
): Observable<NavigationState> {
  return navigationStarts$.pipe(
    // Each start cancels the previous reset timer: only the latest start counts.
    switchMap(() => concat(of<NavigationState>('application_navigating'), timer(resetMs, scheduler).pipe(map((): NavigationState => 'none')))),
    startWith<NavigationState>('none'),
    distinctUntilChanged(),
  );
}
