import type { ClientEvent } from './stampEvent';
import { ERROR_MESSAGE_MAX_CHARS as MEDIA_ERROR_MESSAGE_MAX_CHARS } from '../timing';

/**
 * The catalogue of what the player logs: enough to rebuild a viewing session at the collector.
 * Each builder is pure and returns a {@link ClientEvent} for the log sink; the payload key on the wire is the event
 * name. Times are seconds of media time (`…Sec`) or milliseconds (`…Ms`), as the field name says.
 */

/** Player states as the host protocol numbers them (-1 unstarted, 0 ended, 1 playing, 2 paused, 3 buffering, 5 cued). */
export type LoggedPlayerState = -1 | 0 | 1 | 2 | 3 | 5;

export interface PlayerLoadPayload {
  videoId: string;
  autoplay: boolean;
  /** The embedding page's origin, when framed. */
  hostOrigin?: string;
  playerStyle?: string;
}
export interface PlayerReadyPayload {
  videoId: string;
  /** From page start (or load) to player ready. */
  latencyMs: number;
}
export interface PlayerStateChangePayload {
  videoId: string;
  previousState: LoggedPlayerState;
  state: LoggedPlayerState;
  mediaTimeSec: number;
}
export interface WatchTimeSegmentPayload {
  videoId: string;
  /** Media time where the segment of continuous playback started and ended. */
  startSec: number;
  endSec: number;
  playbackRate: number;
  muted: boolean;
  /** 0–100. */
  volume: number;
}
export interface SeekPayload {
  videoId: string;
  fromSec: number;
  toSec: number;
}
export interface QualityChangePayload {
  videoId: string;
  previousQuality: string;
  quality: string;
}
export interface PlaybackRateChangePayload {
  videoId: string;
  previousRate: number;
  rate: number;
}
export interface VolumeChangePayload {
  videoId: string;
  volume: number;
  muted: boolean;
}
export interface HostCommandPayload {
  /** The command name (`playVideo`, `seekTo`, `loadVideoById`, …). */
  command: string;
  hostOrigin: string;
  /** False when the player was not ready or the method is not exposed to that origin (spec §5). */
  accepted: boolean;
}
export interface VisibilityChangePayload {
  state: 'unknown' | 'visible' | 'hidden' | 'foregrounded' | 'backgrounded';
}
export interface NetworkChangePayload {
  online: boolean;
  effectiveConnectionType?: string;
}
export interface PlayerErrorPayload {
  videoId?: string;
  /** The internal error (`fmt.unplayable`, `api.invalidparam`, …). */
  internalError: string;
  /** The code the host receives (2, 5, 150, 151, 152). */
  hostErrorCode: number;
  message?: string;
}

/** A stall: playback was under way and the player waited for data (debugging, `video_stats`). */
export interface PlaybackStallPayload {
  videoId: string;
  /** Media time where it stalled. */
  mediaTimeSec: number;
  /** From entering buffering to leaving it. */
  durationMs: number;
}
/** The media element failed (debugging, `video_stats`): what the browser said, beyond the host's error code. */
export interface MediaErrorPayload {
  videoId: string;
  /** `MediaError.code`: 1 aborted, 2 network, 3 decode, 4 source not supported. */
  code: number;
  /** `MediaError.message` (browser-specific; may be empty). */
  message: string;
  mediaTimeSec: number;
}

/** Quality of experience: from the video's load to its first frame playing. */
export interface StartupTimePayload {
  videoId: string;
  startupMs: number;
}
/** Quality of experience: playback under way waited for data (`waiting` after playback started, not a seek). */
export interface RebufferStartPayload {
  videoId: string;
  mediaTimeSec: number;
}
/** Quality of experience: the rebuffer ended (playing again, or paused or ended while waiting). */
export interface RebufferEndPayload {
  videoId: string;
  mediaTimeSec: number;
  /** From the rebuffer's start to its end. */
  durationMs: number;
}
/** Quality of experience: the rendition on screen changed (not the first one). */
export interface QualitySwitchPayload {
  videoId: string;
  /** Why the adaptive stream chose the new rendition (`startup`, `throughput`, `buffer`, `cap`, …; `unknown` without a decision). */
  reason: string;
  fromQuality: string;
  toQuality: string;
  /** The renditions' advertised bits per second (0 when unknown). */
  fromBitrate: number;
  toBitrate: number;
}
/** Quality of experience: how long one rendition was on screen while playing, closed by a switch or by playback stopping. */
export interface RenditionPlayedPayload {
  videoId: string;
  quality: string;
  /** Its advertised bits per second (0 when unknown). */
  bitrate: number;
  durationMs: number;
}
/** Quality of experience: the adaptive stream's bandwidth estimate (throttled). */
export interface BandwidthEstimatePayload {
  videoId: string;
  bps: number;
}

