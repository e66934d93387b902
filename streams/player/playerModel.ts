/**
 * What the player engine knows besides the media element: the loaded video's response, the chosen rendition, the
 * clip (start/end seconds), the playlist, loop/shuffle, captions and size. The element holds the rest (time,
 * volume, rate, buffered ranges); {@link buildPlayerInfo} puts both together.
 */
import {
  parseBooleanVar,
  parseSecondsVar,
  shouldAutoplay,
  type AdaptiveFormat,
  type CaptionTrackInfo,
  type PlayerConfig,
  type PlayerResponse,
  type StreamFormat,
} from '../config/playerConfig';
import { DEFAULT_CAPTION_DISPLAY_SETTINGS, type CaptionDisplaySettings } from './captionSettings';

/** The playback rates a viewer or a host may choose (`getAvailablePlaybackRates`). */
export const AVAILABLE_PLAYBACK_RATES: readonly number[] = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2];

/** Quality names from lowest to highest, as the host protocol spells them. */
export const QUALITY_ORDER = ['tiny', 'small', 'medium', 'large', 'hd720', 'hd1080', 'hd1440', 'hd2160', 'highres'] as const;
/** One of {@link QUALITY_ORDER}. */
export type Quality = (typeof QUALITY_ORDER)[number];

/** The rendition played when nothing (or `auto`/`default`) is asked for. */
export const DEFAULT_QUALITY = 'medium';

export interface PlaylistModel {
  ids: string[];
  /** The list id (`PL…`) when the playlist came from a list, else null. */
  listId: string | null;
  title: string | null;
  /** Titles known so far, by video id. */
  titles: Record<string, string>;
  /** Zero-based position in `ids` of the video playing. */
  index: number;
  /** When shuffled, the play order (indices of `ids`); null when not shuffled. */
  order: number[] | null;
}

export interface PlayerErrorModel {
  internal: string;
  message: string;
}

/**
 * A seek the element cannot take yet (it has no metadata: the player is ready before it has): `pending` is where the
 * element goes once its metadata is there, `target` the time the snapshot shows meanwhile, so a host hears of its seek
 * at once. A new source's start position is pending too, but it is not shown as the time (`target` stays null).
 */
export interface SeekState {
  pending: number | null;
  target: number | null;
}

/** No seek waiting. */
export const NO_SEEK: SeekState = { pending: null, target: null };

export interface PlayerModel {
  /** The requested video id ('' when none). */
  videoId: string;
  /** The answer for {@link videoId}; null while it is being fetched or after `clear`. */
  response: PlayerResponse | null;
  /** Increments on every load, so a late answer for an older load is ignored. */
  loadSeq: number;
  /** The quality asked for: a quality name or `auto`. */
  qualityPreference: string;
  /** The quality of the rendition in the element ('' when none; while streaming, until a picture shows). */
  quality: string;
  /** The response plays through its adaptive ladder (absent: through a progressive file). */
  streaming?: true;
  /** While streaming: the bytes fetched so far and in all (`streamBytes`); absent before the first segment. */
  streamBytes?: { loaded: number; total: number };
  startSeconds: number;
  endSeconds: number | null;
  /** True once playback reached {@link endSeconds}, until the next play/seek/load. */
  clipEnded: boolean;
  playlist: PlaylistModel | null;
  loop: boolean;
  shuffle: boolean;
  captions: { enabled: boolean; languageCode: string | null };
  /** The caption display settings (`getSubtitlesUserSettings`, `getOption('captions', 'displaySettings')`). */
  subtitlesUserSettings: CaptionDisplaySettings;
  size: { width: number; height: number };
  /** The failure being shown; at most one per load (spec §8: one failure reports one error). */
  error: PlayerErrorModel | null;
  /**
   * `rct` / `rctn` of the video load options (spec §3) of the load in progress: set by a `loadVideo` that carries them,
   * cleared by every other load (a playlist move, a load without them). Absent = none.
   */
  referral?: { rct?: string; rctn?: string } | null;
  /** The seek waiting for the element's metadata, if any. */
  seek: SeekState;
  /** How often the captions were reloaded: a reload asks for the files under a new URL, past every cache. */
  captionReloads: number;
  /**
   * What the host asked while the answer of the load in progress was on its way: play (true) or stay paused (false)
   * when it comes, whatever the load said; absent when nothing was asked. Reset by every load.
   */
  playOnResponse?: boolean;
}

