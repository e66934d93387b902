/**
 * Public types of the host SDK: what a host page passes to {@link Player} and what it gets back. The wire format
 * itself is described in `shared/design/host-protocol.md`; these types mirror the public IFrame Player API
 * (`YT.Player`) so existing host code type-checks against our player unchanged.
 */
import type { SchedulerLike } from 'rxjs';
import type { PlayerInfo } from '../../../streams/player/types';
import type { PlayerStateValue } from '../../../streams/player/playerState';
import { FORWARDABLE_HOST_EVENTS } from '../../../streams/host/hostEvents';

export type { PlayerInfo, PlayerStateValue };

/**
 * The host's copy of the embed's player info: filled by `initialDelivery` and merged key by key by every
 * `infoDelivery`. Every key may be missing (right after a load or cue command the cache is wiped until the embed
 * sends its next full snapshot); keys the embed adds later are kept as they come.
 */
export type PlayerInfoCache = Partial<PlayerInfo> & { [key: string]: unknown };

/** `apiInfoDelivery`: the modules the embed exposes and their options (captions: `tracklist`, `track`, …). */
export interface ApiInfo {
  namespaces?: string[];
  [namespace: string]: unknown;
}

/** What each event of the protocol carries in `event.data` (host-protocol §5, the events table). */
export interface PlayerEventDataMap {
  onReady: null;
  onStateChange: PlayerStateValue;
  onError: number;
  onPlaybackQualityChange: string;
  onPlaybackRateChange: number;
  onVolumeChange: { volume: number; muted: boolean };
  onApiChange: null;
  onAutoplayBlocked: null;
  onVideoProgress: number;
}
export type PlayerEventName = keyof PlayerEventDataMap;

/** Every event of the protocol's events table, in its order: `onReady`, then those a host subscribes to. */
const EVENT_NAMES = ['onReady', ...FORWARDABLE_HOST_EVENTS] as const;
export const PLAYER_EVENT_NAMES: readonly PlayerEventName[] = EVENT_NAMES;
/** Every event of {@link PlayerEventDataMap} is in the list: a compile error otherwise. */
const _everyEventListed: [Exclude<PlayerEventName, (typeof EVENT_NAMES)[number]>] extends [never] ? true : false = true;

/** The object every listener receives, as with `YT.Player`: the player and the event's data. */
export interface PlayerEvent<T = unknown, P = unknown> {
  target: P;
  data: T;
}

/** A listener: a function, or (as the public API allows) the name of a global function looked up when it fires. */
export type PlayerListener<T = unknown, P = unknown> = ((event: PlayerEvent<T, P>) => void) | string;

/** The listeners of the protocol's events, by name. */
export type KnownPlayerEventHandlers<P = unknown> = {
  [K in PlayerEventName]?: PlayerListener<PlayerEventDataMap[K], P>;
};

/**
 * A listener of any event, named or not: its data is typed by whoever wrote it (as `@types/youtube` types a listener's
 * event), so it must accept listeners of every data type — which only `any` does both ways (under
 * `strictFunctionTypes`, `unknown` would refuse a listener typed for a number).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: a listener's data type is its author's
export type AnyPlayerListener<P = unknown> = PlayerListener<any, P>;

/**
 * `events` of the constructor options: one listener per event name. The known events alone (what `@types/youtube`'s
 * `YT.Events`, an interface that no index signature accepts, is assignable to), or with listeners of other names.
 */
export type PlayerEventHandlers<P = unknown> =
  KnownPlayerEventHandlers<P> | (KnownPlayerEventHandlers<P> & { [name: string]: AnyPlayerListener<P> | undefined });

/** One embed URL parameter's value: booleans are sent as 1/0, arrays as comma lists, null/undefined leave it out. */
export type PlayerVarValue = string | number | boolean | string[] | null | undefined;

/**
 * The embed URL parameters by name (host-protocol §2 and the README's embed URL). An interface, so that
 * `@types/youtube`'s `YT.PlayerVars` (an interface, which no index signature accepts) is assignable to it.
 */
