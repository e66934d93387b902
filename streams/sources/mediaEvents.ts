import { fromEvent, map, merge, Observable } from 'rxjs';

/** The media element events the player listens to (issue 3 §1). */
export const MEDIA_EVENT_NAMES = [
  'loadstart', 'loadedmetadata', 'durationchange', 'loadeddata', 'canplay', 'play', 'playing', 'pause', 'waiting',
  'seeking', 'seeked', 'timeupdate', 'progress', 'ratechange', 'volumechange', 'ended', 'error', 'emptied', 'stalled',
] as const;
export type MediaEventName = (typeof MEDIA_EVENT_NAMES)[number];

/** One media event with the element it came from. */
export interface MediaEvent<T extends EventTarget = EventTarget> {
  type: MediaEventName;
  target: T;
}

/**
 * Every event of a media element as one observable, in the order the element fires them.
 * The element is a parameter (never a global), so tests pass a plain `EventTarget`.
 *
 * ```
 * element: --play--playing--timeupdate--pause--
 * result:  --p-----P--------t-----------a------
 * ```
 */
export function mediaEvents$<T extends EventTarget>(element: T, names: readonly MediaEventName[] = MEDIA_EVENT_NAMES): Observable<MediaEvent<T>> {
  return merge(...names.map((type) => fromEvent(element, type).pipe(map((): MediaEvent<T> => ({ type, target: element })))));
}
