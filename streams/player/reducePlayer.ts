import type { CaptionTrackInfo, PlayerResponse } from '../config/playerConfig';
import { internalErrorForMediaError } from './errorCodes';
import { CAPTIONS_MODULE_NAMES, captionFontSize, mergeCaptionDisplaySettings } from './captionSettings';
import {
  captionTracksOf,
  findCaptionTrack,
  formatsOf,
  nearestPlaybackRate,
  pickCaptionTrack,
  pickFormat,
  type PlayerModel,
  type PlaylistModel,
} from './playerModel';
import { PlayerState, type PlayerStateInput, type PlayerStateValue } from './playerState';
import type { PlayerCommand, VideoLoadOptions } from './types';
import { videoIdFromUrl } from './videoIdFromUrl';
import { isValidVideoId } from '../config/playerConfig';

/** What the engine learns besides commands: answers to its fetches and the element's events that need a decision. */
export type EngineInput =
  | PlayerCommand
  | { type: 'videoResponse'; seq: number; response: PlayerResponse; autoplay: boolean }
  | {
      type: 'playlistResponse';
      seq: number;
      listId: string;
      title: string;
      ids: string[];
      titles: Record<string, string>;
      index: number;
      autoplay: boolean;
      startSeconds: number;
    }
  | { type: 'requestFailed'; seq: number; internal: string; message: string }
  | { type: 'mediaEnded' }
  | { type: 'timeUpdate'; currentTime: number }
  | { type: 'mediaError'; code: number | undefined };

/** What the engine asks the element and the network to do (the page performs them, in order). */
export type PlayerAction =
  | { type: 'state'; input: PlayerStateInput }
  /** Put a rendition into the element (null empties it), seek to `startSeconds` once metadata is known, play if asked. */
  | { type: 'source'; url: string | null; startSeconds: number; play: boolean; captions: CaptionTrackInfo[] }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'seek'; seconds: number }
  | { type: 'muted'; muted: boolean }
  /** 0–100. */
  | { type: 'volume'; volume: number }
  | { type: 'rate'; rate: number }
  /** Show this caption language, or none. */
  | { type: 'captions'; languageCode: string | null }
  /** Fetch these caption tracks again (bypassing caches), then show this language, or none. */
  | { type: 'reloadCaptions'; captions: CaptionTrackInfo[]; languageCode: string | null }
  /**
   * Ask for the video's player response. `reuse`: the response of the video that just played, when the playlist comes
   * back to that same video by itself (a looping playlist of one: `loop=1&playlist=<id>`); the engine answers with it
   * at once instead of asking the network again (issue 15). The load is otherwise the same: new sequence number, the
   * same state changes and snapshots for the host, a new playback for the pings.
   */
  | { type: 'fetchVideo'; seq: number; videoId: string; autoplay: boolean; reuse?: PlayerResponse }
  | { type: 'fetchPlaylist'; seq: number; listId: string; index: number; autoplay: boolean; startSeconds: number }
  | { type: 'error'; internal: string; message: string }
  | { type: 'apiChange' };

/** What the reducer reads from the page at the moment an input arrives. */
export interface EngineContext {
  /** The element's current time in seconds. */
  currentTime: number;
  state: PlayerStateValue;
  /** Uniform in [0, 1): shuffling. */
  random: () => number;
}

export interface PlayerStep {
  model: PlayerModel;
  actions: PlayerAction[];
}

const MESSAGES: Record<string, string> = {
  'api.invalidparam': 'This video id is not valid.',
  'fmt.noneavailable': 'This video has no playable format.',
  'fmt.unplayable': 'This video cannot be played.',
  'fmt.decode': 'This video file is damaged and cannot be played.',
  'net.unknown': 'The video could not be loaded. Check your connection and try again.',
};
const messageFor = (internal: string, fallback?: string) => fallback ?? MESSAGES[internal] ?? 'This video is unavailable.';

