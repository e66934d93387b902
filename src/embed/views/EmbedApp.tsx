import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useObservable, useObservableEagerState } from 'observable-hooks';
import { beyondTime, withPlaybackPhase } from '../../../streams/player/viewInfo';
import { PlayerState } from '../../../streams/player/playerState';
import type { PlayerCommand } from '../../../streams/player/types';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import type { PlayerShell } from '../player/playerShell';
import type { Identity } from '../services/identity';
import type { SuggestionLoader } from '../services/suggestions';
import { Captions } from './Captions';
import { ControlBar } from './ControlBar';
import { applyRootState, embedFeatures, toggleFullscreen, useControlsVisibility, useFocusKeeper, useFullscreen, useLatest, usePanels } from './EmbedApp.state';
import { AutoplayNotice, BigPlayButton, BufferingSpinner, ControlChrome, ErrorScreen, TitleBar, TopRight } from './EmbedOverlays';
import { EndScreens } from './EndScreens';
import { PlaylistPanel } from './PlaylistPanel';
import { SettingsMenu } from './SettingsMenu';
import { ShortcutList } from './ShortcutList';
import { StatsPanel } from './StatsPanel';
import { TouchSeekIndicator } from './TouchSeek';
import { usePlayerSurface } from './usePlayerSurface';
import './panels.css';
import './rtl.css';
import type { ViewerActions } from './viewerActions';

/**
 * The embedded player page's controls, rendered into the shell's `.vf-ui` layer around the `<video>` the player
 * already plays (the server wrote both; see `playerShell.ts`, whose `bindShellState` keeps the shell's own attributes
 * and the document's title). The shell's root gets its class and listeners here, imperatively: it is not React's
 * element. The controls load when the viewer reaches for the player or the video needs more than itself (`main.ts`).
 * Captions, title bar, big play button on a cued video, buffering spinner, control bar (auto-hiding while playing;
 * none with `controls=0`), settings, playlist and stats panels, end screen with suggested videos and the pause screen's
 * "More videos" strip, the double-tap seek indicator, error screen and the autoplay-blocked notice. It
 * reads the player only through observable hooks and sends commands.
 */
