import { distinctUntilChanged, map, type Observable, scan, startWith } from 'rxjs';
import { INITIAL_PLAYER_STATE_MACHINE, PlayerState, stepPlayerState, type PlayerStateInput, type PlayerStateValue } from './playerState';

/**
 * The player state (`-1` unstarted, `0` ended, `1` playing, `2` paused, `3` buffering, `5` cued) as a stream,
 * folded from the element's events and the player's own decisions by {@link stepPlayerState}. It starts at `-1` and
 * emits only changes.
 *
 * ```
 * inputs:  --l--p---P---w---P---a---   (l load, p play, P playing, w waiting, a pause)
 * result:  u----b---1---b---1---2---   (u -1, b 3)
 * ```
 */
export function playerStates(inputs$: Observable<PlayerStateInput>): Observable<PlayerStateValue> {
  return inputs$.pipe(
    scan(stepPlayerState, INITIAL_PLAYER_STATE_MACHINE),
    map((m) => m.state),
    startWith<PlayerStateValue>(PlayerState.UNSTARTED),
    distinctUntilChanged(),
  );
}
