/**
 * The contract between the player engine (streams/player, src/embed) and whatever drives or reads it: the views and
 * the host protocol (streams/host) both send {@link PlayerCommand}s into one command stream and read
 * {@link PlayerInfo} snapshots and {@link PlayerEventOut}s out of it.
 */
import type { PlayerStateValue } from './playerState';

/** Spec §3 "Video load options". */
export interface VideoLoadOptions {
  videoId: string;
  startSeconds?: number;
  endSeconds?: number;
  suggestedQuality?: string;
  mediaContentUrl?: string;
  rct?: string;
  rctn?: string;
}

/** Spec §3 "Playlist load options". `playlist` holds video ids; `list` a list id, a channel or a query (by `listType`). */
export interface PlaylistLoadOptions {
  playlist?: string[];
  list?: string;
  listType?: string;
  /** Zero-based. */
  index?: number;
  startSeconds?: number;
  suggestedQuality?: string;
}

/** Every command the player accepts, already normalised (the host layer turns wire arguments into these). */
export type PlayerCommand =
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'stop' }
  | { type: 'clear' }
  /** `keepState`: a cued or ended player only moves its position (the seek slider's keys); without it a seek starts it. */
  | { type: 'seek'; seconds: number; allowSeekAhead: boolean; keepState?: boolean }
  | { type: 'mute' }
  | { type: 'unMute' }
  /** 0–100. */
  | { type: 'setVolume'; volume: number }
  | { type: 'setPlaybackRate'; rate: number }
  | { type: 'setPlaybackQuality'; quality: string }
  | { type: 'setSize'; width: number; height: number }
  | { type: 'loadVideo'; options: VideoLoadOptions; autoplay: boolean }
  | { type: 'loadPlaylist'; options: PlaylistLoadOptions; autoplay: boolean }
  | { type: 'nextVideo' }
  | { type: 'previousVideo' }
  | { type: 'playVideoAt'; index: number }
  | { type: 'setLoop'; loop: boolean }
  | { type: 'setShuffle'; shuffle: boolean }
  | { type: 'setCaptions'; enabled: boolean; languageCode?: string }
  | { type: 'setOption'; module: string; option: string; value: unknown };

export interface VideoData {
  video_id: string;
  title: string;
  author: string;
  /** The playlist id when the video plays from a list. */
  list?: string;
  isPlayable: boolean;
  errorCode: string | null;
}

export interface ProgressState {
  current: number;
  duration: number;
  loaded: number;
  seekableStart: number;
  seekableEnd: number;
  allowSeeking: boolean;
  clipStart: number;
  clipEnd: number | null;
  displayedStart: number;
  isAtLiveHead: boolean;
  offset: number;
}

export interface CaptionTrackData {
  languageCode: string;
  languageName: string;
  displayName: string;
  kind: string;
  is_default: boolean;
}

/**
 * Spec §3 "Player info delivered to the host", plus what host-protocol §5 lists. Every field is always present;
 * the protocol layer derives `initialDelivery` and the partial `infoDelivery`s from successive snapshots.
 */
export interface PlayerInfo {
  playerState: PlayerStateValue;
  currentTime: number;
  /** Wall-clock seconds (`Date.now()/1000`) at which `currentTime` was read. */
  currentTimeLastUpdated_: number;
  duration: number;
  videoData: VideoData;
  videoBytesLoaded: number;
  videoBytesTotal: number;
  videoStartBytes: number;
  videoLoadedFraction: number;
  playbackQuality: string;
  availableQualityLevels: string[];
  playbackRate: number;
  availablePlaybackRates: number[];
  mediaReferenceTime: number;
  videoUrl: string;
  videoEmbedCode: string;
  videoContentRect: { left: number; top: number; width: number; height: number };
  progressState: ProgressState;
  playlist: string[] | null;
  playlistIndex: number;
  playlistId: string | null;
  muted: boolean;
  volume: number;
  captionTracks: CaptionTrackData[];
  /** The caption track shown, or null when captions are off (`getOption('captions', 'track')`). */
  captionTrack: CaptionTrackData | null;
  subtitlesUserSettings: Record<string, unknown>;
  sphericalProperties: Record<string, unknown>;
  size: { width: number; height: number };
  loop: boolean;
  shuffle: boolean;
  /**
   * Engine-only, never delivered to the host: true once the answer for the current video is in (its response, or its
   * failure); false while a load or cue waits for it (`videoData` then has no title and `isPlayable` false), and after
   * `clearVideo`. The host protocol holds a load's full snapshot until it is true (host-protocol §5).
   */
  videoKnown: boolean;
}

/** Events the player emits that are not a snapshot change (the host layer forwards them, spec §5 table). */
export type PlayerEventOut = { type: 'error'; internal: string; code: number; message: string } | { type: 'autoplayBlocked' } | { type: 'apiChange' };
