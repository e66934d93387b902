/**
 * The seek state of the player's model ({@link SeekState}): a seek the element cannot take before its metadata waits
 * in the model and is performed at `loadedmetadata`; meanwhile the snapshot shows its target as the time.
 */
import { NO_SEEK, type PlayerModel, type SeekState } from './playerModel';
import type { EngineContext, PlayerAction, PlayerStep } from './playerStep';

type SourceAction = Extract<PlayerAction, { type: 'source' }>;

/** The model with this seek state (the same model when it has it already, so that nothing is rendered for it). */
export function withSeek(model: PlayerModel, seek: SeekState): PlayerModel {
  return model.seek.pending === seek.pending && model.seek.target === seek.target ? model : { ...model, seek };
}

/**
 * A seek to `seconds`: performed now when the element has its metadata (an older pending seek is dropped, or it would
 * undo this one when the metadata event comes after); otherwise kept, within the video's length when the response
 * says it (the element clamps its own seeks, later), and shown as the time until the element is there.
 */
export function seekTo(model: PlayerModel, seconds: number, ctx: EngineContext): PlayerStep {
  if (ctx.hasMetadata !== false) return { model: withSeek(model, NO_SEEK), actions: [{ type: 'seek', seconds }] };
  const length = Number(model.response?.videoDetails?.lengthSeconds);
  const to = length > 0 ? Math.min(seconds, length) : seconds;
  return { model: withSeek(model, { pending: to, target: to }), actions: [] };
}

/**
 * A new source for the element, and the model's seek state with it. A new source ends what a pending seek said (its
 * start position is pending, not shown as the time); an element that has this source and its metadata already is
 * set to the start at once, so nothing waits.
 */
export function withSource(model: PlayerModel, source: SourceAction, ctx: EngineContext): { model: PlayerModel; action: SourceAction } {
  const ready = source.url !== null && ctx.source === source.url && ctx.hasMetadata !== false;
  const pending = source.url === null || ready || !(source.startSeconds > 0) ? null : source.startSeconds;
  return { model: withSeek(model, { pending, target: null }), action: source };
}

/** The element emptied (no video, or one that cannot play): nothing is pending or shown. */
export function withoutSource(model: PlayerModel): { model: PlayerModel; action: SourceAction } {
  return { model: withSeek(model, NO_SEEK), action: { type: 'source', url: null, startSeconds: 0, play: false, captions: [] } };
}

/** The element has its metadata: the pending seek is performed now, and the time is the element's own again. */
export function afterMetadata(model: PlayerModel): PlayerStep {
  const pending = model.seek.pending;
  return { model: withSeek(model, NO_SEEK), actions: pending === null ? [] : [{ type: 'seek', seconds: pending }] };
}

/** The element dropped or failed its source: what the seek targeted is not the time any more (the seek stays pending). */
export function withoutSeekTarget(model: PlayerModel): PlayerModel {
  return withSeek(model, { pending: model.seek.pending, target: null });
}
