import { playerStates } from '../../../streams/player/playerStates';
import { PlayerState, stepPlayerState, INITIAL_PLAYER_STATE_MACHINE, type PlayerStateInput } from '../../../streams/player/playerState';
import { createTestScheduler } from '../../helpers/testScheduler';

const { UNSTARTED, ENDED, PLAYING, PAUSED, BUFFERING, CUED } = PlayerState;
const states = { u: UNSTARTED, e: ENDED, p: PLAYING, a: PAUSED, b: BUFFERING, c: CUED };
const inputs: Record<string, PlayerStateInput> = {
  L: { type: 'load' },
  C: { type: 'cue' },
  y: { type: 'play' },
  Y: { type: 'playing' },
  w: { type: 'waiting' },
  z: { type: 'pause' },
  /** The pause the element fires at its natural end (the element's `ended` is already true). */
  Z: { type: 'pause', ended: true },
  s: { type: 'seeking' },
  k: { type: 'seeked', paused: true },
  K: { type: 'seeked', paused: false },
  E: { type: 'ended' },
  r: { type: 'playRefused' },
  x: { type: 'clipEnd' },
  S: { type: 'stop' },
  X: { type: 'clear' },
};

describe('playerStates', () => {
  it('load → -1 → 3 → 1; a stall goes to 3 and back to 1; pause → 2', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const src = hot('  -L-y-Y-w-Y-z-|', inputs);
      const expected = ' u--b-p-b-p-a-|';
      expectObservable(playerStates(src)).toBe(expected, states);
      expectSubscriptions(src.subscriptions).toBe('^------------!');
    });
  });

  it('seeking while paused stays paused (waiting during the seek does not claim 3)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const src = hot('  -C-y-Y-z-s-w-k-|', inputs);
      const expected = ' uc-b-p-a-------|';
      expectObservable(playerStates(src)).toBe(expected, states);
    });
  });

  it('seeking while playing keeps playing', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const src = hot('  -L-y-Y-s-w-K-Y-|', inputs);
      const expected = ' u--b-p---b---p-|';
      expectObservable(playerStates(src)).toBe(expected, states);
    });
  });

  it('a refused play() never reports 1: back to 5 before anything played, back to 2 from a pause', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const src = hot('  -L-y-r-y-Y-z-y-r-|', inputs);
      const expected = ' u--b-c-b-p-a-b-a-|';
      expectObservable(playerStates(src)).toBe(expected, states);
    });
  });

  it("the end: 1 straight to 0 (the end's own pause is not a 2); a loop restart goes 0 → 3 → 1; the clip end is 0; stop is 5; clear is -1", () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const src = hot('  -L-y-Y-Z-E-s-K-y-Y-x-S-X-|', inputs);
      const expected = ' u--b-p---e-----b-p-e-c-u-|';
      expectObservable(playerStates(src)).toBe(expected, states);
    });
  });

  it('a real pause just before the end is still 2, then 0', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const src = hot('  -L-y-Y-z-E-|', inputs);
      const expected = ' u--b-p-a-e-|';
      expectObservable(playerStates(src)).toBe(expected, states);
    });
  });

  it("a cue while the video it replaces is still starting stays cued through that video's late play and playing", () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const late: Record<string, PlayerStateInput> = { ...inputs, q: { type: 'play', paused: true }, Q: { type: 'playing', paused: true } };
      const src = hot('  -L-y-C-q-Q-z-|', late);
      const expected = ' u--b-c-------|';
      expectObservable(playerStates(src)).toBe(expected, states);
    });
  });

  it('stepPlayerState remembers where play started; a play queued before a cue (the element paused) changes nothing', () => {
    const m = [inputs.C, inputs.y].reduce(stepPlayerState, INITIAL_PLAYER_STATE_MACHINE);
    expect(m).toEqual({ state: BUFFERING, beforePlay: CUED, stopped: false });
    const cuedWhilePaused = { state: CUED, beforePlay: CUED, stopped: true };
    expect(stepPlayerState(cuedWhilePaused, { type: 'play', paused: true })).toBe(cuedWhilePaused);
    expect(stepPlayerState(m, inputs.r).state).toBe(CUED);
    expect(stepPlayerState({ state: PLAYING, beforePlay: PLAYING, stopped: false }, inputs.r).state).toBe(PLAYING);
  });
});
