import { useObservable, useObservableState } from 'observable-hooks';
import { of, switchMap } from 'rxjs';
import type { Player } from '../sdk/Player';
import type { ApiInfo, PlayerInfoCache, PlayerStateValue } from '../sdk/types';

/** The player's state (-1, 0, 1, 2, 3, 5), re-rendering on each change; `undefined` until known. */
export function usePlayerState(player: Player | undefined): PlayerStateValue | undefined {
  const state$ = useObservable((inputs$) => inputs$.pipe(switchMap(([p]) => (p ? p.state$ : of(undefined)))), [player]);
  return useObservableState(state$, undefined);
}

/** The player's info cache (`player.info$`), re-rendering on every delivery; `{}` until the embed answers. */
export function usePlayerInfo(player: Player | undefined): PlayerInfoCache {
  const info$ = useObservable((inputs$) => inputs$.pipe(switchMap(([p]) => (p ? p.info$ : of<PlayerInfoCache>({})))), [player]);
  return useObservableState(info$, {});
}

/** The player's modules and options (`player.apiInfo$`: captions `tracklist` and `track`); `{}` until delivered. */
export function usePlayerApiInfo(player: Player | undefined): ApiInfo {
  const apiInfo$ = useObservable((inputs$) => inputs$.pipe(switchMap(([p]) => (p ? p.apiInfo$ : of<ApiInfo>({})))), [player]);
  return useObservableState(apiInfo$, {});
}
