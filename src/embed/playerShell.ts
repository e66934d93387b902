import { defer, filter, first, fromEvent, map, of, race, switchMap, timer, type Observable } from 'rxjs';
import { idleCallback$, type IdleCallbackTarget } from '../../streams/scheduler/idleCallback';
import { CONTROLS_LATEST_LOAD_MS } from '../../streams/timing';
import type { PlayerReadiness } from '../../streams/player/playerReadiness';
import type { PlayerCommand } from '../../streams/player/types';
import { PlayerState, type PlayerStateValue } from '../../streams/player/playerState';

/**
 * The player's box as the page has it before any React runs (issue 15): `.vf-player`, its `<video>` and the `.vf-ui`
 * layer the controls render into. The server writes it with the HTML (`server/embedPage.ts` `renderPlayerShell`), the
 * configured video's source already on the element, so the media request starts while the page is parsed; the page's
 * script adopts the element in place. The element is never moved: a `<video>` taken out of the document pauses.
 */
export interface PlayerShell {
  readonly root: HTMLDivElement;
  readonly video: HTMLVideoElement;
  /** Where the controls render (`display: contents`: its children are laid out in `.vf-player`'s box). */
  readonly ui: HTMLDivElement;
}

/**
 * The shell the server wrote in `container`, or, for a page without one (a page from another build, the unit tests),
 * the same three elements built here, without a source: the player then gives the element its source itself.
 */
export function findPlayerShell(container: HTMLElement): PlayerShell {
  const root = container.querySelector<HTMLDivElement>('.vf-player');
  const video = root?.querySelector<HTMLVideoElement>('video.vf-video');
  const ui = root?.querySelector<HTMLDivElement>('.vf-ui');
  if (root && video && ui) return { root, video, ui };
  container.replaceChildren();
  return buildPlayerShell(container);
}

/** A new shell appended to `container` (its elements as `renderPlayerShell` writes them, without a source). */
export function buildPlayerShell(container: HTMLElement): PlayerShell {
  const doc = container.ownerDocument;
  const root = doc.createElement('div');
  root.className = 'vf-player';
  root.tabIndex = -1;
  const video = doc.createElement('video');
  video.className = 'vf-video';
  video.preload = 'none';
  const ui = doc.createElement('div');
  ui.className = 'vf-ui';
  root.append(video, ui);
  container.appendChild(root);
  return { root, video, ui };
}

/**
 * What the shell does on its own until the controls are there: a click on the video plays or pauses it (the viewer
 * may press before the controls' script arrives). Returns the function that hands this over to the controls.
 */
export function bindShellClicks(shell: PlayerShell, player: { state$: Observable<PlayerStateValue>; command(command: PlayerCommand): void }): () => void {
  let state: PlayerStateValue = PlayerState.UNSTARTED;
  const subscription = player.state$.subscribe((s) => (state = s));
  const onClick = () => player.command({ type: state === PlayerState.PLAYING || state === PlayerState.BUFFERING ? 'pause' : 'play' });
  shell.video.addEventListener('click', onClick);
  return () => {
    subscription.unsubscribe();
    shell.video.removeEventListener('click', onClick);
  };
}

/**
 * When the controls (and React) are brought in (issue 15): once the player is ready, the page has loaded (a module
 * fetched before the `load` event delays it, and hosts send `listening` on the frame's load) and the main thread is
 * idle, so they never compete with the first frame or the host's handshake; after `latestMs` in any case, so a slow
 * media server or a playlist still being fetched does not leave the viewer without controls.
 */
export function controlsDue$(readiness$: Observable<PlayerReadiness>, win: Window, latestMs = CONTROLS_LATEST_LOAD_MS): Observable<void> {
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
