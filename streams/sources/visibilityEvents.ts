import { merge, type Observable } from 'rxjs';
import { eventsOf } from './eventsOf';
import { documentVisibility, type DocumentVisibility } from './documentVisibility';

/** The events that change visibility (spec §4), with the document's visibility read when each one arrived. */
export interface VisibilityObservation {
  type: 'visibilitychange' | 'focus' | 'blur';
  /** `document.visibilityState` read through the getter at the event, `undefined` when it cannot be read. */
  visibilityState: DocumentVisibility | undefined;
}

/** The two targets visibility listens on; plain `EventTarget`s in tests. */
export interface VisibilityTargets {
  /** Fires `visibilitychange`. */
  document: EventTarget;
  /** Fires `focus` and `blur` (the window's own, not its elements'). */
  window: EventTarget;
}

/**
 * Raw visibility events: `visibilitychange` on the document, `focus` and `blur` on the window, each paired with the
 * document visibility read through `readVisibility` at that moment. Feed the result to `visibilityState`.
 * The targets are parameters (never globals); listeners are removed on unsubscribe.
 *
 * ```
 * document: ---visibilitychange(hidden)-----------visibilitychange(visible)---
 * window:   -blur----------------------------focus----------------------------
 * result:   -b(v)-c(h)-------------------------f(h)-----c(v)-------------------
 * ```
 *
 * @param readVisibility usually `() => document.visibilityState`; absent, every observation says `undefined`.
 */
export function visibilityEvents$({ document, window }: VisibilityTargets, readVisibility?: () => unknown): Observable<VisibilityObservation> {
  const observe = (e: Event): VisibilityObservation => ({
    type: e.type as VisibilityObservation['type'],
    visibilityState: documentVisibility(readVisibility),
  });
  return merge(eventsOf(document, ['visibilitychange'], observe), eventsOf(window, ['focus', 'blur'], observe));
}