const isActive = (state: PlayerStateValue) => state === PlayerState.PLAYING || state === PlayerState.BUFFERING;

/** Records the first failure of a load; a second one for the same load is dropped (one failure, one error). */
function fail(model: PlayerModel, internal: string, message?: string): PlayerStep {
  if (model.error) return { model, actions: [] };
  const error = { internal, message: messageFor(internal, message) };
  return { model: { ...model, error }, actions: [{ type: 'pause' }, { type: 'error', ...error }] };
}

/** Starts loading a video id: the state goes to -1 (load) or 5 (cue, which pauses the element) and the response is fetched. */
function startLoad(
  model: PlayerModel,
  videoId: string,
  autoplay: boolean,
  clip: { startSeconds: number; endSeconds: number | null; quality?: string },
  playlist: PlaylistModel | null,
  reuse?: PlayerResponse,
): PlayerStep {
  const seq = model.loadSeq + 1;
  const next: PlayerModel = {
    ...model,
    videoId,
    response: null,
    loadSeq: seq,
    qualityPreference: clip.quality ?? model.qualityPreference,
    quality: '',
    startSeconds: clip.startSeconds,
    endSeconds: clip.endSeconds !== null && clip.endSeconds > clip.startSeconds ? clip.endSeconds : null,
    clipEnded: false,
    playlist,
    error: null,
    referral: null,
  };
  const state: PlayerAction = { type: 'state', input: { type: autoplay ? 'load' : 'cue' } };
  if (!isValidVideoId(videoId)) {
    const failed = fail({ ...next, response: { playabilityStatus: { status: 'ERROR', errorCode: 'api.invalidparam' } } }, 'api.invalidparam');
    return { model: failed.model, actions: [{ type: 'source', url: null, startSeconds: 0, play: false, captions: [] }, state, ...failed.actions] };
  }
  const fetch: PlayerAction = { type: 'fetchVideo', seq, videoId, autoplay, ...(reuse && { reuse }) };
  // A cue stops what plays at once: the video it replaces must not play on (and send its events) under a "cued"
  // state while the cued video's answer is on its way. A load plays the new video when it comes.
  return { model: next, actions: autoplay ? [state, fetch] : [state, { type: 'pause' }, fetch] };
}

/** Puts a fetched response into the element (or reports why it cannot play). */
function applyResponse(model: PlayerModel, response: PlayerResponse, autoplay: boolean): PlayerStep {
  const withResponse = { ...model, response };
  const status = response.playabilityStatus;
  if (status.status !== 'OK') {
    const failed = fail(withResponse, status.errorCode ?? 'fmt.unplayable', status.reason);
    return { model: failed.model, actions: [{ type: 'source', url: null, startSeconds: 0, play: false, captions: [] }, ...failed.actions] };
  }
  const format = pickFormat(formatsOf(response), model.qualityPreference);
  if (!format) {
    const failed = fail(withResponse, 'fmt.noneavailable');
    return { model: failed.model, actions: [{ type: 'source', url: null, startSeconds: 0, play: false, captions: [] }, ...failed.actions] };
  }
  const tracks = captionTracksOf(response);
  const track = model.captions.enabled ? pickCaptionTrack(tracks, model.captions.languageCode) : undefined;
  const playlist =
    model.playlist && response.videoDetails
      ? { ...model.playlist, titles: { ...model.playlist.titles, [response.videoDetails.videoId]: response.videoDetails.title } }
      : model.playlist;
  const actions: PlayerAction[] = [
    { type: 'source', url: format.url, startSeconds: model.startSeconds, play: autoplay, captions: tracks },
    { type: 'captions', languageCode: track?.languageCode ?? null },
  ];
  if (tracks.length > 0) actions.push({ type: 'apiChange' });
  return { model: { ...withResponse, quality: format.quality, playlist }, actions };
}

