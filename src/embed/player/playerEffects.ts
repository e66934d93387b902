import { hostErrorCode } from '../../../streams/player/errorCodes';
import type { PlayerModel } from '../../../streams/player/playerModel';
import type { PlayerStateInput } from '../../../streams/player/playerState';
import type { PlayerAction } from '../../../streams/player/reducePlayer';
import type { PlayerEventOut } from '../../../streams/player/types';
import type { CaptionTracks } from './captionTracks';
import type { PlayerError } from './EmbedPlayer';
import type { StreamHost } from './streamHost';

/** What the effects act on and report to. */
export interface EffectTargets {
  /** The mounted element (null: the element's effects wait for none, they are dropped). */
  element: () => HTMLVideoElement | null;
  /** The model the actions came with. */
  model: () => PlayerModel;
  captions: CaptionTracks;
  stateInput: (input: PlayerStateInput) => void;
  error: (error: PlayerError) => void;
  event: (event: PlayerEventOut) => void;
  autoplayBlocked: (blocked: boolean) => void;
  /** The element's adaptive stream (`source` actions with `stream`). */
  stream: StreamHost;
}

type Effect<T extends PlayerAction['type']> = (action: Extract<PlayerAction, { type: T }>, to: EffectTargets) => void;
type ElementEffect<T extends PlayerAction['type']> = (el: HTMLVideoElement, action: Extract<PlayerAction, { type: T }>, to: EffectTargets) => void;

/** An effect on the element, dropped when none is mounted. */
const onElement =
  <T extends PlayerAction['type']>(effect: ElementEffect<T>): Effect<T> =>
  (action, to) => {
    const el = to.element();
    if (el) effect(el, action, to);
  };

/**
 * Plays the element. A refusal without a user gesture is said (`autoplayBlocked`) and ends the attempt in the state
 * machine; a play interrupted by a pause or a new source is not a refusal (the element's events tell the state).
 */
export function playElement(el: HTMLVideoElement, to: EffectTargets): void {
  to.autoplayBlocked(false);
  let result: Promise<void> | undefined;
  try {
    result = el.play();
  } catch {
    result = undefined;
  }
  result?.catch((e: unknown) => {
    const name = (e as { name?: string } | null)?.name;
    if (name === 'AbortError') return;
    if (name === 'NotAllowedError') {
      to.autoplayBlocked(true);
      to.event({ type: 'autoplayBlocked' });
    }
    to.stateInput({ type: 'playRefused' });
  });
}

/** A `source` action: the rendition into the element (or the element emptied), its start, its captions. */
const source: ElementEffect<'source'> = (el, action, to) => {
  to.autoplayBlocked(false);
  to.captions.clear();
  const streamed = el.dataset.stream;
  if (action.url === null || !action.stream) {
    to.stream.detach();
    delete el.dataset.stream;
    // The stream's object URL is no file to keep: the element starts over from the new source.
    if (streamed !== undefined) el.removeAttribute('src');
  }
  if (action.url === null) {
    to.captions.setTracks(el, []);
    if (el.hasAttribute('src')) {
      el.removeAttribute('src');
      el.load();
    }
    return;
  }
  to.captions.setTracks(el, action.captions);
  // Cueing the video that is playing keeps its source: stop it, or it plays on under a "cued" state.
  if (!action.play && !el.paused) el.pause();
  el.preload = action.play ? 'auto' : 'metadata';
  // The element may have this source already (the server wrote it into the page, or the same video is loaded
  // again): it keeps its media, and only goes to the start position, when it has its metadata (before, the start is
  // the model's pending seek) and is not there already (a seek to where it is would still fire seeking/seeked). One
  // the browser started from its beginning is where it should be: no jump back.
  if (action.stream) {
    const response = to.model().response;
    if (streamed !== action.url && response) {
      // Another video's frames must not show while this stream starts: the element is emptied first.
      if (el.hasAttribute('src')) {
        el.removeAttribute('src');
        el.load();
      }
      // The element names the stream it plays (its `src` is the stream's object URL): `sourceOf` reads it.
      el.dataset.stream = action.url;
      to.stream.attach(el, response, { preference: to.model().qualityPreference, startSeconds: action.startSeconds });
    } else if (el.readyState >= 1 && el.currentTime !== action.startSeconds && !action.keepPosition) el.currentTime = action.startSeconds;
  } else if (el.getAttribute('src') !== action.url) el.src = action.url;
  else if (el.readyState >= 1 && el.currentTime !== action.startSeconds && !action.keepPosition) el.currentTime = action.startSeconds;
  if (action.play) playElement(el, to);
};

/**
 * The effects, one small function per action the reducer emits. `fetchVideo` and `fetchPlaylist` are the engine's
 * own (it performs its fetches itself): nothing to do here.
 */
export const PLAYER_EFFECTS: { [T in PlayerAction['type']]: Effect<T> } = {
  state: (action, to) => to.stateInput(action.input),
  error: (action, to) => {
    const error = { internal: action.internal, code: hostErrorCode(action.internal), message: action.message };
    to.error(error);
    to.event({ type: 'error', ...error });
  },
  apiChange: (_action, to) => to.event({ type: 'apiChange' }),
  fetchVideo: () => undefined,
  fetchPlaylist: () => undefined,
  source: onElement(source),
  streamQuality: (action, to) => to.stream.setQuality(action.quality),
  play: onElement((el, _action, to) => playElement(el, to)),
  pause: onElement((el) => el.pause()),
  // The reducer sends a seek only to an element that has its metadata; before, the seek waits in the model.
  seek: onElement((el, action) => {
    el.currentTime = action.seconds;
  }),
  muted: onElement((el, action) => {
    el.muted = action.muted;
  }),
  volume: onElement((el, action) => {
    el.volume = action.volume / 100;
  }),
  rate: onElement((el, action) => {
    el.playbackRate = action.rate;
  }),
  captions: onElement((el, action, to) => to.captions.show(el, action.languageCode)),
  reloadCaptions: onElement((el, action, to) => {
    to.captions.setTracks(el, action.captions, to.model().captionReloads);
    to.captions.show(el, action.languageCode);
  }),
};

/** Performs one action of the engine. */
export function performAction(action: PlayerAction, to: EffectTargets): void {
  (PLAYER_EFFECTS[action.type] as Effect<PlayerAction['type']>)(action, to);
}
