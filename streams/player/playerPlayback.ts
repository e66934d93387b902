/**
 * Playback commands: play, pause, stop, seek, volume, rate, quality, size and loop.
 */
import { captionTracksOf, formatsOf, isAwaitingResponse, nearestPlaybackRate, pickCaptionTrack, pickFormat } from './playerModel';
import { PlayerState } from './playerState';
import { seekTo, withSource } from './playerSeek';
import { isActive, isPlayable, secondsOr, unchanged, type Rules } from './playerStep';

const clampVolume = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.min(100, Math.max(0, v)) : undefined);

/** The commands that act on what plays. */
export const PLAYBACK_RULES: Rules<
  'play' | 'pause' | 'stop' | 'seek' | 'mute' | 'unMute' | 'setVolume' | 'setPlaybackRate' | 'setPlaybackQuality' | 'setSize' | 'setLoop'
> = {
  play: (model, _input, ctx) => {
    if (isAwaitingResponse(model)) return { model: { ...model, playOnResponse: true }, actions: [] };
    if (!isPlayable(model)) return unchanged(model);
    if (ctx.state === PlayerState.ENDED || model.clipEnded) {
      const restart = seekTo({ ...model, clipEnded: false }, model.startSeconds, ctx);
      return { model: restart.model, actions: [...restart.actions, { type: 'play' }] };
    }
    return { model, actions: [{ type: 'play' }] };
  },
  pause: (model) => {
    if (isAwaitingResponse(model)) return { model: { ...model, playOnResponse: false }, actions: [] };
    return isPlayable(model) ? { model, actions: [{ type: 'pause' }] } : unchanged(model);
  },
  stop: (model, _input, ctx) => {
    if (isAwaitingResponse(model)) return { model: { ...model, playOnResponse: false }, actions: [] };
    if (!isPlayable(model)) return unchanged(model);
    const back = seekTo({ ...model, clipEnded: false }, model.startSeconds, ctx);
    return { model: back.model, actions: [{ type: 'pause' }, ...back.actions, { type: 'state', input: { type: 'stop' } }] };
  },
  seek: (model, input, ctx) => {
    if (typeof input.seconds !== 'number' || !Number.isFinite(input.seconds)) return unchanged(model);
    const to = Math.max(0, input.seconds);
    // Before the answer: the video starts there when it comes, and a cued one plays, as a seek from the cued state does.
    if (isAwaitingResponse(model)) {
      const plays = !input.keepState && ctx.state === PlayerState.CUED && model.playOnResponse === undefined;
      return { model: { ...model, startSeconds: to, clipEnded: false, ...(plays && { playOnResponse: true }) }, actions: [] };
    }
    if (!isPlayable(model)) return unchanged(model);
    const clipEnded = model.clipEnded && model.endSeconds !== null && to >= model.endSeconds;
    const resume = !input.keepState && (ctx.state === PlayerState.CUED || ctx.state === PlayerState.UNSTARTED || ctx.state === PlayerState.ENDED);
    const seek = seekTo({ ...model, clipEnded }, to, ctx);
    return { model: seek.model, actions: resume ? [...seek.actions, { type: 'play' }] : seek.actions };
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
    // A stream stays where it is: the preference caps (or frees) its quality decision.
    if (model.streaming) return { model: withPref, actions: isPlayable(model) ? [{ type: 'streamQuality', quality: input.quality }] : [] };
    const format = pickFormat(formatsOf(model.response), input.quality);
    if (!isPlayable(model) || !format || format.quality === model.quality) return { model: withPref, actions: [] };
    const tracks = captionTracksOf(model.response);
    // The new rendition starts where the old one is, and plays if it was playing or about to (a play not yet begun).
    const source = withSource(
      { ...withPref, quality: format.quality },
      { type: 'source', url: format.url, startSeconds: ctx.currentTime, play: isActive(ctx.state) || ctx.playWanted === true, captions: tracks },
      ctx,
    );
    const languageCode = model.captions.enabled ? (pickCaptionTrack(tracks, model.captions.languageCode)?.languageCode ?? null) : null;
    return { model: source.model, actions: [source.action, { type: 'captions', languageCode }] };
  },
  setSize: (model, input) => {
    const w = secondsOr(input.width, model.size.width);
    const h = secondsOr(input.height, model.size.height);
    return { model: { ...model, size: { width: w, height: h } }, actions: [] };
  },
  setLoop: (model, input) => {
    return { model: { ...model, loop: input.loop === true }, actions: [] };
  },
};