/**
 * `setOption('captions', option, value)` (the IFrame API's captions module; `cc` is its alias). A bad value changes
 * nothing:
 * - `track`: `{languageCode}` shows that track (exact code, else the same primary language; an unknown language is
 *   ignored); an object without a language code (`{}`) turns captions off;
 * - `fontSize`: an integer from -1 (small) to 3 (largest);
 * - `displaySettings`: the valid keys of an object are applied (see `captionSettings`);
 * - `reload`: `true` fetches the tracks again and keeps showing the current one.
 */
function setCaptionsOption(model: PlayerModel, input: Extract<EngineInput, { type: 'setOption' }>, ctx: EngineContext): PlayerStep {
  const none: PlayerStep = { model, actions: [] };
  if (!CAPTIONS_MODULE_NAMES.includes(input.module)) return none;
  const value = input.value;
  const withSettings = (settings: PlayerModel['subtitlesUserSettings']): PlayerStep =>
    settings === model.subtitlesUserSettings ? none : { model: { ...model, subtitlesUserSettings: settings }, actions: [] };
  switch (input.option) {
    case 'track': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return none;
      const code = (value as { languageCode?: unknown }).languageCode;
      if (code === undefined || code === null || code === '') return reducePlayer(model, { type: 'setCaptions', enabled: false }, ctx);
      if (typeof code !== 'string') return none;
      const track = findCaptionTrack(captionTracksOf(model.response), code);
      return track ? reducePlayer(model, { type: 'setCaptions', enabled: true, languageCode: track.languageCode }, ctx) : none;
    }
    case 'fontSize': {
      const size = captionFontSize(value);
      return size === undefined ? none : withSettings(mergeCaptionDisplaySettings(model.subtitlesUserSettings, { fontSizeIncrement: size }));
    }
    case 'displaySettings':
      return withSettings(mergeCaptionDisplaySettings(model.subtitlesUserSettings, value));
    case 'reload': {
      const tracks = captionTracksOf(model.response);
      if (value !== true || tracks.length === 0) return none;
      const shown = model.captions.enabled ? (pickCaptionTrack(tracks, model.captions.languageCode)?.languageCode ?? null) : null;
      return { model, actions: [{ type: 'reloadCaptions', captions: tracks, languageCode: shown }] };
    }
  }
  return none;
}

/** The positions of the playlist in play order (the shuffled order when shuffled). */
const playOrder = (p: PlaylistModel) => p.order ?? p.ids.map((_, i) => i);

/** Moves the playlist by `step` in play order; wraps when looping; undefined past either end without loop. */
function playlistIndexAfter(p: PlaylistModel, step: 1 | -1, loop: boolean): number | undefined {
  const order = playOrder(p);
  const pos = Math.max(0, order.indexOf(p.index));
  const next = pos + step;
  if (next >= 0 && next < order.length) return order[next];
  if (!loop) return undefined;
  return order[(next + order.length) % order.length];
}

function playAt(model: PlayerModel, index: number, autoplay: boolean, startSeconds = 0, quality?: string, reuse?: PlayerResponse): PlayerStep {
  const p = model.playlist;
  if (!p || !Number.isInteger(index) || index < 0 || index >= p.ids.length) return { model, actions: [] };
  return startLoad(model, p.ids[index], autoplay, { startSeconds, endSeconds: null, quality }, { ...p, index }, reuse);
}

/** Fisher–Yates over the indices, keeping the current one first so the video playing is not interrupted. */
function shuffledOrder(length: number, current: number, random: () => number): number[] {
  const rest = Array.from({ length }, (_, i) => i).filter((i) => i !== current);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  return [current, ...rest];
}

