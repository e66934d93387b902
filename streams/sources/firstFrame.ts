import { eventsOf } from './eventsOf';
import { asyncScheduler, defer, first, fromEvent, map, merge, Observable, of, timer, type SchedulerLike } from 'rxjs';
import { PLAYER_BOOT_FIRST_FRAME_WAIT_MS } from '../timing';

/** What {@link firstFrameShown$} reads of the `<video>` the server wrote (a plain object with events in tests). */
export interface FirstFrameElement extends EventTarget {
  readonly readyState: number;
  readonly error: unknown;
  hasAttribute(name: string): boolean;
  /** Where the browser has it: called once the next frame is presented. */
  requestVideoFrameCallback?(callback: () => void): number;
  cancelVideoFrameCallback?(handle: number): void;
}

/**
 * When the page may start the player's work: the browser is starting the `<video>` the server wrote by itself
 * (its `autoplay`: a muted video that plays from its start), so the page waits until its first frame is presented
 * (`requestVideoFrameCallback`; `loadeddata` where the browser has none), or the element failed or was emptied, or
 * `maxMs` passed, before it takes the main thread for the player, the host channel and the rest: the media pipeline
 * and the first frame do not share it with the page's boot. An element the browser does not start by itself (cued,
 * with sound, a `start` to seek to), or one that has its data already, has nothing to wait for: at once.
 * Emits once, then completes.
 *
 * ```
 * autoplay, nothing yet:  ----f----   f = first frame presented (or loadeddata)
 * result:                 ----(x|)
 * no autoplay attribute:  (x|)
 * nothing within maxMs:   ---------- maxMs (x|)
 * ```
 */
export function firstFrameShown$(
  el: FirstFrameElement,
  { maxMs = PLAYER_BOOT_FIRST_FRAME_WAIT_MS, scheduler = asyncScheduler }: { maxMs?: number; scheduler?: SchedulerLike } = {},
): Observable<void> {
  return defer(() => {
    if (!el.hasAttribute('autoplay') || el.readyState >= 2 || el.error) return of(undefined);
    const presented$ =
      typeof el.requestVideoFrameCallback === 'function'
        ? new Observable<void>((subscriber) => {
            const handle = el.requestVideoFrameCallback!(() => subscriber.next());
            return () => el.cancelVideoFrameCallback?.(handle);
          })
        : fromEvent(el, 'loadeddata');
    return merge(
      presented$,
      eventsOf(el, ['error', 'emptied'], () => undefined),
      timer(maxMs, scheduler),
    ).pipe(
      first(),
      map(() => undefined),
    );
  });
}
