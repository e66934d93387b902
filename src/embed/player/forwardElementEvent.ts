import type { PlayerModel } from '../../../streams/player/playerModel';
import type { PlayerStateInput } from '../../../streams/player/playerState';
import type { EngineInput } from '../../../streams/player/reducePlayer';
import type { MediaEvent } from '../../../streams/sources/mediaEvents';

/** The element's events the state machine hears. */
const STATE_EVENTS = new Set(['play', 'playing', 'pause', 'waiting', 'seeking', 'seeked', 'ended', 'emptied']);

export interface ElementInputTargets {
  stateInput: (input: PlayerStateInput) => void;
  engineInput: (input: EngineInput) => void;
  model: () => PlayerModel;
}

/** One element event, passed on to the state machine and, when it needs a decision, to the engine. */
export function forwardElementEvent(e: MediaEvent<HTMLVideoElement>, to: ElementInputTargets): void {
  const el = e.target;
  if (STATE_EVENTS.has(e.type)) to.stateInput({ type: e.type as 'play', paused: el.paused, ended: el.ended });
  switch (e.type) {
    case 'loadedmetadata':
      to.engineInput({ type: 'metadataLoaded' });
      return;
    case 'emptied':
      to.engineInput({ type: 'mediaEmptied' });
      return;
    case 'timeupdate': {
      // The engine decides on a tick only to end a clip (`endSeconds`): without one, a tick is none of its business.
      const model = to.model();
      if (model.endSeconds !== null && !model.clipEnded) to.engineInput({ type: 'timeUpdate', currentTime: el.currentTime });
      return;
    }
    case 'resize':
      to.engineInput({ type: 'renditionShown', height: el.videoHeight });
      return;
    case 'ended':
      to.engineInput({ type: 'mediaEnded' });
      return;
    case 'error':
      to.engineInput({ type: 'mediaError', code: el.error?.code, hasSource: el.getAttribute('src') ? true : false });
      return;
  }
}
