/**
 * Loading a video into the player: the start of a load (state, fetch), the answer put into the element, and the one
 * failure a load reports.
 */
import { isValidVideoId, type PlayerResponse } from '../config/playerConfig';
import { internalErrorForPlayability } from './errorCodes';
import { captionTracksOf, formatsOf, hasLadder, ladderOf, pickCaptionTrack, pickFormat, type PlayerModel, type PlaylistModel } from './playerModel';
import { withoutSource, withSource } from './playerSeek';
import { secondsOr, unchanged, type EngineContext, type PlayerAction, type PlayerStep, type Rules } from './playerStep';
import type { VideoLoadOptions } from './types';
import { videoIdFromUrl } from './videoIdFromUrl';

const MESSAGES: Record<string, string> = {
  'api.invalidparam': 'This video id is not valid.',
  'fmt.noneavailable': 'This video has no playable format.',
  'fmt.unplayable': 'This video cannot be played.',
  'fmt.decode': 'This video file is damaged and cannot be played.',
  'net.unknown': 'The video could not be loaded. Check your connection and try again.',
  auth: 'Sign in to watch this video.',
  'mrm.blocked': 'This video is not available in your country.',
  'heartbeat.stop': 'Playback of this video was stopped.',
  'heartbeat.servererror': 'Playback stopped: the server could not confirm it may go on.',
};
const messageFor = (internal: string, fallback?: string) => fallback ?? MESSAGES[internal] ?? 'This video is unavailable.';

/** Records the first failure of a load; a second one for the same load is dropped (one failure, one error). */
export function fail(model: PlayerModel, internal: string, message?: string): PlayerStep {
  if (model.error) return { model, actions: [] };
  const error = { internal, message: messageFor(internal, message) };
  return { model: { ...model, error }, actions: [{ type: 'pause' }, { type: 'error', ...error }] };
}

/** The element emptied, then the failure reported. */
function failEmptied(model: PlayerModel, internal: string, message?: string, state?: PlayerAction): PlayerStep {
  const emptied = withoutSource(model);
  const failed = fail(emptied.model, internal, message);
  return { model: failed.model, actions: [emptied.action, ...(state ? [state] : []), ...failed.actions] };
}

/** Starts loading a video id: the state goes to -1 (load) or 5 (cue, which pauses the element) and the response is fetched. */
export function startLoad(
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
    streaming: undefined,
    streamBytes: undefined,
    startSeconds: clip.startSeconds,
    endSeconds: clip.endSeconds !== null && clip.endSeconds > clip.startSeconds ? clip.endSeconds : null,
    clipEnded: false,
    playlist,
    error: null,
    referral: null,
    playOnResponse: undefined,
  };
  const state: PlayerAction = { type: 'state', input: { type: autoplay ? 'load' : 'cue' } };
  if (!isValidVideoId(videoId)) {
    return failEmptied({ ...next, response: { playabilityStatus: { status: 'ERROR', errorCode: 'api.invalidparam' } } }, 'api.invalidparam', undefined, state);
  }
  const fetch: PlayerAction = { type: 'fetchVideo', seq, videoId, autoplay, ...(reuse && { reuse }) };
  // A cue stops what plays at once: the video it replaces must not play on (and send its events) under a "cued"
  // state while the cued video's answer is on its way. A load plays the new video when it comes.
  return { model: next, actions: autoplay ? [state, fetch] : [state, { type: 'pause' }, fetch] };
}

/**
 * Puts a fetched response into the element (or reports why it cannot play). `elementStarted`: the element plays this
 * source already from its beginning, and a start of 0 keeps it where it is.
 */
export function applyResponse(model: PlayerModel, response: PlayerResponse, autoplay: boolean, ctx: EngineContext, elementStarted = false): PlayerStep {
  const withResponse: PlayerModel = { ...model, response, streaming: undefined, streamBytes: undefined };
  const status = response.playabilityStatus;
  if (status.status !== 'OK') return failEmptied(withResponse, internalErrorForPlayability(status), status.reason);
  const streaming = ctx.canStream === true && hasLadder(response);
  const format = pickFormat(formatsOf(response), model.qualityPreference);
  // The stream is named by its first rendition's init segment (never the element's own source: that is the stream's).
  const url = streaming ? (ladderOf(response)[0]?.initUrl ?? null) : (format?.url ?? null);
  if (url === null) return failEmptied(withResponse, hasLadder(response) ? 'html5.missingapi' : 'fmt.noneavailable');
  const tracks = captionTracksOf(response);
  const track = model.captions.enabled ? pickCaptionTrack(tracks, model.captions.languageCode) : undefined;
  const playlist =
    model.playlist && response.videoDetails
      ? { ...model.playlist, titles: { ...model.playlist.titles, [response.videoDetails.videoId]: response.videoDetails.title } }
      : model.playlist;
  const keepPosition = elementStarted && model.startSeconds === 0;
  const source = withSource(
    streaming ? { ...withResponse, quality: '', streaming: true, playlist } : { ...withResponse, quality: format?.quality ?? '', playlist },
    {
      type: 'source',
      url,
      startSeconds: model.startSeconds,
      play: model.playOnResponse ?? autoplay,
      captions: tracks,
      ...(keepPosition && { keepPosition }),
      ...(streaming && { stream: true as const }),
    },
    ctx,
  );
  const actions: PlayerAction[] = [source.action, { type: 'captions', languageCode: track?.languageCode ?? null }];
  if (tracks.length > 0) actions.push({ type: 'apiChange' });
  return { model: source.model, actions };
}

function videoIdOf(options: VideoLoadOptions): string {
  if (typeof options.videoId === 'string' && options.videoId !== '') return options.videoId;
  return videoIdFromUrl(options.mediaContentUrl) ?? '';
}

/** A video's load, its answer, and the emptying of the element. */
export const LOAD_RULES: Rules<'loadVideo' | 'videoResponse' | 'requestFailed' | 'clear'> = {
  loadVideo: (model, input) => {
    const o = input.options ?? ({} as VideoLoadOptions);
    const start = secondsOr(o.startSeconds);
    const end = typeof o.endSeconds === 'number' && Number.isFinite(o.endSeconds) ? o.endSeconds : null;
    const step = startLoad(model, videoIdOf(o), input.autoplay === true, { startSeconds: start, endSeconds: end, quality: o.suggestedQuality }, null);
    // rct / rctn (spec §3) ride with this load to the player's logging (`videoLoad`).
    const referral =
      typeof o.rct === 'string' || typeof o.rctn === 'string'
        ? { ...(typeof o.rct === 'string' && { rct: o.rct }), ...(typeof o.rctn === 'string' && { rctn: o.rctn }) }
        : null;
    return referral ? { ...step, model: { ...step.model, referral } } : step;
  },
  videoResponse: (model, input, ctx) => {
    if (input.seq !== model.loadSeq) return unchanged(model);
    return applyResponse(model, input.response, input.autoplay, ctx, input.elementStarted === true);
  },
  requestFailed: (model, input) => {
    return input.seq === model.loadSeq ? fail(model, input.internal, input.message) : unchanged(model);
  },
  clear: (model) => {
    const emptied = withoutSource({ ...model, response: null, quality: '', clipEnded: false, loadSeq: model.loadSeq + 1 });
    return { model: emptied.model, actions: [emptied.action, { type: 'state', input: { type: 'clear' } }] };
  },
};