export interface KnownPlayerVars {
  autoplay?: PlayerVarValue;
  mute?: PlayerVarValue;
  start?: PlayerVarValue;
  end?: PlayerVarValue;
  loop?: PlayerVarValue;
  playlist?: PlayerVarValue;
  list?: PlayerVarValue;
  listType?: PlayerVarValue;
  controls?: PlayerVarValue;
  cc_load_policy?: PlayerVarValue;
  cc_lang_pref?: PlayerVarValue;
  hl?: PlayerVarValue;
  color?: PlayerVarValue;
  disablekb?: PlayerVarValue;
  enablejsapi?: PlayerVarValue;
  fs?: PlayerVarValue;
  iv_load_policy?: PlayerVarValue;
  modestbranding?: PlayerVarValue;
  origin?: PlayerVarValue;
  playsinline?: PlayerVarValue;
  rel?: PlayerVarValue;
  showinfo?: PlayerVarValue;
  autohide?: PlayerVarValue;
  widget_referrer?: PlayerVarValue;
  theme?: PlayerVarValue;
  ps?: PlayerVarValue;
  forced_experiments?: PlayerVarValue;
  consent?: PlayerVarValue;
  geolocation?: PlayerVarValue;
}

/** Embed URL parameters (host-protocol §2): the known ones by name, or any others as a plain record. */
export type PlayerVars = KnownPlayerVars | Record<string, PlayerVarValue>;

export interface PlayerOptions<P = unknown> {
  videoId?: string;
  width?: number | string;
  height?: number | string;
  /**
   * Where the embed is served from (scheme, host and port, no path): the iframe URL is built from it and only
   * messages from this origin are accepted. Default: the origin the `/iframe_api` script came from, or, for the ESM
   * SDK, `location.origin`.
   */
  host?: string;
  playerVars?: PlayerVars;
  events?: PlayerEventHandlers<P>;
  /** The iframe's accessible title. */
  title?: string;
  /** Not in the public API: the clock and timers (tests pass a virtual scheduler). Default `asyncScheduler`. */
  scheduler?: SchedulerLike;
}

/**
 * A playback quality as the IFrame API names it (`YT.SuggestedVideoQuality`): `default` lets the player choose (the
 * embed itself says `auto` for that).
 */
export type VideoQuality = 'default' | 'small' | 'medium' | 'large' | 'hd720' | 'hd1080' | 'highres';
const VIDEO_QUALITIES: readonly string[] = ['default', 'small', 'medium', 'large', 'hd720', 'hd1080', 'highres'];

/** The embed's quality name as a {@link VideoQuality} (`auto` → `default`); `undefined` for anything else (`unknown`, ''). */
export function toVideoQuality(quality: unknown): VideoQuality | undefined {
  if (quality === 'auto') return 'default';
  return typeof quality === 'string' && VIDEO_QUALITIES.includes(quality) ? (quality as VideoQuality) : undefined;
}

/** The view of a 360° video (`setSphericalProperties` / `getSphericalProperties`): degrees, and the phone's sensor. */
export interface SphericalProperties {
  enableOrientationSensor?: boolean;
  fov?: number;
  pitch?: number;
  roll?: number;
  yaw?: number;
}

/** `getVideoData()`: `video_id`, `title`, `author` always present, plus what the embed delivers (`isPlayable`, …). */
export type VideoDataOf = { video_id: string; title: string; author: string } & Partial<PlayerInfo['videoData']>;

/** Video load options, positional or object form (host-protocol §4). */
export interface VideoByIdOptions {
  videoId: string;
  startSeconds?: number;
  endSeconds?: number;
  suggestedQuality?: string;
  /** Spec §3: passed through to the player's logging (its tracking parameters). */
  rct?: string;
  rctn?: string;
}
export interface VideoByUrlOptions {
  mediaContentUrl: string;
  startSeconds?: number;
  endSeconds?: number;
  suggestedQuality?: string;
  /** Spec §3: passed through to the player's logging (its tracking parameters). */
  rct?: string;
  rctn?: string;
}
export interface PlaylistOptions {
  playlist?: string | string[];
  list?: string;
  listType?: string;
  index?: number;
  startSeconds?: number;
  suggestedQuality?: string;
}
