import { KEYBOARD_SEEK_LARGE_S, KEYBOARD_SEEK_SMALL_S } from '../timing';
import type { PlayerCommand, PlayerInfo } from './types';

/** What a key does: a player command, or a view action (fullscreen, the shortcut list, the stats panel), or nothing. */
export type ShortcutResult = { command: PlayerCommand } | { view: 'fullscreen' | 'shortcuts' | 'stats' } | null;

/** The subset of a keyboard event the shortcuts read. */
export interface ShortcutKey {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

export const VOLUME_STEP = 5;

/**
 * The keyboard shortcuts: space/k play-pause, j/l −10/+10 s, ←/→ −5/+5 s, ↑/↓ volume ±5, m mute,
 * f fullscreen, c captions, 0–9 jump to 0–90 %, i opens or closes the stats panel; `?` (shift+/) opens the shortcut list. Keys with a
 * modifier other than shift are left to the browser.
 */
export function shortcutCommand(
  e: ShortcutKey,
  info: Pick<PlayerInfo, 'playerState' | 'currentTime' | 'duration' | 'volume' | 'muted' | 'captionTrack' | 'captionTracks'>,
): ShortcutResult {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const seekTo = (s: number): ShortcutResult => ({
    command: { type: 'seek', seconds: Math.max(0, info.duration > 0 ? Math.min(info.duration, s) : s), allowSeekAhead: true },
  });
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  switch (key) {
    case ' ':
    case 'k':
      return { command: { type: info.playerState === 1 || info.playerState === 3 ? 'pause' : 'play' } };
    case 'j':
      return seekTo(info.currentTime - KEYBOARD_SEEK_LARGE_S);
    case 'l':
      return seekTo(info.currentTime + KEYBOARD_SEEK_LARGE_S);
    case 'ArrowLeft':
      return seekTo(info.currentTime - KEYBOARD_SEEK_SMALL_S);
    case 'ArrowRight':
      return seekTo(info.currentTime + KEYBOARD_SEEK_SMALL_S);
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
    case 'i':
      return { view: 'stats' };
    case '?':
      return { view: 'shortcuts' };
    default:
      if (/^[0-9]$/.test(key) && info.duration > 0) return seekTo((Number(key) / 10) * info.duration);
      return null;
  }
}

/** One row of the shortcut list: the keys as shown, what they do, and one key that does it (checked by the unit test). */
export interface ShortcutListEntry {
  keys: string[];
  action: string;
  sample: string;
  /** Shown only when the player has it (captions tracks, fullscreen allowed). */
  needs?: 'captions' | 'fullscreen';
}

/** The shortcut list the `?` dialog shows: exactly the keys {@link shortcutCommand} handles. */
export const SHORTCUT_LIST: readonly ShortcutListEntry[] = [
  { keys: ['k', 'Space'], action: 'Play or pause', sample: 'k' },
  { keys: ['j'], action: `Back ${KEYBOARD_SEEK_LARGE_S} seconds`, sample: 'j' },
  { keys: ['l'], action: `Forward ${KEYBOARD_SEEK_LARGE_S} seconds`, sample: 'l' },
  { keys: ['←'], action: `Back ${KEYBOARD_SEEK_SMALL_S} seconds`, sample: 'ArrowLeft' },
  { keys: ['→'], action: `Forward ${KEYBOARD_SEEK_SMALL_S} seconds`, sample: 'ArrowRight' },
  { keys: ['↑'], action: `Volume up ${VOLUME_STEP}%`, sample: 'ArrowUp' },
  { keys: ['↓'], action: `Volume down ${VOLUME_STEP}%`, sample: 'ArrowDown' },
  { keys: ['m'], action: 'Mute or unmute', sample: 'm' },
  { keys: ['c'], action: 'Subtitles on or off', sample: 'c', needs: 'captions' },
  { keys: ['f'], action: 'Full screen', sample: 'f', needs: 'fullscreen' },
  { keys: ['0', '…', '9'], action: 'Jump to 0% … 90% of the video', sample: '5' },
  { keys: ['i'], action: 'Stats for nerds', sample: 'i' },
  { keys: ['?'], action: 'Show this list', sample: '?' },
];

/**
 * The seek slider's own keys (WAI-ARIA slider pattern): →/↑ and ←/↓ move 5 s, PageUp/PageDown 10 s, Home and End go
 * to the start and the end. The seek keeps the player's state (a cued video is not started). Other keys: null. In a
 * right-to-left interface the bar fills from the right, so ← moves forward and → back (the arrow points where the
 * thumb goes, as a native range input's does there); ↑/↓, PageUp/PageDown, Home/End keep their meaning.
 */
export function seekSliderKey(key: string, currentTime: number, duration: number, direction: 'ltr' | 'rtl' = 'ltr'): PlayerCommand | null {
  if (direction === 'rtl' && (key === 'ArrowLeft' || key === 'ArrowRight')) key = key === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft';
  const clamp = (s: number) => Math.max(0, duration > 0 ? Math.min(duration, s) : s);
  const to = (s: number): PlayerCommand => ({ type: 'seek', seconds: clamp(s), allowSeekAhead: true, keepState: true });
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return to(currentTime + KEYBOARD_SEEK_SMALL_S);
    case 'ArrowLeft':
    case 'ArrowDown':
      return to(currentTime - KEYBOARD_SEEK_SMALL_S);
    case 'PageUp':
      return to(currentTime + KEYBOARD_SEEK_LARGE_S);
    case 'PageDown':
      return to(currentTime - KEYBOARD_SEEK_LARGE_S);
    case 'Home':
      return to(0);
    case 'End':
      return duration > 0 ? to(duration) : null;
    default:
      return null;
  }
}

const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Whole seconds in words: "5 seconds", "1 minute 5 seconds", "1 hour 2 minutes" (the slider's `aria-valuetext`). */
export function durationInWords(wholeSeconds: number): string {
  const s = Number.isFinite(wholeSeconds) && wholeSeconds > 0 ? Math.floor(wholeSeconds) : 0;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const parts = [h > 0 ? unit(h, 'hour') : '', m > 0 ? unit(m, 'minute') : '', sec > 0 || (h === 0 && m === 0) ? unit(sec, 'second') : ''];
  return parts.filter(Boolean).join(' ');
}
