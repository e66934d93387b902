/**
 * The vocabulary of the player engine's pure step ({@link reducePlayer}): what comes in (commands, fetched answers, the
 * element's events that need a decision), what the page reads at that moment, and what goes out (the next model and
 * the actions the page performs, in order).
 */
import type { CaptionTrackInfo, PlayerResponse } from '../config/playerConfig';
import type { PlayerModel } from './playerModel';
import { PlayerState, type PlayerStateInput, type PlayerStateValue } from './playerState';
import type { PlayerCommand } from './types';

/**
 * What `list` names (spec §3 `listType`): a list id (`playlist`, the default), a channel whose uploads play
 * (`user_uploads`: its channel id or its author's name), or a search whose matching videos play (`search`: the query).
 */
export const LIST_TYPES = ['playlist', 'user_uploads', 'search'] as const;
export type ListType = (typeof LIST_TYPES)[number];
export const isListType = (v: unknown): v is ListType => typeof v === 'string' && (LIST_TYPES as readonly string[]).includes(v);

/** What the engine learns besides commands: answers to its fetches and the element's events that need a decision. */
export type EngineInput =
  | PlayerCommand
  /**
   * `elementStarted`: the element already plays this response's source from its beginning (the server-written
   * `<video>` the browser started before the page's script ran); a start of 0 keeps it where it is.
   */
  | { type: 'videoResponse'; seq: number; response: PlayerResponse; autoplay: boolean; elementStarted?: boolean }
  | {
      type: 'playlistResponse';
      seq: number;
      /** The list's id; null for a list that has none (a search). */
      listId: string | null;
      title: string;
      ids: string[];
      titles: Record<string, string>;
      index: number;
      autoplay: boolean;
      startSeconds: number;
      /** The load's `suggestedQuality`, for the video at `index`. */
      quality?: string;
    }
  | { type: 'requestFailed'; seq: number; internal: string; message: string }
  | { type: 'mediaEnded' }
  | { type: 'timeUpdate'; currentTime: number }
  /** The element failed; `hasSource` false when it had no source (absent: it had one). */
  | { type: 'mediaError'; code: number | undefined; hasSource?: boolean }
  /** The element knows its length (`loadedmetadata`): a pending seek can be performed. */
  | { type: 'metadataLoaded' }
  /** The element dropped its media (`emptied`). */
  | { type: 'mediaEmptied' }
  /** The picture on screen changed size (`resize`): while streaming, a rendition of another quality shows. */
  | { type: 'renditionShown'; height: number }
  /** The adaptive stream failed (`fmt.noneavailable`, `fmt.decode`, `html5.missingapi`): the video fails with it. */
  | { type: 'streamFailed'; internal: string; message: string }
  /**
   * The stream's bytes: fetched so far, and in all (what is fetched plus what the rest takes at the current decision),
   * which the snapshot gives as `videoBytesLoaded` and `videoBytesTotal`.
   */
  | { type: 'streamBytes'; loaded: number; total: number };

/** What the engine asks the element and the network to do (the page performs them, in order). */
export type PlayerAction =
  | { type: 'state'; input: PlayerStateInput }
  /**
   * Put a rendition into the element (null empties it), seek to `startSeconds` once metadata is known, play if asked.
   * `keepPosition`: the element plays this source already from where the browser started it; it is not sent back to
   * a start of 0.
   */
  | {
      type: 'source';
      url: string | null;
      startSeconds: number;
      play: boolean;
      captions: CaptionTrackInfo[];
      keepPosition?: boolean;
      /** Stream the response's adaptive ladder (`url` then names the stream, it is not the element's source). */
      stream?: true;
    }
  /** While streaming: the quality preference (a cap or `auto`) changed; the stream goes on where it is. */
  | { type: 'streamQuality'; quality: string }
  | { type: 'play' }
  | { type: 'pause' }
  /** Set the element's time now (the element has its metadata: a seek before it is kept in the model's `seek`). */
  | { type: 'seek'; seconds: number }
  | { type: 'muted'; muted: boolean }
  /** 0–100. */
  | { type: 'volume'; volume: number }
  | { type: 'rate'; rate: number }
  /** Show this caption language, or none. */
  | { type: 'captions'; languageCode: string | null }
  /** Fetch these caption tracks again (bypassing caches, as the model's `captionReloads`-th reload), then show this language, or none. */
  | { type: 'reloadCaptions'; captions: CaptionTrackInfo[]; languageCode: string | null }
  /**
   * Ask for the video's player response. `reuse`: the response of the video that just played, when the playlist comes
   * back to that same video by itself (a looping playlist of one: `loop=1&playlist=<id>`); the engine answers with it
   * at once instead of asking the network again. The load is otherwise the same: new sequence number, the same state
   * changes and snapshots for the host, a new playback for the pings.
   */
  | { type: 'fetchVideo'; seq: number; videoId: string; autoplay: boolean; reuse?: PlayerResponse }
  /**
   * Ask for a list: `listId` is what the load's `list` names by its `listType` (absent: a list id; `user_uploads`: a
   * channel; `search`: a query). `quality`: the load's `suggestedQuality`, which the answer carries back.
   */
  | {
      type: 'fetchPlaylist';
      seq: number;
      listId: string;
      listType?: Exclude<ListType, 'playlist'>;
      index: number;
      autoplay: boolean;
      startSeconds: number;
      quality?: string;
    }
  | { type: 'error'; internal: string; message: string }
  | { type: 'apiChange' };

/** What the reducer reads from the page at the moment an input arrives. */
export interface EngineContext {
  /** The element's current time in seconds. */
  currentTime: number;
  state: PlayerStateValue;
  /** Uniform in [0, 1): shuffling. */
  random: () => number;
  /**
   * Whether the element knows its metadata (`readyState` ≥ HAVE_METADATA), so that a seek can be performed now.
   * Absent: it does (a caller without an element to wait for).
   */
  hasMetadata?: boolean;
  /** The element's `src` attribute (null or absent: none), so that a source it has already is not waited for again. */
  source?: string | null;
  /**
   * Whether the element was asked to play and not paused since (`!paused`), which holds from the `play()` call on,
   * before the state says playing: a new source then plays too, or that play would be lost.
   */
  playWanted?: boolean;
  /**
   * Whether the page can stream adaptively (Media Source Extensions): a response with a ladder then plays through it,
   * otherwise through its progressive file. Absent: it cannot.
   */
  canStream?: boolean;
}

export interface PlayerStep {
  model: PlayerModel;
  actions: PlayerAction[];
}

/** One rule of the engine: the step for one kind of input. */
export type Rule<T extends EngineInput['type']> = (model: PlayerModel, input: Extract<EngineInput, { type: T }>, ctx: EngineContext) => PlayerStep;

/** The rules for some kinds of input, one function each. */
export type Rules<T extends EngineInput['type']> = { [K in T]: Rule<K> };

/** The step that changes nothing. */
export const unchanged = (model: PlayerModel): PlayerStep => ({ model, actions: [] });

/** Playing or buffering: what a quality switch keeps and a clip end needs. */
export const isActive = (state: PlayerStateValue): boolean => state === PlayerState.PLAYING || state === PlayerState.BUFFERING;

/** A response that plays, no error, a rendition or a stream in the element: what play, pause, seek and a quality switch need. */
export const isPlayable = (model: PlayerModel): boolean =>
  model.response?.playabilityStatus.status === 'OK' && !model.error && (model.quality !== '' || model.streaming === true);

/** A finite number of seconds, not negative; `fallback` otherwise. */
export const secondsOr = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback);