/** End of the video or of the clip: the next playlist item, or a restart when looping, or nothing (state 0). */
function onEnd(model: PlayerModel): PlayerStep {
  if (model.playlist) {
    const next = playlistIndexAfter(model.playlist, 1, model.loop);
    if (next === undefined) return { model, actions: [] };
    // Back to the video that just played (a looping playlist of one): its response is still good, no new request.
    const again = model.playlist.ids[next] === model.videoId && model.response?.playabilityStatus.status === 'OK' && !model.error;
    return playAt(model, next, true, 0, undefined, again ? model.response! : undefined);
  }
  if (model.loop) return { model: { ...model, clipEnded: false }, actions: [{ type: 'seek', seconds: model.startSeconds }, { type: 'play' }] };
  return { model, actions: [] };
}

const clampVolume = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.min(100, Math.max(0, v)) : undefined);

function videoIdOf(options: VideoLoadOptions): string {
  if (typeof options.videoId === 'string' && options.videoId !== '') return options.videoId;
  return videoIdFromUrl(options.mediaContentUrl) ?? '';
}

const seconds = (v: unknown, d = 0) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : d);

const unchanged = (model: PlayerModel): PlayerStep => ({ model, actions: [] });
/** A response that plays, no error, a rendition in the element: what play, pause, seek and a quality switch need. */
const isPlayable = (model: PlayerModel) => model.response?.playabilityStatus.status === 'OK' && !model.error && model.quality !== '';

/** `nextVideo` / `previousVideo`: the playlist's next or previous item in play order. */
function movePlaylist(model: PlayerModel, input: Extract<EngineInput, { type: 'nextVideo' | 'previousVideo' }>): PlayerStep {
  if (!model.playlist) return unchanged(model);
  const i = playlistIndexAfter(model.playlist, input.type === 'nextVideo' ? 1 : -1, model.loop);
  return i === undefined ? unchanged(model) : playAt(model, i, true);
}

type Rule<T extends EngineInput['type']> = (model: PlayerModel, input: Extract<EngineInput, { type: T }>, ctx: EngineContext) => PlayerStep;

/**
 * The rules, one function per input (a table, not one switch: a playing page runs a few of them per loop, and the
 * engine compiles only what runs — one big function was compiled whole, issue 15).
 */