export interface LatencyReportPayload {
  /** The action the ticks belong to (`embed`, …). */
  action: string;
  /** The tick the span starts at (`navigationStart`) and the one it ends at (`playerReady`). */
  from: string;
  to: string;
  durationMs: number;
}

/** Application navigation (spec §4): `application_navigating` when a load, cue or playlist move starts, `none` 5 s later. */
export interface NavigationStateChangePayload {
  state: 'none' | 'application_navigating';
}
/** A video load after the first (a host load/cue or a playlist move), with its tracking parameters. */
export interface VideoLoadPayload {
  videoId: string;
  /** `rct` / `rctn` of the video load options (spec §3), serialised as `rct=…&rctn=…` and cut at 500 characters (§9). */
  trackingParams?: string;
}
/** A visual element shown for the first time in this page (kept in the attach cache of spec §9, 1000 entries). */
export interface VisualElementAttachedPayload {
  /** The kind of element: `video` (a video shown in the player). */
  ve: string;
  videoId: string;
}
/** A local-database report (spec §8 codes), logged for most kinds at the storage-event sample rate (20 %, spec §9). */
export interface StorageEventPayload {
  type: string;
  message: string;
  /** False for kinds that are always logged. */
  sampled: boolean;
}
/** What became of a log request stored in the retry queue, sampled at the stored-log rate (10 %, spec §9). */
export interface StoredLogRequestPayload {
  action: 'resent' | 'dropped';
  sendCount: number;
}

/** Every event the player logs, by name. */
export interface PlayerEventPayloads {
  playerLoad: PlayerLoadPayload;
  playerReady: PlayerReadyPayload;
  playerStateChange: PlayerStateChangePayload;
  watchTimeSegment: WatchTimeSegmentPayload;
  playerSeek: SeekPayload;
  qualityChange: QualityChangePayload;
  playbackRateChange: PlaybackRateChangePayload;
  volumeChange: VolumeChangePayload;
  hostCommandReceived: HostCommandPayload;
  visibilityChange: VisibilityChangePayload;
  networkChange: NetworkChangePayload;
  playerError: PlayerErrorPayload;
  latencyReport: LatencyReportPayload;
  playbackStall: PlaybackStallPayload;
  mediaError: MediaErrorPayload;
  navigationStateChange: NavigationStateChangePayload;
  videoLoad: VideoLoadPayload;
  visualElementAttached: VisualElementAttachedPayload;
  storageEvent: StorageEventPayload;
  storedLogRequest: StoredLogRequestPayload;
  startupTime: StartupTimePayload;
  rebufferStart: RebufferStartPayload;
  rebufferEnd: RebufferEndPayload;
  qualitySwitch: QualitySwitchPayload;
  renditionPlayed: RenditionPlayedPayload;
  bandwidthEstimate: BandwidthEstimatePayload;
}

export type PlayerEventName = keyof PlayerEventPayloads;

/** One player event as the sink takes it. */
export type PlayerLogEvent = { [N in PlayerEventName]: ClientEvent<N, PlayerEventPayloads[N]> }[PlayerEventName];

/** A finite number, or 0 (a NaN duration or media time must not poison the log). */
const num = (n: number): number => (Number.isFinite(n) ? n : 0);
/** Milliseconds are whole and never negative. */
const ms = (n: number): number => Math.max(0, Math.round(num(n)));

const event = <N extends PlayerEventName>(name: N, payload: PlayerEventPayloads[N], debug?: boolean): ClientEvent<N, PlayerEventPayloads[N]> =>
  debug ? { name, payload, debug } : { name, payload };

