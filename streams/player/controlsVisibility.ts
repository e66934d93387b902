import { PLAYER_CONTROLS_AUTOHIDE_MS } from '../timing';
import { asyncScheduler, concat, distinctUntilChanged, EMPTY, map, merge, type Observable, of, type SchedulerLike, startWith, switchMap, timer } from 'rxjs';

export interface ControlsVisibilityOptions {
  /**
   * How long the controls stay up after the last pointer or key activity while playing. Not a spec constant (the
   * requirement only says "controls auto-hide while playing"): `PLAYER_CONTROLS_AUTOHIDE_MS` of `streams/timing.ts` by default.
   */
  hideMs?: number;
  /** A request to hide them now while playing (a single tap on the video while they are up); the next activity shows them. */
  hide$?: Observable<unknown>;
  scheduler?: SchedulerLike;
}

/**
 * Whether the control bar shows: always while not playing; while playing, from each activity (pointer move, key,
 * focus) until `hideMs` after the latest one (a new activity restarts the clock), and at the moment playback starts;
 * a `hide$` request hides them at once while playing.
 *
 * ```
 * playing:  f---t----------------f---
 * activity: ---------a---------------
 * result:   T---------- F-T-----F-T--  (hideMs = 3 frames: hides 3 frames after start, and after a)
 * ```
 */
export function controlsVisibility(
  activity$: Observable<unknown>,
  playing$: Observable<boolean>,
  { hideMs = PLAYER_CONTROLS_AUTOHIDE_MS, hide$ = EMPTY, scheduler = asyncScheduler }: ControlsVisibilityOptions = {},
): Observable<boolean> {
  return playing$.pipe(
    distinctUntilChanged(),
    switchMap((playing) =>
      playing
        ? merge(
            activity$.pipe(
              startWith(null),
              map(() => true),
            ),
            hide$.pipe(map(() => false)),
          ).pipe(switchMap((show) => (show ? concat(of(true), timer(hideMs, scheduler).pipe(map(() => false))) : of(false))))
        : of(true),
    ),
    distinctUntilChanged(),
  );
}
