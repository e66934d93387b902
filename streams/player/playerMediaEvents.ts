/**
 * The element's events that need a decision: its metadata (a pending seek), its emptying and failure, the end of the
 * video and, with an `endSeconds`, the playback ticks that reach the end of the clip.
 */
import { internalErrorForMediaError } from './errorCodes';
import { ladderOf, renditionOfHeight } from './playerModel';
import { fail } from './playerLoad';
import { onEnd } from './playerPlaylist';
import { afterMetadata, withoutSeekTarget } from './playerSeek';
import { isActive, unchanged, type PlayerStep, type Rules } from './playerStep';

/** The rules for the element's events. */
export const MEDIA_EVENT_RULES: Rules<
  'metadataLoaded' | 'mediaEmptied' | 'mediaError' | 'mediaEnded' | 'timeUpdate' | 'renditionShown' | 'streamFailed' | 'streamBytes'
> = {
  streamBytes: (model, input) =>
    model.streaming && input.total >= input.loaded && input.loaded >= 0
      ? { model: { ...model, streamBytes: { loaded: input.loaded, total: input.total } }, actions: [] }
      : unchanged(model),
  streamFailed: (model, input) => (model.streaming ? fail(model, input.internal, input.message) : unchanged(model)),
  renditionShown: (model, input) => {
    if (!model.streaming || !(input.height > 0)) return unchanged(model);
    const quality = renditionOfHeight(ladderOf(model.response), input.height)?.quality ?? '';
    return quality === '' || quality === model.quality ? unchanged(model) : { model: { ...model, quality }, actions: [] };
  },
  metadataLoaded: (model) => {
    return afterMetadata(model);
  },
  mediaEmptied: (model) => {
    return unchanged(withoutSeekTarget(model));
  },
  mediaError: (model, input) => {
    // A source that failed never gets to the pending seek: its target is not the time any more.
    const failed = withoutSeekTarget(model);
    // An element without a source fires `error` too: only a source that failed is the video's failure.
    return failed.response && input.hasSource !== false ? fail(failed, internalErrorForMediaError(input.code)) : unchanged(failed);
  },
  mediaEnded: (model, _input, ctx) => {
    return model.clipEnded ? unchanged(model) : onEnd(model, ctx);
  },
  timeUpdate: (model, input, ctx) => {
    if (model.endSeconds === null || model.clipEnded || !(input.currentTime >= model.endSeconds) || !isActive(ctx.state)) return unchanged(model);
    const ended: PlayerStep = { model: { ...model, clipEnded: true }, actions: [{ type: 'pause' }, { type: 'state', input: { type: 'clipEnd' } }] };
    const after = onEnd(ended.model, ctx);
    return { model: after.model, actions: [...ended.actions, ...after.actions] };
  },
};
