import type { PlayerModel } from './playerModel';
import { availableQualityLevels, AVAILABLE_PLAYBACK_RATES, captionTracksOf, formatsOf, pickCaptionTrack, qualityFormatsOf } from './playerModel';
import type { PlayerStateValue } from './playerState';
import type { CaptionTrackData, PlayerInfo, ProgressState } from './types';
import type { StreamFormat } from '../config/playerConfig';

/** What the page reads off the `<video>` element for a snapshot (plain data, so this file stays pure). */
export interface MediaSnapshot {
  currentTime: number;
  /** NaN or Infinity until metadata is known. */
  duration: number;
  /** 0–1, as the element has it. */
  volume: number;
  muted: boolean;
  playbackRate: number;
  /** Buffered time ranges in seconds, `[start, end]`. */
  buffered: [number, number][];
  videoWidth: number;
  videoHeight: number;
  /** The element's layout box in the page, CSS pixels. */
  box: { left: number; top: number; width: number; height: number };
}

export const EMPTY_MEDIA_SNAPSHOT: MediaSnapshot = {
  currentTime: 0,
  duration: NaN,
  volume: 1,
  muted: false,
  playbackRate: 1,
  buffered: [],
  videoWidth: 0,
  videoHeight: 0,
  box: { left: 0, top: 0, width: 0, height: 0 },
};

const finite = (n: number, d = 0) => (Number.isFinite(n) ? n : d);
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Where the picture is drawn inside the element's box with `object-fit: contain` (letterboxed): the rectangle a
 * host reads as `videoContentRect`. Without a known picture size, the whole box.
 */
export function videoContentRect(box: MediaSnapshot['box'], videoWidth: number, videoHeight: number): PlayerInfo['videoContentRect'] {
  if (!(videoWidth > 0 && videoHeight > 0 && box.width > 0 && box.height > 0)) return { ...box };
  const scale = Math.min(box.width / videoWidth, box.height / videoHeight);
  const width = round3(videoWidth * scale);
  const height = round3(videoHeight * scale);
  return { left: round3(box.left + (box.width - width) / 2), top: round3(box.top + (box.height - height) / 2), width, height };
}

/** The share of the video buffered (sum of the buffered ranges over the duration), 0–1. */
export function loadedFraction(buffered: readonly [number, number][], duration: number): number {
  if (!(duration > 0) || !Number.isFinite(duration)) return 0;
  const seconds = buffered.reduce((sum, [s, e]) => sum + Math.max(0, Math.min(e, duration) - Math.max(0, s)), 0);
  return Math.min(1, Math.max(0, seconds / duration));
}

/** The end of the buffered range that holds `time` (`time` itself when none does). */
export function bufferedAhead(buffered: readonly [number, number][], time: number): number {
  const range = buffered.find(([s, e]) => s <= time + 0.001 && time <= e + 0.001);
  return range ? range[1] : time;
}

export interface PlayerInfoOptions {
  /** The page origin, for `videoUrl` and `videoEmbedCode` (no host or port is invented). */
  origin: string;
  /** Wall-clock milliseconds at which the element was read. */
  nowMs: number;
}

/** What a snapshot takes from the model alone: built once per model (and origin), shared by every snapshot of it. */
interface ModelParts {
  origin: string;
  format: StreamFormat | undefined;
  duration: number;
  bytesTotal: number;
  captionTracks: CaptionTrackData[];
  captionTrack: CaptionTrackData | null;
  videoData: PlayerInfo['videoData'];
  availableQualityLevels: string[];
  availablePlaybackRates: number[];
  videoUrl: string;
  videoEmbedCode: string;
  playlist: string[] | null;
  sphericalProperties: Record<string, unknown>;
  videoKnown: boolean;
}

