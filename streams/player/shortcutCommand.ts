import type { PlayerCommand, PlayerInfo } from './types';

/** What a key does: a player command, or a view action (fullscreen, captions toggle), or nothing. */
export type ShortcutResult = { command: PlayerCommand } | { view: 'fullscreen' } | null;

/** The subset of a keyboard event the shortcuts read. */
export interface ShortcutKey {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

const SEEK_SMALL_S = 5;
const SEEK_LARGE_S = 10;
const VOLUME_STEP = 5;

/**
 * The keyboard shortcuts of issue 3 §6: space/k play-pause, j/l −10/+10 s, ←/→ −5/+5 s, ↑/↓ volume ±5, m mute,
 * f fullscreen, c captions, 0–9 jump to 0–90 %. Keys with a modifier are left to the browser.
 */
export function shortcutCommand(e: ShortcutKey, info: Pick<PlayerInfo, 'playerState' | 'currentTime' | 'duration' | 'volume' | 'muted' | 'captionTrack' | 'captionTracks'>): ShortcutResult {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const seekTo = (s: number): ShortcutResult => ({ command: { type: 'seek', seconds: Math.max(0, info.duration > 0 ? Math.min(info.duration, s) : s), allowSeekAhead: true } });
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  switch (key) {
    case ' ':
    case 'k':
      return { command: { type: info.playerState === 1 || info.playerState === 3 ? 'pause' : 'play' } };
    case 'j':
      return seekTo(info.currentTime - SEEK_LARGE_S);
    case 'l':
      return seekTo(info.currentTime + SEEK_LARGE_S);
    case 'ArrowLeft':
      return seekTo(info.currentTime - SEEK_SMALL_S);
    case 'ArrowRight':
      return seekTo(info.currentTime + SEEK_SMALL_S);
    case 'ArrowUp':
      return { command: { type: 'setVolume', volume: Math.min(100, info.volume + VOLUME_STEP) } };
    case 'ArrowDown':
      return { command: { type: 'setVolume', volume: Math.max(0, info.volume - VOLUME_STEP) } };
    case 'm':
      return { command: { type: info.muted ? 'unMute' : 'mute' } };
    case 'f':
      return { view: 'fullscreen' };
    case 'c':
      return info.captionTracks.length > 0 ? { command: { type: 'setCaptions', enabled: info.captionTrack === null } } : null;
    default:
      if (/^[0-9]$/.test(key) && info.duration > 0) return seekTo((Number(key) / 10) * info.duration);
      return null;
  }
}