export function EmbedApp({
  player,
  shell,
  identity,
  actions,
  suggest,
  onMounted,
}: {
  player: EmbedPlayer;
  shell: PlayerShell;
  identity?: Identity;
  actions?: ViewerActions;
  /** The suggested videos of a video (end screen, pause strip); none without it. */
  suggest?: SuggestionLoader;
  /** Called once, after the listeners on the shell are bound (the shell's own click handling then goes). */
  onMounted?: () => void;
}) {
  const { controls, keyboard, allowFullscreen } = embedFeatures(player.config.args.playerVars);
  // Everything but the playback time: the player re-renders when that changes, not on every `timeupdate`. With it,
  // the phase of the playback: a video looping by itself counts as playing from its end to its new start
  // (`playbackPhase`): no end screen, title or controls for a moment at each loop.
  const view$ = useObservable(() => player.info$.pipe(beyondTime(), withPlaybackPhase()));
  const { info, phase } = useObservableEagerState(view$);
  // The latest time, read on demand (Share at the current time, the seek keys) without rendering on each tick.
  const latestInfo = useLatest(player.info$, info);
  const videoData = useObservableEagerState(player.videoData$);
  const error = useObservableEagerState(player.error$);
  const autoplayBlocked = useObservableEagerState(player.autoplayBlocked$);
  const captionCues = useObservableEagerState(player.captionCues$);
  const panels = usePanels(shell.root);
  // A share panel, sign-in invitation or bell menu keeps the overlays up while it is open (one flag per owner, so one
  // closing does not clear the other's).
  const [channelOverlay, setChannelOverlay] = useState(false);
  const [actionsOverlay, setActionsOverlay] = useState(false);
  const rootElement = shell.root;
  useFocusKeeper(rootElement);

  const state = info.playerState;
  const playing = phase !== 'other';
  const [onActivity, autoVisible, onHide] = useControlsVisibility(playing);
  const controlsVisible = autoVisible || panels.settingsOpen || panels.playlistOpen || channelOverlay || actionsOverlay;
  // The title bar and the top-right corner: always while not playing, with the controls while playing.
  const showTopBars = !error && (!playing || (controls && controlsVisible));
  // Keyboard focus inside the auto-hidden control bar shows it (`:focus-within`): its time must move then too.
  const [chromeFocus, setChromeFocus] = useState(false);
  const fullscreen = useFullscreen();
  const fullscreenToggle = () => toggleFullscreen(rootElement);
  const playlist = info.playlist;
  const hasNext = playlist !== null && (info.playlistIndex < playlist.length - 1 || info.loop);

  // The shell's root: what the controls add to it (its size, id, theme, the player's state and the document's title are
  // the shell's own: `bindShellState` in `playerShell.ts`), and its listeners.
  const rootClass = panels.playlistOpen && playlist ? 'vf-player vf-playlist-open' : 'vf-player';
  const controlsShown = controls && controlsVisible ? 'true' : 'false';
  useLayoutEffect(() => applyRootState(rootElement, rootClass, controlsShown), [rootElement, rootClass, controlsShown]);
  const keys = { keyboard, allowFullscreen, panels, latestInfo, toggleFullscreen: fullscreenToggle, command: (c: PlayerCommand) => player.command(c) };
  const seekRun = usePlayerSurface({ shell, keys, playing, error: !!error, controlsVisible, onActivity, onHide });
  // After the listeners above (effects run in order): the shell's own click handling can go now.
  const mounted = useRef(onMounted);
  useEffect(() => mounted.current?.(), []);

  return (
    <>
      {captionCues.length > 0 && !error && <Captions cues={captionCues} settings={info.subtitlesUserSettings} raised={controls && controlsVisible} />}
      {videoData && showTopBars && <TitleBar videoData={videoData} actions={actions} identity={identity} onOverlayChange={setChannelOverlay} />}
      {identity && showTopBars && (
        <TopRight
          identity={identity}
          actions={actions}
          videoData={videoData}
          playlistId={info.playlistId ?? undefined}
          currentTime={() => latestInfo.current.currentTime}
          onOverlayChange={setActionsOverlay}
        />
      )}
      {state === PlayerState.BUFFERING && !error && <BufferingSpinner />}
      {!error && (state === PlayerState.CUED || autoplayBlocked) && state !== PlayerState.PLAYING && (
        <BigPlayButton onPlay={() => player.command({ type: 'play' })} />
      )}
      <TouchSeekIndicator run={seekRun} />
      <EndScreens {...{ player, info, videoData, hasNext, actions, suggest }} looping={phase === 'looping'} failed={!!error} />
      {controls && !error && (
        <ControlChrome visible={controlsVisible} onFocusWithin={setChromeFocus}>
          <ControlBar
            player={player}
            info={info}
            shown={controlsVisible || chromeFocus}
            fullscreen={fullscreen}
            allowFullscreen={allowFullscreen}
            onFullscreen={fullscreenToggle}
            settingsOpen={panels.settingsOpen}
            onSettings={panels.openSettings}
            playlistOpen={panels.playlistOpen}
            onPlaylist={panels.openPlaylist}
          />
        </ControlChrome>
      )}
      {panels.settingsOpen && controls && !error && (
        <SettingsMenu player={player} info={info} onClose={panels.closeSettings} onStats={() => panels.openStats(true)} />
      )}
      {panels.playlistOpen && playlist && <PlaylistPanel player={player} index={info.playlistIndex} onClose={panels.closePlaylist} />}
      {panels.shortcutsOpen && keyboard && (
        <ShortcutList captions={info.captionTracks.length > 0} fullscreen={allowFullscreen} onClose={panels.closeShortcuts} />
      )}
      {panels.statsOpen && !error && <StatsPanel player={player} onClose={() => panels.openStats(false)} />}
      {autoplayBlocked && !error && <AutoplayNotice />}
      {error && <ErrorScreen error={error} />}
    </>
  );
}