/**
 * Models are replaced, never mutated (`reducePlayer`): the parts of a snapshot that depend on the model alone are
 * built once per model and shared by all its snapshots. Between two playback ticks the snapshots then hold
 * the very same `videoData`, `captionTracks`, `availableQualityLevels`, … objects, and every comparison of them
 * (`sameValue`: host deliveries, the host protocol, the player view) is one `===` instead of two `JSON.stringify`s.
 */
const modelParts = new WeakMap<PlayerModel, ModelParts>();
/** The caption tracks of a video without any: one frozen list for all (snapshots are read-only). */
const NO_CAPTION_TRACKS: CaptionTrackData[] = Object.freeze([]) as unknown as CaptionTrackData[];

/**
 * What a snapshot takes from the response alone, built once per response: the models of one response — a looping
 * playlist reuses the response it has; a caption or quality change makes a new model — share the same track list and
 * quality levels. Their captions module (`captionsApiInfo`) is then the same object, and comparing their snapshots
 * is `===`, not JSON, at every loop of a looping video. A video the host loads again is a new response:
 * `syncApi` in the host protocol keeps its equal captions module.
 */
const responseParts = new WeakMap<object, { captionTracks: CaptionTrackData[]; availableQualityLevels: string[] }>();

function responsePartsOf(
  response: PlayerModel['response'],
  formats: ReturnType<typeof qualityFormatsOf>,
  tracks: ReturnType<typeof captionTracksOf>,
): { captionTracks: CaptionTrackData[]; availableQualityLevels: string[] } {
  const cached = response ? responseParts.get(response) : undefined;
  if (cached) return cached;
  const parts = {
    // No tracks is one shared empty list, so the captions module of every model without tracks is the same object.
    captionTracks:
      tracks.length === 0
        ? NO_CAPTION_TRACKS
        : tracks.map((t, i) => ({ languageCode: t.languageCode, languageName: t.languageName, displayName: t.languageName, kind: '', is_default: i === 0 })),
    availableQualityLevels: availableQualityLevels(formats),
  };
  if (response) responseParts.set(response, parts);
  return parts;
}

function partsOf(model: PlayerModel, origin: string): ModelParts {
  const cached = modelParts.get(model);
  if (cached && cached.origin === origin) return cached;
  const response = model.response;
  const details = response?.videoDetails;
  const formats = formatsOf(response);
  const tracks = captionTracksOf(response);
  const { captionTracks, availableQualityLevels: levels } = responsePartsOf(response, qualityFormatsOf(model), tracks);
  const active = model.captions.enabled ? pickCaptionTrack(tracks, model.captions.languageCode) : undefined;
  const id = details?.videoId ?? model.videoId;
  const embedUrl = `${origin}/embed/${encodeURIComponent(id)}`;
  const p = model.playlist;
  const parts: ModelParts = {
    origin,
    format: formats.find((f) => f.quality === model.quality),
    duration: details?.lengthSeconds ?? 0,
    bytesTotal: 0,
    captionTracks,
    captionTrack: active ? (captionTracks[tracks.indexOf(active)] ?? null) : null,
    videoData: {
      video_id: id,
      title: details?.title ?? '',
      author: details?.author ?? '',
      ...(p?.listId ? { list: p.listId } : {}),
      isPlayable: response?.playabilityStatus.status === 'OK' && !model.error,
      errorCode: model.error?.internal ?? null,
    },
    availableQualityLevels: levels,
    availablePlaybackRates: [...AVAILABLE_PLAYBACK_RATES],
    videoUrl: id ? embedUrl : '',
    videoEmbedCode: id
      ? `<iframe width="640" height="360" src="${embedUrl}" title="${(details?.title ?? '').replace(/[&<>"]/g, '')}" frameborder="0" allow="autoplay; encrypted-media; fullscreen; picture-in-picture" allowfullscreen></iframe>`
      : '',
    playlist: p ? [...p.ids] : null,
    sphericalProperties: {},
    videoKnown: response !== null || model.error !== null,
  };
  parts.bytesTotal = parts.format?.contentLength ?? 0;
  modelParts.set(model, parts);
  return parts;
}

