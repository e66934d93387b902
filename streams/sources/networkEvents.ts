import type { Observable } from 'rxjs';
import { eventsOf } from './eventsOf';

/** What the browser says about the network: its `online` / `offline` events. */
export type BrowserNetworkEvent = 'online' | 'offline';

/**
 * The browser's `online` and `offline` events of a window-like target, as their names. Feed the result to
 * `networkStatus`, which confirms `online` with a probe. The target is a parameter (never a global); listeners are
 * removed on unsubscribe.
 *
 * ```
 * window:  ---offline------online---
 * result:  ---f------------n--------
 * ```
 */
export function networkEvents$(window: EventTarget): Observable<BrowserNetworkEvent> {
  return eventsOf(window, ['online', 'offline'], (e): BrowserNetworkEvent => (e.type === 'online' ? 'online' : 'offline'));
}
