import { distinctUntilChanged, EMPTY, filter, map, mergeMap, type Observable, of, skip } from 'rxjs';
import type { NavigationState } from '../navigation/navigationState';
import { serializeTrackingParams } from '../sampling/serializeTrackingParams';
import { visualElementAttachCache, type BoundedCache } from '../sampling/visualElementAttachCache';
import { playerEvents, type PlayerLogEvent } from './playerEvents';

/** One video load of the player: its id and the `rct` / `rctn` of its load options (spec §3), when it had any. */
export interface VideoLoad {
  videoId: string;
  referral?: { rct?: string; rctn?: string } | null;
}

/**
 * The application navigation state of spec §4 (`navigationState`, from the page's navigation starts) as log events:
 * one `navigationStateChange` per real change — `application_navigating` when a navigation starts (a load, a cue, a
 * playlist move), `none` {@link NAVIGATION_RESET_MS} (5 s) after the latest start. The first value (the state at
 * subscription, `none` at start-up) is not a change and is not logged.
 *
 * ```
 * states$: n---a----n----a-------n------   (navigationState of starts at 4, 14, 17; reset = 5 frames)
 * result:  ----a----n----a-------n------
 * ```
 */
export function navigationEvents(states$: Observable<NavigationState>): Observable<PlayerLogEvent> {
  return states$.pipe(
    distinctUntilChanged(),
    skip(1),
    map((state) => playerEvents.navigationStateChange({ state })),
  );
}

/**
 * A `videoLoad` event per navigation load, carrying its `rct` / `rctn` (spec §3) as tracking parameters serialised
 * and cut at {@link TRACKING_PARAMS_MAX_CHARS} (500, spec §9); a load without them has no `trackingParams`.
 */
export function videoLoadEvents(loads$: Observable<VideoLoad>, { maxTrackingChars }: { maxTrackingChars?: number } = {}): Observable<PlayerLogEvent> {
  return loads$.pipe(
    filter((load) => typeof load?.videoId === 'string'),
    map(({ videoId, referral }) => {
      const params = referral ? { rct: referral.rct, rctn: referral.rctn } : {};
      const trackingParams = serializeTrackingParams(params, maxTrackingChars);
      return playerEvents.videoLoad(trackingParams ? { videoId, trackingParams } : { videoId });
    }),
  );
}

/**
 * `visualElementAttached` the first time each video is shown in the page: the visual-element attach cache of spec §9
 * (at most {@link VISUAL_ELEMENT_ATTACH_CACHE_LIMIT}, 1000, least recently used forgotten) remembers what was
 * attached, so a video shown again (a playlist going round, a host loading it twice) is not attached again.
 */
export function visualElementEvents(
  videoIds$: Observable<string>,
  cache: BoundedCache<string, true> = visualElementAttachCache<string, true>(),
): Observable<PlayerLogEvent> {
  return videoIds$.pipe(
    mergeMap((videoId) => {
      if (typeof videoId !== 'string' || videoId === '') return EMPTY;
      const key = `video:${videoId}`;
      if (cache.get(key)) return EMPTY; // get: a video shown again becomes the most recently used entry
      cache.set(key, true);
      return of(playerEvents.visualElementAttached({ ve: 'video', videoId }));
    }),
  );
}