/** Pure builders, one per event of the catalogue. `debug: true` routes an event to `video_stats`. */
export const playerEvents = {
  load: (p: PlayerLoadPayload) => event('playerLoad', { ...p, autoplay: Boolean(p.autoplay) }),
  ready: (p: PlayerReadyPayload) => event('playerReady', { ...p, latencyMs: ms(p.latencyMs) }),
  stateChange: (p: PlayerStateChangePayload) => event('playerStateChange', { ...p, mediaTimeSec: num(p.mediaTimeSec) }),
  watchTimeSegment: (p: WatchTimeSegmentPayload) =>
    event('watchTimeSegment', {
      ...p,
      startSec: num(p.startSec),
      endSec: Math.max(num(p.startSec), num(p.endSec)),
      playbackRate: num(p.playbackRate) || 1,
      volume: Math.min(100, Math.max(0, num(p.volume))),
    }),
  seek: (p: SeekPayload) => event('playerSeek', { ...p, fromSec: num(p.fromSec), toSec: num(p.toSec) }),
  qualityChange: (p: QualityChangePayload) => event('qualityChange', p),
  playbackRateChange: (p: PlaybackRateChangePayload) => event('playbackRateChange', { ...p, previousRate: num(p.previousRate), rate: num(p.rate) }),
  volumeChange: (p: VolumeChangePayload) => event('volumeChange', { ...p, volume: Math.min(100, Math.max(0, num(p.volume))) }),
  hostCommand: (p: HostCommandPayload) => event('hostCommandReceived', p),
  visibilityChange: (p: VisibilityChangePayload) => event('visibilityChange', p),
  networkChange: (p: NetworkChangePayload) => event('networkChange', p),
  error: (p: PlayerErrorPayload) => event('playerError', p),
  latency: (p: LatencyReportPayload) => event('latencyReport', { ...p, durationMs: ms(p.durationMs) }),
  navigationStateChange: (p: NavigationStateChangePayload) => event('navigationStateChange', p),
  videoLoad: (p: VideoLoadPayload) => event('videoLoad', p),
  visualElementAttached: (p: VisualElementAttachedPayload) => event('visualElementAttached', p),
  storageEvent: (p: StorageEventPayload) => event('storageEvent', p),
  storedLogRequest: (p: StoredLogRequestPayload) => event('storedLogRequest', { ...p, sendCount: Math.max(0, Math.trunc(num(p.sendCount))) }),
  startupTime: (p: StartupTimePayload) => event('startupTime', { ...p, startupMs: ms(p.startupMs) }),
  rebufferStart: (p: RebufferStartPayload) => event('rebufferStart', { ...p, mediaTimeSec: num(p.mediaTimeSec) }),
  rebufferEnd: (p: RebufferEndPayload) => event('rebufferEnd', { ...p, mediaTimeSec: num(p.mediaTimeSec), durationMs: ms(p.durationMs) }),
  qualitySwitch: (p: QualitySwitchPayload) => event('qualitySwitch', { ...p, fromBitrate: ms(p.fromBitrate), toBitrate: ms(p.toBitrate) }),
  renditionPlayed: (p: RenditionPlayedPayload) => event('renditionPlayed', { ...p, bitrate: ms(p.bitrate), durationMs: ms(p.durationMs) }),
  bandwidthEstimate: (p: BandwidthEstimatePayload) => event('bandwidthEstimate', { ...p, bps: ms(p.bps) }),
  /** Debugging events (`video_stats`) by nature: they help debug playback, not rebuild a session. */
  playbackStall: (p: PlaybackStallPayload) => event('playbackStall', { ...p, mediaTimeSec: num(p.mediaTimeSec), durationMs: ms(p.durationMs) }, true),
  mediaError: (p: MediaErrorPayload) =>
    event(
      'mediaError',
      { ...p, code: Math.trunc(num(p.code)), message: String(p.message ?? '').slice(0, MEDIA_ERROR_MESSAGE_MAX_CHARS), mediaTimeSec: num(p.mediaTimeSec) },
      true,
    ),
  /** Any catalogue event as a debugging event (goes to `video_stats`). */
  asDebug: <E extends PlayerLogEvent>(e: E): E => ({ ...e, debug: true }),
} as const;
