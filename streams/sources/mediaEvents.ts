import { fromEvent, map, merge, Observable } from 'rxjs';

/** The media element events the player listens to (issue 3 §1). */
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

/** A seek: from the last time played to where the element is seeking. */
export interface SeekSpan {
  fromSec: number;
  toSec: number;
}

/**
 * The seeks in a stream of `timeupdate` and `seeking` events (other events are ignored): each `seeking` gives the span
 * from the time of the event before it (0 at first) to the element's new time. Used by logging and by the ping
 * beacons, which both report where a viewer jumped from and to.
 *
 * ```
 * events: --t(1.0)--t(2.0)--s(8.0)--t(8.2)--
 * result: ------------------{2→8}-----------
 * ```
 */
export function seekSpans(events$: Observable<{ type: string; target: { currentTime: number } }>): Observable<SeekSpan> {
  // One fold with its own memory: nothing is allocated for a `timeupdate`, which comes several times a second (issue 15).
  return new Observable<SeekSpan>((subscriber) => {
    let last = 0;
    return events$.subscribe({
      next: (e) => {
        if (e.type !== 'timeupdate' && e.type !== 'seeking') return;
        const time = e.target.currentTime;
        const from = last;
        last = time;
        if (e.type === 'seeking') subscriber.next({ fromSec: from, toSec: time });
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
  });
}
