import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useObservable, useObservableCallback, useObservableEagerState, useObservableState, useSubscription } from 'observable-hooks';
import { beyondTime, withPlaybackPhase } from '../../../streams/player/viewInfo';
import { fromEvent, map, startWith } from 'rxjs';
import { parseBooleanVar } from '../../../streams/config/playerConfig';
import { PlayerState } from '../../../streams/player/playerState';
import { controlsVisibility } from '../../../streams/player/controlsVisibility';
import { shortcutCommand } from '../../../streams/player/shortcutCommand';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import { Captions } from './Captions';
import { ControlBar } from './ControlBar';
import { PlaylistPanel } from './PlaylistPanel';
import { SettingsMenu } from './SettingsMenu';
import { ShortcutList } from './ShortcutList';
import { NextIcon, ReplayIcon } from './icons';
import { AccountControl } from './AccountControl';
import type { Identity } from '../services/identity';
import { ChannelBar } from './ChannelBar';
import { FeedbackControls } from './FeedbackControls';
import { TopActions } from './TopActions';
import type { ViewerActions } from './viewerActions';
import type { PlayerShell } from '../page/playerShell';

const BIG_PLAY_PATH =
  'M66.5 7.7a8.5 8.5 0 0 0-6-6C55.2.3 34 .3 34 .3S12.8.3 7.5 1.7a8.5 8.5 0 0 0-6 6C.2 13 .2 24 .2 24s0 11 1.3 16.3a8.5 8.5 0 0 0 6 6C12.8 47.7 34 47.7 34 47.7s21.2 0 26.5-1.4a8.5 8.5 0 0 0 6-6C67.8 35 67.8 24 67.8 24s0-11-1.3-16.3z';

/** Keys a focused form control or button keeps for itself. */
const ownsKey = (target: EventTarget | null, key: string) => {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') return true;
  if (el.tagName === 'BUTTON' && (key === ' ' || key === 'Enter')) return true;
  return (el.getAttribute('role') ?? '').startsWith('menuitem');
};

/**
 * Issue 17: keyboard focus stays in the player. When the focused element leaves the page (the big play button once
 * playback starts, the end screen's Replay, a closed menu) the browser drops focus to `<body>`, where the shortcuts do
 * not reach; the player element (tabindex -1) takes it back. Only while the frame has focus: a viewer who moved on to the
 * host page is left alone. Programmatic focus keeps the browser's :focus-visible choice, so a mouse user sees no ring.
 */
function useFocusKeeper(el: HTMLDivElement) {
  useEffect(() => {
    const reclaim = () => {
      const active = document.activeElement;
      if ((active === null || active === document.body) && document.hasFocus() && el.isConnected) el.focus({ preventScroll: true });
    };
    // A removed element gets no blur event in Chromium: watch the player's tree for removals instead.
    const observer = new MutationObserver(reclaim);
    observer.observe(el, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
    };
  }, [el]);
}

/** What the controls add to the shell's root (not a React element): its class, and whether they are shown. */
function applyRootState(el: HTMLElement, className: string, controlsVisible: string) {
  el.className = className;
  el.dataset.controlsVisible = controlsVisible;
}

/** Native listeners on a shell element (not a React element) for the component's life, each calling the latest handler. */
function useListeners(target: EventTarget, listeners: Record<string, (e: Event) => void>) {
  const latest = useRef(listeners);
  useLayoutEffect(() => {
    latest.current = listeners;
  });
  const types = Object.keys(listeners).join(' ');
  useEffect(() => {
    const bound = types.split(' ').map((type) => [type, (e: Event) => latest.current[type]?.(e)] as const);
    for (const [type, listener] of bound) target.addEventListener(type, listener);
    return () => {
      for (const [type, listener] of bound) target.removeEventListener(type, listener);
    };
  }, [target, types]);
}

/**
 * The embedded player page's controls, rendered into the shell's `.vf-ui` layer around the `<video>` the player
 * already plays (issue 15: the server wrote both; see `playerShell.ts`, whose `bindShellState` keeps the shell's own
 * attributes and the document's title). The shell's root gets its class and listeners here, imperatively: it is not
 * React's element. The controls load when the viewer reaches for the player or the video needs more than itself
 * (`main.ts`). Captions, title bar, big play button on a cued video, buffering spinner,
 * control bar (auto-hiding while playing; none with `controls=0`), settings and playlist panels, end screen, error
 * screen and the autoplay-blocked notice. It reads the player only through observable hooks and sends commands.
 */
