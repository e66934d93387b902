import { defer, filter, first, fromEvent, map, merge, of, race, switchMap, timer, type Observable } from 'rxjs';
import type { PlayerReadiness } from '../../../streams/player/playerReadiness';
import { idleCallback$, type IdleCallbackTarget } from '../../../streams/scheduler/idleCallback';
import { eventsOf } from '../../../streams/sources/eventsOf';
import { SERVICES_LATEST_LOAD_MS } from '../../../streams/timing';

/** What says the viewer reaches for the player: a pointer over or on it, a touch, a key, focus coming into the frame. */
const REACH_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

/**
 * The viewer reaching for the player (the controls load then, if they have not yet): each such event in the
 * frame's document (seen in the capture phase, before anything handles it), or the frame's window taking focus.
 */
export function viewerReach$(win: Window): Observable<Event> {
  const doc = win.document;
  return merge(
    eventsOf(doc, REACH_EVENTS, (e) => e, { capture: true, passive: true }),
    eventsOf(win, ['focus'], (e) => e),
  );
}

/**
 * When the services are brought in, and from when the controls (and React) may be if the video needs them (the
 * viewer reaching for the player brings both at once: `loadChunks.ts`): once the player is ready, the page has loaded (a
 * module fetched before the `load` event delays it, and hosts send `listening` on the frame's load) and the main
 * thread is idle, so they never compete with the first frame or the host's handshake; after `latestMs` in any case, so
 * a slow media server or a playlist still being fetched does not leave the viewer without controls.
 */
export function servicesDue$(readiness$: Observable<PlayerReadiness>, win: Window, latestMs = SERVICES_LATEST_LOAD_MS): Observable<void> {
  const loaded$ = defer(() => (win.document.readyState === 'complete' ? of(undefined) : fromEvent(win, 'load').pipe(first())));
  const settled$ = readiness$.pipe(
    filter((r) => r === 'ready'),
    first(),
    switchMap(() => loaded$),
    switchMap(() => idleCallback$(win as unknown as IdleCallbackTarget).pipe(first())),
  );
  return race(settled$, timer(latestMs)).pipe(
    first(),
    map(() => undefined),
  );
}
