import { combineLatest, filter, skipWhile, Subscription, type Observable } from 'rxjs';
import type { PlayerReadiness } from '../../../streams/player/playerReadiness';
import type { PlayerCommand } from '../../../streams/player/types';
import { PlayerState, type PlayerStateValue } from '../../../streams/player/playerState';
import { parseBooleanVar, type PlayerConfig } from '../../../streams/config/playerConfig';
import { pageTitle } from '../../../streams/player/pageTitle';
import type { VideoData } from './EmbedPlayer';
import { numberText } from '../../../streams/shared/numberText';
import { SHELL_TEXT, type ShellText } from '../../../streams/i18n/shellText';

/**
 * The player's box as the page has it before any React runs: `.vf-player`, its `<video>` and the `.vf-ui`
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
 * What the shell does on its own until the controls are there (the viewer may press before the controls' script
 * arrives): a click on the video plays or pauses it, and so do `k` and Space on the focused player (a keyboard viewer
 * tabbing into the frame lands on it; the controls' own shortcuts take over with them). Returns the function that
 * hands this over to the controls.
 */
export function bindShellClicks(shell: PlayerShell, player: { state$: Observable<PlayerStateValue>; command(command: PlayerCommand): void }): () => void {
  let state: PlayerStateValue = PlayerState.UNSTARTED;
  const subscription = player.state$.subscribe((s) => (state = s));
  const toggle = () => player.command({ type: state === PlayerState.PLAYING || state === PlayerState.BUFFERING ? 'pause' : 'play' });
  const onKey = (event: KeyboardEvent) => {
    if (event.target !== shell.root || event.ctrlKey || event.altKey || event.metaKey || event.repeat) return;
    if (event.key !== 'k' && event.key !== 'K' && event.key !== ' ') return;
    event.preventDefault(); // Space would scroll the host's page
    toggle();
  };
  shell.video.addEventListener('click', toggle);
  shell.root.addEventListener('keydown', onKey);
  return () => {
    subscription.unsubscribe();
    shell.video.removeEventListener('click', toggle);
    shell.root.removeEventListener('keydown', onKey);
  };
}

/**
 * What the shell shows of the player without the controls (they may never load for a video playing on its
 * own): the frame's size, id, theme and player style from the configuration; the player's state and readiness as data
 * attributes (for the stylesheet, which draws the spinner of a buffering video until the controls are there, and for
 * the tests); the video's poster and accessible name from the video data (`text.videoPlayer` while it has no title); the document's title (spec §2: set on ready
 * and on every change of the video data). Returns the subscription that keeps them current.
 */
export function bindShellState(
  shell: PlayerShell,
  player: {
    config: PlayerConfig;
    state$: Observable<PlayerStateValue>;
    readiness$: Observable<PlayerReadiness>;
    videoData$: Observable<VideoData | null>;
  },
  text: ShellText = SHELL_TEXT.en,
): Subscription {
  const { root, video } = shell;
  const { attrs, args } = player.config;
  if (attrs.id) root.id = attrs.id;
  root.style.width = attrs.width;
  root.style.height = attrs.height;
  root.dataset.theme = args.theme;
  root.dataset.playerStyle = args.ps ?? '';
  video.playsInline = parseBooleanVar(args.playerVars.playsinline) !== false;
  const subscription = new Subscription();
  subscription.add(player.state$.subscribe((state) => (root.dataset.state = numberText(state))));
  subscription.add(player.readiness$.subscribe((readiness) => (root.dataset.readiness = readiness)));
  subscription.add(
    // Until the first video data arrives the element keeps what the server wrote; after it, no data (a new video
    // loading, a failure, a cleared video) clears the poster and the name.
    player.videoData$.pipe(skipWhile((data) => data === null)).subscribe((data) => {
      if (data?.posterUrl) video.poster = data.posterUrl;
      else video.removeAttribute('poster');
      video.setAttribute('aria-label', data?.title || text.videoPlayer);
    }),
  );
  const ready$ = player.readiness$.pipe(filter((r) => r === 'ready'));
  subscription.add(combineLatest([ready$, player.videoData$]).subscribe(([, data]) => (root.ownerDocument.title = pageTitle(data?.title))));
  return subscription;
}