/** A load whose answer is still on its way: commands on what plays wait for it in the model. */
export const isAwaitingResponse = (model: PlayerModel): boolean => model.videoId !== '' && model.response === null && model.error === null;

/** The formats of a response ([] when it has none). */
export const formatsOf = (response: PlayerResponse | null): StreamFormat[] => response?.streamingData?.formats ?? [];

/** The video renditions of a response's adaptive ladder, lowest bitrate first ([] without one). */
export const ladderOf = (response: PlayerResponse | null): AdaptiveFormat[] =>
  (response?.streamingData?.adaptiveFormats ?? []).filter((f) => f.kind === 'video').sort((a, b) => a.bitrate - b.bitrate);

/** Whether a response has a ladder that can play: video renditions and an audio track. */
export const hasLadder = (response: PlayerResponse | null): boolean =>
  ladderOf(response).length > 0 && (response?.streamingData?.adaptiveFormats ?? []).some((f) => f.kind === 'audio');

/** The quality levels a model offers: its ladder's while streaming, else its progressive files'. */
export const qualityFormatsOf = (model: Pick<PlayerModel, 'response' | 'streaming'>): readonly { quality?: string }[] =>
  model.streaming ? ladderOf(model.response) : formatsOf(model.response);

/** The rendition whose height is the element's (what is on screen), else the nearest by height. */
export function renditionOfHeight(video: readonly AdaptiveFormat[], height: number): AdaptiveFormat | undefined {
  let best: AdaptiveFormat | undefined;
  for (const f of video) if (!best || Math.abs((f.height ?? 0) - height) < Math.abs((best.height ?? 0) - height)) best = f;
  return best;
}

/** The caption tracks of a response ([] when it has none). */
export const captionTracksOf = (response: PlayerResponse | null): CaptionTrackInfo[] => response?.captions?.tracks ?? [];

const rank = (quality: string) => (QUALITY_ORDER as readonly string[]).indexOf(quality);

/**
 * The rendition for a preference: the exact quality, else the nearest one below it, else the lowest above it;
 * `auto`, `default` or an unknown name gets {@link DEFAULT_QUALITY} (or the nearest to it).
 */
export function pickFormat(formats: readonly StreamFormat[], preference: string): StreamFormat | undefined {
  if (formats.length === 0) return undefined;
  const wanted = rank(preference) >= 0 ? preference : DEFAULT_QUALITY;
  const exact = formats.find((f) => f.quality === wanted);
  if (exact) return exact;
  const sorted = [...formats].sort((a, b) => rank(a.quality) - rank(b.quality));
  const below = sorted.filter((f) => rank(f.quality) <= rank(wanted));
  return below.length > 0 ? below[below.length - 1] : sorted[0];
}

/** Quality levels from highest to lowest, then `auto` (what `getAvailableQualityLevels` answers); [] without formats. */
export function availableQualityLevels(formats: readonly { quality?: string }[]): string[] {
  const levels = [...new Set(formats.flatMap((f) => (f.quality ? [f.quality] : [])))];
  if (levels.length === 0) return [];
  levels.sort((a, b) => rank(b) - rank(a));
  return [...levels, 'auto'];
}

/** The primary language of a language code, the part before the first `-` (`en` of `en-GB`); the whole code without one. */
function primaryLanguage(languageCode: string): string {
  const dash = languageCode.indexOf('-');
  return dash === -1 ? languageCode : languageCode.slice(0, dash);
}

/** The track of a language (exact code, else the same primary language: `en` finds `en-GB`); undefined when none has it. */
export function findCaptionTrack(tracks: readonly CaptionTrackInfo[], languageCode: string): CaptionTrackInfo | undefined {
  const primary = primaryLanguage(languageCode).toLowerCase();
  return tracks.find((t) => t.languageCode === languageCode) ?? tracks.find((t) => primaryLanguage(t.languageCode).toLowerCase() === primary);
}

/** The caption track for a language preference: that language, else the first track; undefined without tracks. */
export function pickCaptionTrack(tracks: readonly CaptionTrackInfo[], languageCode: string | null | undefined): CaptionTrackInfo | undefined {
  return (
    tracks.find((t) => t.languageCode === languageCode) ??
    tracks.find((t) => languageCode && primaryLanguage(t.languageCode) === primaryLanguage(languageCode)) ??
    tracks[0]
  );
}