const RULES: { [T in EngineInput['type']]: Rule<T> } = {
  play: (model, _input, ctx) => {
    if (!isPlayable(model)) return unchanged(model);
    if (ctx.state === PlayerState.ENDED || model.clipEnded) {
      return { model: { ...model, clipEnded: false }, actions: [{ type: 'seek', seconds: model.startSeconds }, { type: 'play' }] };
    }
    return { model, actions: [{ type: 'play' }] };
  },
  pause: (model) => {
    return isPlayable(model) ? { model, actions: [{ type: 'pause' }] } : unchanged(model);
  },
  stop: (model) => {
    if (!isPlayable(model)) return unchanged(model);
    return {
      model: { ...model, clipEnded: false },
      actions: [{ type: 'pause' }, { type: 'seek', seconds: model.startSeconds }, { type: 'state', input: { type: 'stop' } }],
    };
  },
  clear: (model) => {
    return {
      model: { ...model, response: null, quality: '', clipEnded: false, loadSeq: model.loadSeq + 1 },
      actions: [
        { type: 'source', url: null, startSeconds: 0, play: false, captions: [] },
        { type: 'state', input: { type: 'clear' } },
      ],
    };
  },
  seek: (model, input, ctx) => {
    if (!isPlayable(model) || typeof input.seconds !== 'number' || !Number.isFinite(input.seconds)) return unchanged(model);
    const to = Math.max(0, input.seconds);
    const clipEnded = model.clipEnded && model.endSeconds !== null && to >= model.endSeconds;
    const resume = !input.keepState && (ctx.state === PlayerState.CUED || ctx.state === PlayerState.UNSTARTED || ctx.state === PlayerState.ENDED);
    return { model: { ...model, clipEnded }, actions: resume ? [{ type: 'seek', seconds: to }, { type: 'play' }] : [{ type: 'seek', seconds: to }] };
  },
  mute: (model) => {
    return { model, actions: [{ type: 'muted', muted: true }] };
  },
  unMute: (model) => {
    return { model, actions: [{ type: 'muted', muted: false }] };
  },
  setVolume: (model, input) => {
    const volume = clampVolume(input.volume);
    return volume === undefined ? unchanged(model) : { model, actions: [{ type: 'volume', volume }] };
  },
  setPlaybackRate: (model, input) => {
    const rate = nearestPlaybackRate(input.rate);
    return rate === undefined ? unchanged(model) : { model, actions: [{ type: 'rate', rate }] };
  },
  setPlaybackQuality: (model, input, ctx) => {
    if (typeof input.quality !== 'string') return unchanged(model);
    const withPref = { ...model, qualityPreference: input.quality };
    const format = pickFormat(formatsOf(model.response), input.quality);
    if (!isPlayable(model) || !format || format.quality === model.quality) return { model: withPref, actions: [] };
    return {
      model: { ...withPref, quality: format.quality },
      actions: [
        { type: 'source', url: format.url, startSeconds: ctx.currentTime, play: isActive(ctx.state), captions: captionTracksOf(model.response) },
        {
          type: 'captions',
          languageCode: model.captions.enabled ? (pickCaptionTrack(captionTracksOf(model.response), model.captions.languageCode)?.languageCode ?? null) : null,
        },
      ],
    };
  },
  setSize: (model, input) => {
    const w = seconds(input.width, model.size.width);
    const h = seconds(input.height, model.size.height);
    return { model: { ...model, size: { width: w, height: h } }, actions: [] };
  },
  loadVideo: (model, input) => {
    const o = input.options ?? ({} as VideoLoadOptions);
    const start = seconds(o.startSeconds);
    const end = typeof o.endSeconds === 'number' && Number.isFinite(o.endSeconds) ? o.endSeconds : null;
    const step = startLoad(model, videoIdOf(o), input.autoplay === true, { startSeconds: start, endSeconds: end, quality: o.suggestedQuality }, null);
    // rct / rctn (spec §3) ride with this load to the player's logging (`videoLoad`).
    const referral =
      typeof o.rct === 'string' || typeof o.rctn === 'string'
        ? { ...(typeof o.rct === 'string' && { rct: o.rct }), ...(typeof o.rctn === 'string' && { rctn: o.rctn }) }
        : null;
    return referral ? { ...step, model: { ...step.model, referral } } : step;
  },
  loadPlaylist: (model, input, ctx) => {
    const o = input.options ?? {};
    const index = Number.isInteger(o.index) && (o.index as number) >= 0 ? (o.index as number) : 0;
    const start = seconds(o.startSeconds);
    if (Array.isArray(o.playlist) && o.playlist.length > 0) {
      const ids = o.playlist.filter((id): id is string => typeof id === 'string').slice(0, 200);
      if (ids.length === 0) return fail(model, 'api.invalidparam');
      const p: PlaylistModel = { ids, listId: null, title: null, titles: {}, index: Math.min(index, ids.length - 1), order: null };
      const withList = { ...model, playlist: model.shuffle ? { ...p, order: shuffledOrder(ids.length, p.index, ctx.random) } : p };
      return playAt(withList, p.index, input.autoplay === true, start, o.suggestedQuality);
    }
    if (typeof o.list === 'string' && o.list !== '' && (o.listType === undefined || o.listType === 'playlist')) {
      const seq = model.loadSeq + 1;
      return {
        // Which video plays is not known until the list answers: no response for it yet (`videoKnown` false).
        model: { ...model, loadSeq: seq, error: null, response: null, quality: '' },
        // A cue stops what plays at once, as `startLoad` does.
        actions: [
          { type: 'state', input: { type: input.autoplay ? 'load' : 'cue' } },
          ...(input.autoplay ? [] : [{ type: 'pause' } as const]),
          { type: 'fetchPlaylist', seq, listId: o.list, index, autoplay: input.autoplay === true, startSeconds: start },
        ],
      };
    }
    return fail({ ...model, error: null }, 'api.invalidparam');
  },
  nextVideo: movePlaylist,
  previousVideo: movePlaylist,
  playVideoAt: (model, input) => {
    return playAt(model, input.index, true);
  },
  setLoop: (model, input) => {
    return { model: { ...model, loop: input.loop === true }, actions: [] };
  },
  setShuffle: (model, input, ctx) => {
    const shuffle = input.shuffle === true;
    const p = model.playlist;
    const playlist = p ? { ...p, order: shuffle ? shuffledOrder(p.ids.length, p.index, ctx.random) : null } : p;
    return { model: { ...model, shuffle, playlist }, actions: [] };
  },
  setCaptions: (model, input) => {
    const tracks = captionTracksOf(model.response);
    const track = input.enabled ? pickCaptionTrack(tracks, input.languageCode ?? model.captions.languageCode) : undefined;
    const captions = { enabled: input.enabled === true, languageCode: track?.languageCode ?? input.languageCode ?? model.captions.languageCode };
    return { model: { ...model, captions }, actions: [{ type: 'captions', languageCode: input.enabled ? (track?.languageCode ?? null) : null }] };
  },
  setOption: (model, input, ctx) => {
    return setCaptionsOption(model, input, ctx);
  },
  videoResponse: (model, input) => {
    if (input.seq !== model.loadSeq) return unchanged(model);
    return applyResponse(model, input.response, input.autoplay);
  },
  playlistResponse: (model, input, ctx) => {
    if (input.seq !== model.loadSeq || input.ids.length === 0) return input.seq === model.loadSeq ? fail(model, 'api.invalidparam') : unchanged(model);
    const index = Math.min(input.index, input.ids.length - 1);
    const p: PlaylistModel = { ids: input.ids, listId: input.listId, title: input.title, titles: input.titles, index, order: null };
    const withList = { ...model, playlist: model.shuffle ? { ...p, order: shuffledOrder(p.ids.length, index, ctx.random) } : p };
    return playAt(withList, index, input.autoplay, input.startSeconds);
  },
  requestFailed: (model, input) => {
    return input.seq === model.loadSeq ? fail(model, input.internal, input.message) : unchanged(model);
  },
  mediaError: (model, input) => {
    return model.response ? fail(model, internalErrorForMediaError(input.code)) : unchanged(model);
  },
  mediaEnded: (model) => {
    return model.clipEnded ? unchanged(model) : onEnd(model);
  },
  timeUpdate: (model, input, ctx) => {
    if (model.endSeconds === null || model.clipEnded || !(input.currentTime >= model.endSeconds) || !isActive(ctx.state)) return unchanged(model);
    const ended: PlayerStep = { model: { ...model, clipEnded: true }, actions: [{ type: 'pause' }, { type: 'state', input: { type: 'clipEnd' } }] };
    const after = onEnd(ended.model);
    return { model: after.model, actions: [...ended.actions, ...after.actions] };
  },
};

/**
 * The player engine's rules, as one pure step: a command (or a fetched answer, or an element event that needs a
 * decision) and the current model give the next model and the actions to perform, in order.
 *
 * Awkward cases it settles: `seek` keeps a paused player paused and starts a cued/ended one (unless asked to keep its state); a quality switch reloads
 * the rendition at the current time and keeps playing only if it was playing; reaching `endSeconds` pauses there and
 * ends the clip (state 0); the end of a looping video restarts it, the end of a playlist item plays the next one;
 * a second failure of one load is not reported again.
 */
export function reducePlayer(model: PlayerModel, input: EngineInput, ctx: EngineContext): PlayerStep {
  // An input of no known type (never from the page's own code) changes nothing; `hasOwn`: not a name of Object's.
  if (!Object.hasOwn(RULES, input.type)) return unchanged(model);
  return (RULES[input.type] as Rule<EngineInput['type']>)(model, input, ctx);
}
