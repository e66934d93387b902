import {
  INITIAL_PLAYER_STATE_MACHINE,
  nextPlayerState,
  PlayerState,
  stepPlayerState,
  type PlayerStateInput,
  type PlayerStateValue,
} from '../../../streams/player/playerState';

const run = (start: PlayerStateValue, ...inputs: PlayerStateInput[]) => inputs.reduce(nextPlayerState, start);
const { UNSTARTED, ENDED, PLAYING, PAUSED, BUFFERING, CUED } = PlayerState;

describe('player state machine', () => {
  it('uses the protocol numbers (there is no 4)', () => {
    expect(PlayerState).toEqual({ UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 });
  });
  it('cue → 5; load → -1 → 3 → 1', () => {
    expect(run(UNSTARTED, { type: 'cue' })).toBe(CUED);
    expect(run(UNSTARTED, { type: 'load' }, { type: 'play' })).toBe(BUFFERING);
    expect(run(UNSTARTED, { type: 'load' }, { type: 'play' }, { type: 'playing' })).toBe(PLAYING);
  });
  it('a stall while playing goes to 3 and back to 1', () => {
    expect(run(PLAYING, { type: 'waiting' })).toBe(BUFFERING);
    expect(run(PLAYING, { type: 'waiting' }, { type: 'playing' })).toBe(PLAYING);
  });
  it('seeking while paused stays paused', () => {
    expect(run(PAUSED, { type: 'seeking' }, { type: 'waiting' }, { type: 'seeked', paused: true })).toBe(PAUSED);
  });
  it('the pause the element fires at its end does not hide the end', () => {
    expect(run(PLAYING, { type: 'pause' }, { type: 'ended' })).toBe(ENDED);
    expect(run(ENDED, { type: 'pause' })).toBe(ENDED);
  });
  it('the pause of the natural end (ended: true) is not a 2: 1 stays 1 until ended gives 0', () => {
    expect(run(PLAYING, { type: 'pause', ended: true })).toBe(PLAYING);
    expect(run(BUFFERING, { type: 'pause', ended: true })).toBe(BUFFERING);
  });
  it('cueing or stopping while playing stays cued when the element then fires its pause', () => {
    expect(run(PLAYING, { type: 'cue' }, { type: 'pause' })).toBe(CUED);
    expect(run(PLAYING, { type: 'stop' }, { type: 'pause' })).toBe(CUED);
  });
  it('a play or playing the element queued before a cue or stop (it is paused when they arrive) moves nothing', () => {
    const step = (start: PlayerStateValue, ...inputs: PlayerStateInput[]) =>
      inputs.reduce(stepPlayerState, { ...INITIAL_PLAYER_STATE_MACHINE, state: start, beforePlay: start }).state;
    // The cue came while the video it replaced was still starting: its late events must not leave "cued".
    expect(step(BUFFERING, { type: 'cue' }, { type: 'playing', paused: true }, { type: 'pause', paused: true })).toBe(CUED);
    expect(step(UNSTARTED, { type: 'load' }, { type: 'cue' }, { type: 'play', paused: true }, { type: 'pause', paused: true })).toBe(CUED);
    expect(step(PLAYING, { type: 'stop' }, { type: 'play', paused: true }, { type: 'playing', paused: true })).toBe(CUED);
    // Without a cue since, the same pair is a play then a pause (a host's playVideo then pauseVideo at once): 3, then 2.
    expect(step(CUED, { type: 'play', paused: true })).toBe(BUFFERING);
    expect(step(CUED, { type: 'play', paused: true }, { type: 'pause', paused: true })).toBe(PAUSED);
    // The cue's own pause, or a real play, ends the window: a later quick play then pause counts again.
    expect(step(PLAYING, { type: 'cue' }, { type: 'pause', paused: true }, { type: 'play', paused: true }, { type: 'pause', paused: true })).toBe(PAUSED);
    expect(step(CUED, { type: 'cue' }, { type: 'play', paused: false }, { type: 'playing', paused: false })).toBe(PLAYING);
  });
  it('a refused play() never reports 1', () => {
    expect(run(UNSTARTED, { type: 'load' }, { type: 'play' }, { type: 'playRefused' })).toBe(CUED);
    expect(run(CUED, { type: 'playRefused' })).toBe(CUED);
    expect(run(PAUSED, { type: 'play' }, { type: 'playRefused' })).toBe(CUED);
  });
  it('errors and emptied keep the state', () => {
    expect(run(PLAYING, { type: 'error' })).toBe(PLAYING);
    expect(run(CUED, { type: 'emptied' })).toBe(CUED);
  });
});