/** The nearest available playback rate to `rate` (NaN and non-numbers give undefined). */
export function nearestPlaybackRate(rate: unknown): number | undefined {
  if (typeof rate !== 'number' || !Number.isFinite(rate)) return undefined;
  // No initial value: the first rate is where the search starts (the list is a non-empty constant).
  return AVAILABLE_PLAYBACK_RATES.reduce((best, r) => (Math.abs(r - rate) < Math.abs(best - rate) ? r : best));
}

/** `playlist=a,b,c` → ids (only well-formed ones, at most 200). */
export function parsePlaylistVar(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^[A-Za-z0-9_-]{11}$/.test(s))
    .slice(0, 200);
}

/**
 * The model a page starts with, from its configuration: the inlined response (not yet in the element), the
 * `start`/`end`/`loop`/`cc_load_policy`/`cc_lang_pref` variables and a `playlist=` id list (the configured video
 * first, as the public embed plays it).
 */
export function initialPlayerModel(config: PlayerConfig): PlayerModel {
  const vars = config.args.playerVars;
  const extra = parsePlaylistVar(vars.playlist);
  const ids = extra.length > 0 ? (extra[0] === config.args.video_id ? extra : [config.args.video_id, ...extra]) : [];
  const end = parseSecondsVar(vars.end);
  const start = parseSecondsVar(vars.start) ?? 0;
  const title = config.args.player_response.videoDetails?.title;
  return {
    videoId: config.args.video_id,
    response: null,
    loadSeq: 0,
    qualityPreference: 'auto',
    quality: '',
    startSeconds: start,
    endSeconds: end !== undefined && end > start ? end : null,
    clipEnded: false,
    playlist: ids.length > 0 ? { ids, listId: null, title: null, titles: title ? { [config.args.video_id]: title } : {}, index: 0, order: null } : null,
    loop: parseBooleanVar(vars.loop) === true,
    shuffle: false,
    captions: { enabled: vars.cc_load_policy === '1', languageCode: vars.cc_lang_pref ?? vars.hl ?? null },
    subtitlesUserSettings: DEFAULT_CAPTION_DISPLAY_SETTINGS,
    size: { width: 0, height: 0 },
    error: null,
    seek: NO_SEEK,
    captionReloads: 0,
  };
}

/** Whether the configuration asks to play at once (spec §4). */
export const configAutoplay = (config: PlayerConfig): boolean => shouldAutoplay(config.args.autoplay);

/**
 * The `<video>` the server writes into the embed page, so that the media request starts with the HTML
 * instead of after the scripts: the source, preload and attributes the player gives the element for the configured
 * video on its first mount (the same rendition as {@link pickFormat} with no preference). The player then adopts the
 * element and keeps its source. Undefined when the first source is not known before the page runs: a playlist to
 * fetch (`list`), a response that cannot play, no rendition.
 */
export interface EarlyMedia {
  src: string;
  /** `auto` when the video will play at once, `metadata` when it is cued. */
  preload: 'auto' | 'metadata';
  /**
   * The browser may start it before any script runs (the first frame does not wait for the page's script): a muted
   * video that plays at once from its start. A `start` position is the script's to seek to first, and a video with
   * sound waits for the script, which applies the viewer's stored volume and mute: neither gets autoplay.
   */
  autoplay: boolean;
  muted: boolean;
  playsInline: boolean;
  poster?: string;
  /** The video's title, the element's accessible name (as the controls set it). */
  title?: string;
}

export function earlyMediaOf(config: PlayerConfig): EarlyMedia | undefined {
  const vars = config.args.playerVars;
  const response = config.args.player_response;
  if (vars.list || response.playabilityStatus?.status !== 'OK') return undefined;
  // A video with a ladder streams it: the script attaches the stream, the page gives the element no file to start.
  const format = hasLadder(response) ? undefined : pickFormat(response.streamingData?.formats ?? [], 'auto');
  if (!format) return undefined;
  const poster = response.videoDetails?.thumbnailUrl;
  const plays = shouldAutoplay(config.args.autoplay);
  const muted = parseBooleanVar(vars.mute) === true;
  return {
    src: format.url,
    preload: plays ? 'auto' : 'metadata',
    autoplay: plays && muted && (parseSecondsVar(vars.start) ?? 0) === 0,
    muted,
    playsInline: parseBooleanVar(vars.playsinline) !== false,
    ...(poster ? { poster } : {}),
    ...(response.videoDetails?.title ? { title: response.videoDetails.title } : {}),
  };
}
