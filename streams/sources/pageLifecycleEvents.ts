import type { Observable } from 'rxjs';
import { eventsOf } from './eventsOf';

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
  return eventsOf(window, ['beforeunload', 'pagehide', 'pageshow'], (e): PageLifecycleEvent =>
    e.type === 'beforeunload' ? { type: 'beforeunload' } : { type: e.type === 'pagehide' ? 'pagehide' : 'pageshow', persisted: persisted(e) },
  );
}
