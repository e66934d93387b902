/** The player states of the host protocol (there is no 4). */
export const PlayerState = {
  UNSTARTED: -1,
  ENDED: 0,
  PLAYING: 1,
  PAUSED: 2,
  BUFFERING: 3,
  CUED: 5,
} as const;
export type PlayerStateValue = (typeof PlayerState)[keyof typeof PlayerState];

/** What moves the state: media element events, plus the player's own `cue`, `load` and `playRefused` decisions. */
export type PlayerStateInput =
  | { type: 'cue' }
  | { type: 'load' }
  | { type: 'playRefused' }
  /** `stopVideo`: back to the start, cued. */
  | { type: 'stop' }
  /** `clearVideo`: nothing loaded. */
  | { type: 'clear' }
  /** Playback reached `endSeconds` (the player paused the element there): the clip ended. */
  | { type: 'clipEnd' }
  /**
   * `paused` and `ended` are what the element says when the event fires: the pause the element fires at its natural
   * end (`ended` true) is followed by `ended`, and is not a pause (the reference embed goes from 1 straight to 0).
   */
  | { type: 'play' | 'playing' | 'pause' | 'waiting' | 'seeking' | 'seeked' | 'ended' | 'emptied' | 'error'; paused?: boolean; ended?: boolean };

/**
 * One step of the player state machine.
 * - `cue` → 5 (cued); `load` → -1 (unstarted, about to play);
 * - `play` → 3 (buffering) until `playing` → 1; `waiting` while playing → 3, back to 1 on `playing`;
 * - `pause` → 2, except the pause the element fires at its natural end (`ended: true`), which keeps the state until the
 *   `ended` that follows it → 0 (1 goes straight to 0, never through 2);
 * - `playRefused` (the browser refused `play()`) never claims 1: back to 5 when nothing played yet, else 2;
 * - `seeking`/`seeked` keep a paused player paused (the element tells us through `paused`).
 * (A `play` or `playing` the element queued before a cue or stop is dropped by {@link stepPlayerState}, which
 * remembers the cue.)
 */
export function nextPlayerState(state: PlayerStateValue, input: PlayerStateInput): PlayerStateValue {
  switch (input.type) {
    case 'cue':
    case 'stop':
      return PlayerState.CUED;
    case 'clear':
      return PlayerState.UNSTARTED;
    case 'clipEnd':
      return PlayerState.ENDED;
    case 'load':
      return PlayerState.UNSTARTED;
    case 'playRefused':
      return state === PlayerState.UNSTARTED || state === PlayerState.CUED || state === PlayerState.BUFFERING ? PlayerState.CUED : PlayerState.PAUSED;
    case 'play':
      return state === PlayerState.PLAYING ? state : PlayerState.BUFFERING;
    case 'playing':
      return PlayerState.PLAYING;
    case 'waiting':
      return state === PlayerState.PLAYING ? PlayerState.BUFFERING : state;
    case 'pause':
      // At its natural end the element pauses before `ended` (spec: "reaches the end"): not a pause, the end follows.
      if (input.ended) return state;
      // A cued or stopped player pauses the playback it replaced.
      return state === PlayerState.ENDED || state === PlayerState.CUED ? state : PlayerState.PAUSED;
    case 'seeked':
      return input.paused && state !== PlayerState.CUED && state !== PlayerState.UNSTARTED ? PlayerState.PAUSED : state;
    case 'ended':
      return PlayerState.ENDED;
    case 'emptied':
    case 'error':
    case 'seeking':
      return state;
  }
}

/** The state machine's memory: the state, and the state to fall back to when the browser refuses `play()`. */
export interface PlayerStateMachine {
  state: PlayerStateValue;
  /** The state before the latest `play` that has not been confirmed by `playing`. */
  beforePlay: PlayerStateValue;
  /**
   * A cue or stop paused the element, and the element has not said `pause` or played since: a `play` or `playing`
   * that comes now with the element paused was queued before the cue (the video it replaced was still starting) and
   * moves nothing. Without a cue, such a pair (`playVideo` then `pauseVideo` at once) still goes 3 then 2.
   */
  stopped: boolean;
}

export const INITIAL_PLAYER_STATE_MACHINE: PlayerStateMachine = { state: PlayerState.UNSTARTED, beforePlay: PlayerState.UNSTARTED, stopped: false };

/**
 * {@link nextPlayerState} with memory of where a `play()` started, so a refused `play()` goes back exactly there:
 * -1/5/3 → 5 (nothing played yet), 2 stays 2, 0 stays 0. It never claims 1.
 */
export function stepPlayerState(machine: PlayerStateMachine, input: PlayerStateInput): PlayerStateMachine {
  const { state, beforePlay, stopped } = machine;
  switch (input.type) {
    case 'play':
      if (stopped && input.paused) return machine;
      return {
        state: nextPlayerState(state, input),
        beforePlay: state === PlayerState.BUFFERING || state === PlayerState.PLAYING ? beforePlay : state,
        stopped: false,
      };
    case 'playRefused':
      if (state === PlayerState.PLAYING) return machine;
      return {
        state: beforePlay === PlayerState.PAUSED || beforePlay === PlayerState.ENDED ? beforePlay : PlayerState.CUED,
        beforePlay,
        stopped,
      };
    default: {
      if (input.type === 'playing' && stopped && input.paused) return machine;
      const next = nextPlayerState(state, input);
      return {
        state: next,
        beforePlay: next === PlayerState.BUFFERING ? beforePlay : next,
        // A cue or stop opens the window; the element's pause, or a `playing` that counted (a stale one returned
        // above), closes it.
        stopped: input.type === 'cue' || input.type === 'stop' || (stopped && input.type !== 'pause' && input.type !== 'playing'),
      };
    }
  }
}
