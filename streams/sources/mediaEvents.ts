import { Observable } from 'rxjs';
import { eventsOf } from './eventsOf';

/** The media element events the player listens to. */
export const MEDIA_EVENT_NAMES = [
  'loadstart',
  'loadedmetadata',
  'durationchange',
  'loadeddata',
  'canplay',
  'play',
  'playing',
  'pause',
  'waiting',
  'seeking',
  'seeked',
  'timeupdate',
  'progress',
  'ratechange',
  'volumechange',
  'ended',
  'error',
  'emptied',
  'stalled',
  'resize',
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
  // One listener for all the names (`eventsOf`); the event's own type is the name it was registered under.
  return eventsOf(element, names, (event): MediaEvent<T> => ({ type: event.type as MediaEventName, target: element }));
}

/** A seek: from the last time played to where the element is seeking. */
export interface SeekSpan {
  fromSec: number;
  toSec: number;
}

/**
 * The seeks of a media element: each `seeking` gives the span from the time of the `timeupdate` or `seeking` before it
 * (0 at first) to the element's new time. Used by logging and by the ping beacons, which both report where a viewer
 * jumped from and to. A `timeupdate` only notes the element's time in a plain listener: nothing is emitted or allocated
 * for it (it comes several times a second, and a seek is rare), so a consumer that wants the seeks alone does no
 * work per playback tick. The element is a parameter, so tests pass an `EventTarget` with a `currentTime`.
 *
 * ```
 * element: --t(1.0)--t(2.0)--p--s(8.0)--t(8.2)--s(3.0)--
 * result:  ---------------------{2→8}------------{8.2→3}
 * ```
 */
export function elementSeeks$(element: EventTarget & { readonly currentTime: number }): Observable<SeekSpan> {
  return new Observable<SeekSpan>((subscriber) => {
    let last = 0;
    const played = () => {
      last = element.currentTime;
    };
    const seeking = () => {
      const from = last;
      last = element.currentTime;
      subscriber.next({ fromSec: from, toSec: last });
    };
    element.addEventListener('timeupdate', played);
    element.addEventListener('seeking', seeking);
    return () => {
      element.removeEventListener('timeupdate', played);
      element.removeEventListener('seeking', seeking);
    };
  });
}
