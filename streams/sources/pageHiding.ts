import { filter, merge, type Observable } from 'rxjs';
import { eventsOf } from './eventsOf';

/**
 * The page being hidden, after which it may be discarded without notice: the window's `pagehide`, or the document
 * turning hidden (`visibilitychange` with `visibilityState` `hidden`). What the page's last chances listen to: the
 * services' start (`main.ts`) and the ping beacons' last ping (`tracking.ts`). The targets are parameters (never
 * globals); listeners are removed on unsubscribe.
 *
 * ```
 * window:   ----------pagehide--
 * document: --vc(hidden)--vc(visible)--
 * result:   --h-------------------h--
 * ```
 */
export function pageHiding$(win: EventTarget, doc: EventTarget & { readonly visibilityState: string }): Observable<Event> {
  return merge(
    eventsOf(win, ['pagehide'], (e) => e),
    eventsOf(doc, ['visibilitychange'], (e) => e).pipe(filter(() => doc.visibilityState === 'hidden')),
  );
}
