import { fromEvent, map, merge, Observable } from 'rxjs';

/** The page lifecycle events this product listens to; never `unload` (it blocks the back/forward cache). */
export type PageLifecycleEvent = { type: 'beforeunload' } | { type: 'pagehide'; persisted: boolean } | { type: 'pageshow'; persisted: boolean };

/**
 * `beforeunload`, `pagehide` and `pageshow` of a window-like target, with `persisted` (the page enters / leaves
 * the back/forward cache) read from the event (`false` when the event has none). Feed the result to
 * `pageLifecycleState`. The target is a parameter (never a global); listeners are removed on unsubscribe.
 * Nothing here listens to `unload`: such a listener makes a page ineligible for the back/forward cache.
 *
 * ```
 * window:  ---beforeunload---pagehide(persisted)------pageshow(persisted)---
 * result:  ---b--------------h(true)------------------s(true)---------------
 * ```
 */
export function pageLifecycleEvents$(window: EventTarget): Observable<PageLifecycleEvent> {
  const persisted = (event: Event) => (event as Event & { persisted?: unknown }).persisted === true;
  return merge(
    fromEvent(window, 'beforeunload').pipe(map((): PageLifecycleEvent => ({ type: 'beforeunload' }))),
    fromEvent(window, 'pagehide').pipe(map((e): PageLifecycleEvent => ({ type: 'pagehide', persisted: persisted(e as Event) }))),
    fromEvent(window, 'pageshow').pipe(map((e): PageLifecycleEvent => ({ type: 'pageshow', persisted: persisted(e as Event) }))),
  );
}
