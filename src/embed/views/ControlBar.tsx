import { useRef } from 'react';
import { useLayoutSubscription, useObservable } from 'observable-hooks';
import type { PlayerInfo } from '../../../streams/player/types';
import { wholeSecondsTime } from '../../../streams/player/viewInfo';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import { ChapterTitle } from './Chapters';
import { formatTime } from '../../../streams/shared/formatTime';
import { PictureInPictureButton } from './PictureInPictureButton';
import { CaptionsIcon, ExitFullscreenIcon, FullscreenIcon, NextIcon, PauseIcon, PlayIcon, PlaylistIcon, PrevIcon, ReplayIcon, SettingsIcon } from './icons';
import { SeekBar } from './SeekBar';
import { VolumeControl } from './VolumeControl';
import { useI18n } from '../i18n/I18nContext';

export interface ControlBarProps {
  player: EmbedPlayer;
  info: PlayerInfo;
  /**
   * Whether the bar can be seen (not auto-hidden, or keyboard focus inside it). While it cannot, its seek bar's played
   * part and buffered ranges stand still (no style writes nobody sees, on every tick); they catch up the moment
   * it shows. Its time text and slider value stay live: a screen reader still reads a transparent bar.
   */
  shown?: boolean;
  fullscreen: boolean;
  allowFullscreen: boolean;
  onFullscreen: () => void;
  settingsOpen: boolean;
  onSettings: (open: boolean) => void;
  playlistOpen: boolean;
  onPlaylist: (open: boolean) => void;
}

/**
 * The control bar: seek bar; play/pause, previous/next, volume, time, the chapter playing; captions, settings, playlist,
 * picture-in-picture, fullscreen.
 */
export function ControlBar({
  player,
  info,
  shown = true,
  fullscreen,
  allowFullscreen,
  onFullscreen,
  settingsOpen,
  onSettings,
  playlistOpen,
  onPlaylist,
}: ControlBarProps) {
  const playing = info.playerState === 1 || info.playerState === 3;
  const ended = info.playerState === 0;
  const hasList = info.playlist !== null && info.playlist.length > 1;
  const captionsOn = info.captionTrack !== null;
  const { t } = useI18n();
  return (
    <div className="vf-controls" role="toolbar" aria-label={t('playerControls')}>
      <SeekBar player={player} shown={shown} />
      <div className="vf-controls-row">
        <div className="vf-controls-left">
          {hasList && (
            <button
              type="button"
              className="vf-button vf-prev"
              aria-label={t('previousVideo')}
              disabled={info.playlistIndex <= 0 && !info.loop}
              onClick={() => player.command({ type: 'previousVideo' })}
            >
              <PrevIcon />
            </button>
          )}
          <button
            type="button"
            className="vf-button vf-playpause"
            aria-label={t(playing ? 'pauseK' : ended ? 'replay' : 'playK')}
            onClick={() => player.command({ type: playing ? 'pause' : 'play' })}
          >
            {playing ? <PauseIcon /> : ended ? <ReplayIcon /> : <PlayIcon />}
          </button>
          {hasList && (
            <button
              type="button"
              className="vf-button vf-next"
              aria-label={t('nextVideo')}
              disabled={info.playlistIndex >= (info.playlist?.length ?? 0) - 1 && !info.loop && !info.shuffle}
              onClick={() => player.command({ type: 'nextVideo' })}
            >
              <NextIcon />
            </button>
          )}
          <VolumeControl player={player} volume={info.volume} muted={info.muted} />
          <TimeText player={player} />
          <ChapterTitle player={player} />
        </div>
        <div className="vf-controls-right">
          {info.captionTracks.length > 0 && (
            <button
              type="button"
              className="vf-button vf-cc"
              aria-label={t('subtitlesC')}
              aria-pressed={captionsOn}
              onClick={() => player.command({ type: 'setCaptions', enabled: !captionsOn })}
            >
              <CaptionsIcon />
            </button>
          )}
          <button
            type="button"
            className="vf-button vf-settings"
            aria-label={t('settings')}
            aria-haspopup="menu"
            aria-expanded={settingsOpen}
            onClick={() => onSettings(!settingsOpen)}
          >
            <SettingsIcon />
          </button>
          {info.playlist !== null && (
            <button
              type="button"
              className="vf-button vf-playlist-toggle"
              aria-label={t('playlist')}
              aria-expanded={playlistOpen}
              onClick={() => onPlaylist(!playlistOpen)}
            >
              <PlaylistIcon />
            </button>
          )}
          <PictureInPictureButton element$={player.element$} />
          {allowFullscreen && (
            <button type="button" className="vf-button vf-fullscreen" aria-label={t(fullscreen ? 'exitFullScreenF' : 'fullScreenF')} onClick={onFullscreen}>
              {fullscreen ? <ExitFullscreenIcon /> : <FullscreenIcon />}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * "0:05 / 0:12": written straight to its two spans by its own subscription when the shown second or the duration
 * changes (about once a second while playing), never by a render — also while the bar is auto-hidden: it is
 * only transparent then, and a screen reader still reads it. React renders the spans empty and never sets their text.
 */
function TimeText({ player }: { player: EmbedPlayer }) {
  const time$ = useObservable(() => player.info$.pipe(wholeSecondsTime()));
  const current = useRef<HTMLSpanElement>(null);
  const total = useRef<HTMLSpanElement>(null);
  const shown = useRef({ currentTime: NaN, duration: NaN });
  useLayoutSubscription(time$, ({ currentTime, duration }) => {
    if (currentTime !== shown.current.currentTime) writeText(current.current, formatTime(currentTime));
    if (duration !== shown.current.duration) writeText(total.current, formatTime(duration));
    shown.current = { currentTime, duration };
  });
  return (
    <span className="vf-time">
      <span ref={current} className="vf-time-current" />
      <span className="vf-time-sep"> / </span>
      <span ref={total} className="vf-time-duration" />
    </span>
  );
}

/**
 * The text of `el`, changed in its one text node (a character-data change) rather than by replacing its children: no
 * node is made per second, and the player's focus keeper, which watches the tree for removed elements, is not woken.
 */
function writeText(el: HTMLElement | null, text: string): void {
  if (!el) return;
  const node = el.firstChild;
  if (node && node.nodeType === Node.TEXT_NODE && node === el.lastChild) (node as Text).data = text;
  else el.textContent = text;
}