/** What a snapshot takes from the layout: shared while the box (re-read on a layout change only) and picture size stay. */
const layoutParts = new WeakMap<
  MediaSnapshot['box'],
  { videoWidth: number; videoHeight: number; rect: PlayerInfo['videoContentRect']; size: PlayerInfo['size'] }
>();

function layoutOf(media: MediaSnapshot): { rect: PlayerInfo['videoContentRect']; size: PlayerInfo['size'] } {
  const cached = layoutParts.get(media.box);
  if (cached && cached.videoWidth === media.videoWidth && cached.videoHeight === media.videoHeight) return cached;
  const parts = {
    videoWidth: media.videoWidth,
    videoHeight: media.videoHeight,
    rect: videoContentRect(media.box, media.videoWidth, media.videoHeight),
    size: { width: Math.round(media.box.width), height: Math.round(media.box.height) },
  };
  layoutParts.set(media.box, parts);
  return parts;
}

/**
 * The full snapshot a host reads (spec §3 "Player info delivered to the host", host-protocol §5), from the engine's
 * model, the player state and what the element says: bytes and loaded fraction from the buffered ranges and the
 * rendition's file size, the content rect from layout, the duration from the element once known (the catalogue's
 * length before, never 0 for a known video).
 *
 * Built on every playback tick: what depends on the model or the layout alone is shared between snapshots (see
 * {@link modelParts}); treat a snapshot and everything in it as read-only.
 */
export function buildPlayerInfo(model: PlayerModel, media: MediaSnapshot, playerState: PlayerStateValue, { origin, nowMs }: PlayerInfoOptions): PlayerInfo {
  const parts = partsOf(model, origin);
  const layout = layoutOf(media);
  const duration = round3(finite(media.duration, 0) > 0 ? media.duration : parts.duration);
  const currentTime = round3(Math.max(0, finite(media.currentTime)));
  const fraction = model.quality ? loadedFraction(media.buffered, finite(media.duration, 0)) : 0;
  const progressState: ProgressState = {
    current: currentTime,
    duration,
    loaded: round3(bufferedAhead(media.buffered, currentTime)),
    seekableStart: 0,
    seekableEnd: duration,
    allowSeeking: model.quality !== '',
    clipStart: model.startSeconds,
    clipEnd: model.endSeconds,
    displayedStart: 0,
    isAtLiveHead: false,
    offset: 0,
  };
  const p = model.playlist;
  return {
    playerState,
    currentTime,
    currentTimeLastUpdated_: nowMs / 1000,
    duration,
    videoData: parts.videoData,
    // A stream counts what it fetched; a file, its size times what the element has buffered.
    videoBytesLoaded: model.streamBytes ? model.streamBytes.loaded : Math.round(fraction * parts.bytesTotal),
    videoBytesTotal: model.streamBytes ? model.streamBytes.total : parts.bytesTotal,
    videoStartBytes: 0,
    videoLoadedFraction: round3(fraction),
    playbackQuality: model.quality || 'unknown',
    availableQualityLevels: parts.availableQualityLevels,
    playbackRate: media.playbackRate,
    availablePlaybackRates: parts.availablePlaybackRates,
    mediaReferenceTime: currentTime,
    videoUrl: parts.videoUrl,
    videoEmbedCode: parts.videoEmbedCode,
    videoContentRect: layout.rect,
    progressState,
    playlist: parts.playlist,
    playlistIndex: p ? p.index : -1,
    playlistId: p?.listId ?? null,
    muted: media.muted,
    volume: Math.round(media.volume * 100),
    captionTracks: parts.captionTracks,
    captionTrack: parts.captionTrack,
    subtitlesUserSettings: model.subtitlesUserSettings,
    sphericalProperties: parts.sphericalProperties,
    size: model.size.width > 0 && model.size.height > 0 ? model.size : layout.size,
    loop: model.loop,
    shuffle: model.shuffle,
    videoKnown: parts.videoKnown,
  };
}
