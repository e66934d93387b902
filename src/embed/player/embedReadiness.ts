import { distinctUntilChanged, map, merge, shareReplay, startWith, switchMap, take, type BehaviorSubject, type Observable } from 'rxjs';
import type { PlayerModel } from '../../../streams/player/playerModel';
import { playerReadiness$, type PlayerReadiness } from '../../../streams/player/playerReadiness';
import { eventsOf } from '../../../streams/sources/eventsOf';

/**
 * The player's readiness (spec §4), hot, replaying the latest: ready once the player has its video — the first
 * mounted element has the chosen rendition as its source — or knows it cannot play it. It then takes every command (a
 * seek before the metadata waits for it in the model) and answers every getter (the duration from the response until
 * the element knows it), as the reference embed is ready before its media has loaded: waiting for the metadata would
 * put the media pipeline's start-up before `onReady`.
 */
export function embedReadiness$(mounted$: Observable<HTMLVideoElement>, model$: BehaviorSubject<PlayerModel>): Observable<PlayerReadiness> {
  return mounted$.pipe(
    take(1),
    switchMap((el) =>
      playerReadiness$(() => (model$.value.quality !== '' && el.hasAttribute('src')) || el.error !== null || model$.value.error !== null, {
        // An event that may have made it ready checks at once; the poll stays as the net.
        changes$: merge(
          eventsOf(el, ['loadstart', 'error'], () => undefined),
          model$.pipe(
            map((m) => `${m.quality}|${m.error?.internal ?? ''}`),
            distinctUntilChanged(),
          ),
        ),
      }),
    ),
    startWith<PlayerReadiness>('loading'),
    distinctUntilChanged(),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
}
