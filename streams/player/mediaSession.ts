import { KEYBOARD_SEEK_LARGE_S } from '../timing';
import { PlayerState, type PlayerStateValue } from './playerState';
import type { PlayerCommand, PlayerInfo } from './types';

/**
 * The Media Session of the page (the operating system's media keys, lock screen and notification): what it shows of
 * the video and what its actions ask of the player. Pure: the page's binding (`src/embed/player/mediaSession.ts`) puts
 * these into `navigator.mediaSession`.
 */

/** What the session shows: the video's title, its channel and its poster. */
export interface MediaSessionMetadataInit {
  title: string;
  artist: string;
  artwork: { src: string }[];
}

/** The metadata of a video with a title (none for no video, one loading or one without a title). */
export function mediaSessionMetadata(video: { title: string; author: string; posterUrl?: string } | null): MediaSessionMetadataInit | null {
  if (!video?.title) return null;
  return { title: video.title, artist: video.author, artwork: video.posterUrl ? [{ src: video.posterUrl }] : [] };
}

/** The session's playback state: playing while playing or buffering, paused once a video is there, else none. */
export function mediaSessionPlaybackState(state: PlayerStateValue): 'playing' | 'paused' | 'none' {
  if (state === PlayerState.PLAYING || state === PlayerState.BUFFERING) return 'playing';
  return state === PlayerState.UNSTARTED ? 'none' : 'paused';
}

/** The actions the page answers; the track actions only while a playlist plays. */
export const MEDIA_SESSION_ACTIONS = ['play', 'pause', 'stop', 'seekbackward', 'seekforward', 'seekto', 'previoustrack', 'nexttrack'] as const;
export type MediaSessionActionName = (typeof MEDIA_SESSION_ACTIONS)[number];

/** The actions the session offers: previous and next track only while a playlist plays. */
export const offeredMediaSessionActions = (withPlaylist: boolean): readonly MediaSessionActionName[] =>
  withPlaylist ? MEDIA_SESSION_ACTIONS : MEDIA_SESSION_ACTIONS.filter((action) => action !== 'previoustrack' && action !== 'nexttrack');

/**
 * The player command for a session action, at the player's `currentTime` and `duration`: a seek backward or forward
 * without an offset of its own moves as the j/l keys do ({@link KEYBOARD_SEEK_LARGE_S}), within the video; a seek to a
 * time that is no number is nothing.
 */
export function mediaSessionCommand(
  action: MediaSessionActionName,
  details: { seekOffset?: number; seekTime?: number },
  at: { currentTime: number; duration: number },
): PlayerCommand | null {
  const seek = (seconds: number): PlayerCommand => {
    const end = at.duration > 0 ? at.duration : Infinity;
    return { type: 'seek', seconds: Math.min(end, Math.max(0, seconds)), allowSeekAhead: true, keepState: true };
  };
  const offset = typeof details.seekOffset === 'number' && details.seekOffset > 0 ? details.seekOffset : KEYBOARD_SEEK_LARGE_S;
  switch (action) {
    case 'play':
    case 'pause':
    case 'stop':
      return { type: action };
    case 'seekbackward':
      return seek(at.currentTime - offset);
    case 'seekforward':
      return seek(at.currentTime + offset);
    case 'seekto':
      return typeof details.seekTime === 'number' && Number.isFinite(details.seekTime) ? seek(details.seekTime) : null;
    case 'previoustrack':
      return { type: 'previousVideo' };
    case 'nexttrack':
      return { type: 'nextVideo' };
  }
}

/** The position the session shows, or null when the video has no length yet (the session refuses such a state). */
export function mediaSessionPosition(
  info: Pick<PlayerInfo, 'currentTime' | 'duration' | 'playbackRate'>,
): { duration: number; playbackRate: number; position: number } | null {
  if (!(info.duration > 0) || !Number.isFinite(info.duration)) return null;
  return {
    duration: info.duration,
    playbackRate: info.playbackRate > 0 ? info.playbackRate : 1,
    position: Math.min(info.duration, Math.max(0, info.currentTime)),
  };
}
