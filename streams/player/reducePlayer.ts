import { CAPTION_RULES } from './playerCaptions';
import { LOAD_RULES } from './playerLoad';
import { MEDIA_EVENT_RULES } from './playerMediaEvents';
import type { PlayerModel } from './playerModel';
import { PLAYBACK_RULES } from './playerPlayback';
import { PLAYLIST_RULES } from './playerPlaylist';
import { unchanged, type EngineContext, type EngineInput, type PlayerStep, type Rule, type Rules } from './playerStep';

export type { EngineContext, EngineInput, PlayerAction, PlayerStep } from './playerStep';

/**
 * The rules, one function per input (a table, not one switch: a playing page runs a few of them per loop, and the
 * engine compiles only the functions that run).
 */
const RULES: Rules<EngineInput['type']> = {
  ...PLAYBACK_RULES,
  ...LOAD_RULES,
  ...PLAYLIST_RULES,
  ...CAPTION_RULES,
  ...MEDIA_EVENT_RULES,
};

/**
 * The player engine's rules, as one pure step: a command (or a fetched answer, or an element event that needs a
 * decision) and the current model give the next model and the actions to perform, in order.
 *
 * Awkward cases it settles: `seek` keeps a paused player paused and starts a cued/ended one (unless asked to keep its
 * state); a seek before the element has its metadata waits in the model (`seek`) and is performed at `metadataLoaded`;
 * a quality switch reloads the rendition at the current time and keeps playing only if it was playing; reaching
 * `endSeconds` pauses there and ends the clip (state 0); the end of a looping video restarts it, the end of a playlist
 * item plays the next one; a second failure of one load is not reported again.
 */
export function reducePlayer(model: PlayerModel, input: EngineInput, ctx: EngineContext): PlayerStep {
  // An input of no known type (never from the page's own code) changes nothing; `hasOwn`: not a name of Object's.
  if (!Object.hasOwn(RULES, input.type)) return unchanged(model);
  return (RULES[input.type] as Rule<EngineInput['type']>)(model, input, ctx);
}
