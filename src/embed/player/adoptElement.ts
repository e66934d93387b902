import { parseBooleanVar, type PlayerConfig } from '../../../streams/config/playerConfig';
import type { PlayerStateInput } from '../../../streams/player/playerState';
import type { EngineInput } from '../../../streams/player/reducePlayer';

export interface AdoptionTargets {
  stateInput: (input: PlayerStateInput) => void;
  engineInput: (input: EngineInput) => void;
}

/**
 * The configured video goes into the first mounted element: loaded and played, or cued (spec §4). The element may be
 * the one the server wrote into the page with the video's source, which the browser may have started already (its
 * `autoplay`) or failed: it is adopted as it is, and what it did before the script ran is told to the player now.
 */
export function adoptElement(
  el: HTMLVideoElement,
  { config, autoplay, startSeconds }: { config: PlayerConfig; autoplay: boolean; startSeconds: number },
  to: AdoptionTargets,
): void {
  const vars = config.args.playerVars;
  if (parseBooleanVar(vars.mute)) el.muted = true;
  if (vars.list) {
    const index = Number(vars.index);
    to.engineInput({
      type: 'loadPlaylist',
      options: { list: vars.list, listType: vars.listType, index: Number.isInteger(index) && index >= 0 ? index : 0, startSeconds },
      autoplay,
    });
    return;
  }
  if (config.args.player_response.viewerDependent) {
    // The page could not know the viewer: the player endpoint answers for this one (with its credentials and
    // context), as it does for a host's load.
    to.engineInput({ type: 'loadVideo', options: { videoId: config.args.video_id, startSeconds }, autoplay });
    return;
  }
  to.stateInput({ type: autoplay ? 'load' : 'cue' });
  const elementStarted = !el.paused || el.currentTime > 0;
  to.engineInput({ type: 'videoResponse', seq: 0, response: config.args.player_response, autoplay, ...(elementStarted && { elementStarted }) });
  // From here on the player alone says when to play: a later source (a cue, a quality switch) must not start by
  // itself, which the element's `autoplay` would make it do.
  el.removeAttribute('autoplay');
  // An element the browser started before this script ran: its play and playing events are gone, the state machine
  // hears them now.
  if (!el.paused) {
    to.stateInput({ type: 'play', paused: false, ended: el.ended });
    if (el.readyState >= 3 /* HAVE_FUTURE_DATA */) to.stateInput({ type: 'playing', paused: false, ended: el.ended });
  }
  // Likewise a source that already failed (its error event is gone): the player fails as it would have then.
  if (el.error && el.getAttribute('src')) to.engineInput({ type: 'mediaError', code: el.error.code });
}