export function EmbedApp({
  player,
  shell,
  identity,
  actions,
  onMounted,
}: {
  player: EmbedPlayer;
  shell: PlayerShell;
  identity?: Identity;
  actions?: ViewerActions;
  /** Called once, after the listeners on the shell are bound (the shell's own click handling then goes). */
  onMounted?: () => void;
}) {
  const { config } = player;
  const vars = config.args.playerVars;
  // Everything but the playback time: the player re-renders when that changes, not on every `timeupdate` (issue 15).
  // With it, the phase of the playback: a video looping by itself counts as playing from its end to its new start
  // (`playbackPhase`): no end screen, title or controls for a moment at each loop (issue 15).
  const view$ = useObservable(() => player.info$.pipe(beyondTime(), withPlaybackPhase()));
  const { info, phase } = useObservableEagerState(view$);
  // The latest time, read on demand (Share at the current time) without rendering on each tick.
  const latestInfo = useRef(info);
  useSubscription(player.info$, (i) => {
    latestInfo.current = i;
  });
  const videoData = useObservableEagerState(player.videoData$);
  const error = useObservableEagerState(player.error$);
  const autoplayBlocked = useObservableEagerState(player.autoplayBlocked$);
  const captionCues = useObservableEagerState(player.captionCues$);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [playlistOpen, setPlaylistOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const beforeShortcuts = useRef<HTMLElement | null>(null);
  // A share panel, sign-in invitation or bell menu keeps the overlays up while it is open (one flag per owner, so one
  // closing does not clear the other's).
  const [channelOverlay, setChannelOverlay] = useState(false);
  const [actionsOverlay, setActionsOverlay] = useState(false);
  const overlayOpen = channelOverlay || actionsOverlay;
  const rootElement = shell.root;
  useFocusKeeper(rootElement);

  const state = info.playerState;
  const playing = phase !== 'other';

  // Controls auto-hide while playing; any pointer or key activity brings them back.
  const [onActivity, activity$] = useObservableCallback<unknown>((e$) => e$);
  const visible$ = useObservable((inputs$) => controlsVisibility(activity$, inputs$.pipe(map(([p]) => p))), [playing || false]);
  const controlsVisible = useObservableState(visible$, true) || settingsOpen || playlistOpen || overlayOpen;
  // Keyboard focus inside the auto-hidden control bar shows it (`:focus-within`): its time must move then too.
  const [chromeFocus, setChromeFocus] = useState(false);

  const fullscreen$ = useObservable(() =>
    fromEvent(document, 'fullscreenchange').pipe(
      map(() => document.fullscreenElement !== null),
      startWith(document.fullscreenElement != null),
    ),
  );
  const fullscreen = useObservableState(fullscreen$, false);

  const controls = parseBooleanVar(vars.controls) !== false;
  const keyboard = parseBooleanVar(vars.disablekb) !== true;
  const allowFullscreen = parseBooleanVar(vars.fs) !== false;
  const showBigPlay = !error && (state === PlayerState.CUED || autoplayBlocked) && state !== PlayerState.PLAYING;
  const ended = state === PlayerState.ENDED && !error && phase !== 'looping';
  const playlist = info.playlist;
  const hasNext = playlist !== null && (info.playlistIndex < playlist.length - 1 || info.loop);

  // One panel at a time: opening the settings menu closes the playlist and the other way round (both sit top right).
  const openSettings = (open: boolean) => {
    setSettingsOpen(open);
    if (open) setPlaylistOpen(false);
  };
  const openPlaylist = (open: boolean) => {
    setPlaylistOpen(open);
    if (open) setSettingsOpen(false);
  };

  const toggleFullscreen = () => {
    const el = rootElement;
    if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
    else void el.requestFullscreen?.().catch(() => undefined);
  };

  // The settings menu closes (Escape, a choice) with focus back on the Settings button (WAI-ARIA menu button).
  const closeSettings = () => {
    setSettingsOpen(false);
    rootElement.querySelector<HTMLElement>('.vf-settings')?.focus();
  };
  const openShortcuts = () => {
    beforeShortcuts.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setSettingsOpen(false);
    setShortcutsOpen(true);
  };
  const closeShortcuts = () => {
    setShortcutsOpen(false);
    const back = beforeShortcuts.current;
    (back && back.isConnected && back !== document.body ? back : rootElement).focus({ preventScroll: true });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    onActivity(e);
    if (!keyboard || ownsKey(e.target, e.key)) return;
    if (e.key === 'Escape') {
      setSettingsOpen(false);
      setPlaylistOpen(false);
      return;
    }
    // The latest time (the view's `info` keeps the time of its last non-time change): ←/→/j/l seek from now.
    const result = shortcutCommand(e, latestInfo.current);
    if (!result) return;
    e.preventDefault();
    if ('view' in result) {
      if (result.view === 'shortcuts') openShortcuts();
      else if (allowFullscreen) toggleFullscreen();
    } else player.command(result.command);
  };

  // The shell's root: what the controls add to it (its size, id, theme, the player's state and the document's title are
  // the shell's own: `bindShellState` in `playerShell.ts`), and its listeners.
  const rootClass = playlistOpen && playlist ? 'vf-player vf-playlist-open' : 'vf-player';
  const controlsShown = controls && controlsVisible ? 'true' : 'false';
  useLayoutEffect(() => applyRootState(rootElement, rootClass, controlsShown), [rootElement, rootClass, controlsShown]);
  useListeners(rootElement, { pointermove: onActivity, pointerdown: onActivity, keydown: (e) => onKeyDown(e as KeyboardEvent) });

  // The shell's video: a click plays or pauses it (a double click: full screen).
  const video = shell.video;
  useListeners(video, {
    click: () => !error && player.command({ type: playing ? 'pause' : 'play' }),
    dblclick: () => allowFullscreen && toggleFullscreen(),
  });
  // After the listeners above (effects run in order): the shell's own click handling can go now.
  const mounted = useRef(onMounted);
  useEffect(() => mounted.current?.(), []);

  return (
    <>
      {captionCues.length > 0 && !error && <Captions cues={captionCues} settings={info.subtitlesUserSettings} raised={controls && controlsVisible} />}
      {videoData && !error && (!playing || (controls && controlsVisible)) && (
        <div className="vf-titlebar">
          <span className="vf-title">{videoData.title}</span>
          {actions && identity ? (
            <ChannelBar actions={actions} identity={identity} author={videoData.author} onOverlayChange={setChannelOverlay} />
          ) : (
            <span className="vf-author">{videoData.author}</span>
          )}
        </div>
      )}
      {identity && !error && (!playing || (controls && controlsVisible)) && (
        <div className="vf-topright">
          {actions && videoData && (
            <TopActions
              actions={actions}
              identity={identity}
              win={window}
              videoId={videoData.videoId}
              playlistId={info.playlistId ?? undefined}
              currentTime={() => latestInfo.current.currentTime}
              onOverlayChange={setActionsOverlay}
            />
          )}
          <AccountControl identity={identity} />
        </div>
      )}
      {state === PlayerState.BUFFERING && !error && (
        <div className="vf-spinner" role="status" aria-label="Loading">
          <span className="vf-spinner-ring" />
        </div>
      )}
      {showBigPlay && (
        <button type="button" className="vf-bigplay" aria-label="Play" onClick={() => player.command({ type: 'play' })}>
          <svg viewBox="0 0 68 48" width="68" height="48" aria-hidden="true">
            <path className="vf-bigplay-bg" d={BIG_PLAY_PATH} />
            <path d="M45 24 27 14v20" fill="#fff" />
          </svg>
        </button>
      )}
      {ended && (
        <div className="vf-endscreen">
          <button type="button" className="vf-end-replay" onClick={() => player.command({ type: 'play' })}>
            <ReplayIcon /> Replay
          </button>
          {hasNext && (
            <button type="button" className="vf-end-next" onClick={() => player.command({ type: 'nextVideo' })}>
              <NextIcon /> Next video
            </button>
          )}
          {actions && <FeedbackControls actions={actions} />}
        </div>
      )}
      {controls && !error && (
        <div
          className={controlsVisible ? 'vf-chrome' : 'vf-chrome vf-chrome-hidden'}
          onFocus={() => setChromeFocus(true)}
          onBlur={(e) => setChromeFocus(e.currentTarget.contains(e.relatedTarget as Node | null))}
        >
          <ControlBar
            player={player}
            info={info}
            shown={controlsVisible || chromeFocus}
            fullscreen={fullscreen}
            allowFullscreen={allowFullscreen}
            onFullscreen={toggleFullscreen}
            settingsOpen={settingsOpen}
            onSettings={openSettings}
            playlistOpen={playlistOpen}
            onPlaylist={openPlaylist}
          />
        </div>
      )}
      {settingsOpen && controls && !error && <SettingsMenu player={player} info={info} onClose={closeSettings} />}
      {playlistOpen && playlist && <PlaylistPanel player={player} index={info.playlistIndex} onClose={() => setPlaylistOpen(false)} />}
      {shortcutsOpen && keyboard && <ShortcutList captions={info.captionTracks.length > 0} fullscreen={allowFullscreen} onClose={closeShortcuts} />}
      {autoplayBlocked && !error && (
        <div className="vf-notice" role="status">
          Your browser blocked autoplay. Press play to start the video.
        </div>
      )}
      {error && (
        <div className="vf-error" role="alert" data-error-code={error.code} data-error-internal={error.internal}>
          <svg viewBox="0 0 24 24" width="48" height="48" aria-hidden="true">
            <path fill="currentColor" d="M1 21h22L12 2 1 21zm12-3h-2v-2h2v2zm0-4h-2v-4h2v4z" />
          </svg>
          <p className="vf-error-message">{error.message}</p>
          <p className="vf-error-detail">Error {error.code}</p>
        </div>
      )}
    </>
  );
}
