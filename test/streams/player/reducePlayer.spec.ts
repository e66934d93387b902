import { configFor, response } from './fixtures';
import { initialPlayerModel, type PlayerModel } from '../../../streams/player/playerModel';
import { PlayerState, type PlayerStateValue } from '../../../streams/player/playerState';
import { reducePlayer, type EngineInput, type PlayerAction } from '../../../streams/player/reducePlayer';

const ctx = (state: PlayerStateValue = PlayerState.PLAYING, currentTime = 4.5) => ({ state, currentTime, random: () => 0 });

/** Feeds inputs in order (each with its context) and returns the last model and every action. */
function run(model: PlayerModel, ...steps: [EngineInput, ReturnType<typeof ctx>?][]) {
  const actions: PlayerAction[] = [];
  for (const [input, c] of steps) {
    const step = reducePlayer(model, input, c ?? ctx());
    model = step.model;
    actions.push(...step.actions);
  }
  return { model, actions };
}

/** The configured video, loaded (seq 0) as the page does at start. */
const loaded = (vars: Record<string, string> = {}) => run(initialPlayerModel(configFor(vars)), [{ type: 'videoResponse', seq: 0, response: response('VFsunrise01', true), autoplay: false }]).model;

describe('reducePlayer', () => {
  it('puts the default rendition into the element, at the start variable, with caption tracks', () => {
    const { model, actions } = run(initialPlayerModel(configFor({ start: '3', end: '8', cc_load_policy: '1' })), [
      { type: 'videoResponse', seq: 0, response: response('VFsunrise01', true), autoplay: true },
    ]);
    expect(model.quality).toBe('medium');
    expect(actions[0]).toMatchObject({ type: 'source', url: '/media/VFsunrise01/medium.webm', startSeconds: 3, play: true });
    expect(actions[1]).toEqual({ type: 'captions', languageCode: 'en' });
    expect(model.endSeconds).toBe(8);
  });

  it('a quality switch keeps the position and the play state', () => {
    const m = loaded();
    const playing = run(m, [{ type: 'setPlaybackQuality', quality: 'small' }, ctx(PlayerState.PLAYING, 4.5)]);
    expect(playing.actions[0]).toMatchObject({ type: 'source', url: '/media/VFsunrise01/small.webm', startSeconds: 4.5, play: true });
    expect(playing.model.quality).toBe('small');
    const paused = run(m, [{ type: 'setPlaybackQuality', quality: 'small' }, ctx(PlayerState.PAUSED, 7)]);
    expect(paused.actions[0]).toMatchObject({ startSeconds: 7, play: false });
    // The same quality again, or an unknown name mapping to the same rendition, does nothing.
    expect(run(playing.model, [{ type: 'setPlaybackQuality', quality: 'small' }]).actions).toEqual([]);
    expect(run(m, [{ type: 'setPlaybackQuality', quality: 'auto' }]).actions).toEqual([]);
    // A higher quality than exists gets the best below it.
    expect(run(playing.model, [{ type: 'setPlaybackQuality', quality: 'hd1080' }]).model.quality).toBe('medium');
  });

  it('seek keeps a paused player paused and starts a cued or ended one', () => {
    const m = loaded();
    expect(run(m, [{ type: 'seek', seconds: 5, allowSeekAhead: true }, ctx(PlayerState.PAUSED)]).actions).toEqual([{ type: 'seek', seconds: 5 }]);
    expect(run(m, [{ type: 'seek', seconds: 5, allowSeekAhead: true }, ctx(PlayerState.CUED)]).actions).toEqual([{ type: 'seek', seconds: 5 }, { type: 'play' }]);
    expect(run(m, [{ type: 'seek', seconds: -3, allowSeekAhead: false }, ctx(PlayerState.PLAYING)]).actions).toEqual([{ type: 'seek', seconds: 0 }]);
    expect(run(m, [{ type: 'seek', seconds: NaN, allowSeekAhead: true }]).actions).toEqual([]);
  });

  it('stops at endSeconds: pause, state 0 once; play then restarts the clip from startSeconds', () => {
    const m = loaded({ start: '2', end: '5' });
    const reached = run(m, [{ type: 'timeUpdate', currentTime: 4.9 }], [{ type: 'timeUpdate', currentTime: 5.02 }], [{ type: 'timeUpdate', currentTime: 5.1 }]);
    expect(reached.actions).toEqual([{ type: 'pause' }, { type: 'state', input: { type: 'clipEnd' } }]);
    expect(run(reached.model, [{ type: 'play' }, ctx(PlayerState.ENDED)]).actions).toEqual([{ type: 'seek', seconds: 2 }, { type: 'play' }]);
  });

  it('the end of a looping video restarts it; without loop nothing happens', () => {
    expect(run(loaded({ loop: '1' }), [{ type: 'mediaEnded' }]).actions).toEqual([{ type: 'seek', seconds: 0 }, { type: 'play' }]);
    expect(run(loaded(), [{ type: 'mediaEnded' }]).actions).toEqual([]);
    const looping = run(loaded(), [{ type: 'setLoop', loop: true }], [{ type: 'mediaEnded' }]);
    expect(looping.actions).toEqual([{ type: 'seek', seconds: 0 }, { type: 'play' }]);
  });

  it('a playlist advances at the end, next/previous move, playVideoAt jumps, loop wraps', () => {
    const m = loaded();
    const list = run(m, [{ type: 'loadPlaylist', options: { playlist: ['VFsunrise01', 'VFcitylight', 'VFoceanwave'], index: 1 }, autoplay: false }]);
    expect(list.model.playlist).toMatchObject({ ids: ['VFsunrise01', 'VFcitylight', 'VFoceanwave'], index: 1 });
    expect(list.actions).toEqual([{ type: 'state', input: { type: 'cue' } }, { type: 'fetchVideo', seq: 1, videoId: 'VFcitylight', autoplay: false }]);
    const end = run(list.model, [{ type: 'mediaEnded' }]);
    expect(end.model.playlist?.index).toBe(2);
    expect(end.actions).toContainEqual({ type: 'fetchVideo', seq: 2, videoId: 'VFoceanwave', autoplay: true });
    // At the last item: next does nothing without loop, wraps with it.
    expect(run(end.model, [{ type: 'nextVideo' }]).actions).toEqual([]);
    expect(run(end.model, [{ type: 'setLoop', loop: true }], [{ type: 'nextVideo' }]).model.playlist?.index).toBe(0);
    expect(run(end.model, [{ type: 'previousVideo' }]).model.playlist?.index).toBe(1);
    expect(run(end.model, [{ type: 'playVideoAt', index: 0 }]).model.playlist?.index).toBe(0);
    expect(run(end.model, [{ type: 'playVideoAt', index: 7 }]).actions).toEqual([]);
  });

  it('a list id is fetched, then its item at index plays', () => {
    const asked = run(loaded(), [{ type: 'loadPlaylist', options: { list: 'PLvfDemoPlaylist01', index: 2 }, autoplay: true }]);
    expect(asked.actions[1]).toEqual({ type: 'fetchPlaylist', seq: 1, listId: 'PLvfDemoPlaylist01', index: 2, autoplay: true, startSeconds: 0 });
    const got = run(asked.model, [{ type: 'playlistResponse', seq: 1, listId: 'PLvfDemoPlaylist01', title: 'Demo', ids: ['a0000000000', 'b0000000000', 'c0000000000'], titles: {}, index: 2, autoplay: true, startSeconds: 0 }]);
    expect(got.model.playlist).toMatchObject({ listId: 'PLvfDemoPlaylist01', index: 2 });
    expect(got.actions).toContainEqual({ type: 'fetchVideo', seq: 2, videoId: 'c0000000000', autoplay: true });
  });

  it('shuffle plays the list in a random order that starts with the current item', () => {
    const list = run(loaded(), [{ type: 'loadPlaylist', options: { playlist: ['VFsunrise01', 'VFcitylight', 'VFoceanwave'] }, autoplay: true }]).model;
    const shuffled = reducePlayer(list, { type: 'setShuffle', shuffle: true }, { ...ctx(), random: () => 0 }).model;
    expect(shuffled.playlist?.order).toEqual([0, 2, 1]);
    expect(run(shuffled, [{ type: 'nextVideo' }]).model.playlist?.index).toBe(2);
    expect(run(shuffled, [{ type: 'setShuffle', shuffle: false }]).model.playlist?.order).toBeNull();
  });

  it('volume is clamped to 0–100, rates snap to the available list, bad values are ignored', () => {
    const m = loaded();
    expect(run(m, [{ type: 'setVolume', volume: 140 }]).actions).toEqual([{ type: 'volume', volume: 100 }]);
    expect(run(m, [{ type: 'setVolume', volume: Number('x') }]).actions).toEqual([]);
    expect(run(m, [{ type: 'setPlaybackRate', rate: 1.3 }]).actions).toEqual([{ type: 'rate', rate: 1.25 }]);
    expect(run(m, [{ type: 'setPlaybackRate', rate: 9 }]).actions).toEqual([{ type: 'rate', rate: 2 }]);
    expect(run(m, [{ type: 'mute' }], [{ type: 'unMute' }]).actions).toEqual([{ type: 'muted', muted: true }, { type: 'muted', muted: false }]);
  });

  it('captions on/off and track choice (also through setOption)', () => {
    const m = loaded();
    expect(run(m, [{ type: 'setCaptions', enabled: true }]).actions).toEqual([{ type: 'captions', languageCode: 'en' }]);
    const es = run(m, [{ type: 'setCaptions', enabled: true, languageCode: 'es' }]);
    expect(es.actions).toEqual([{ type: 'captions', languageCode: 'es' }]);
    expect(run(es.model, [{ type: 'setCaptions', enabled: false }], [{ type: 'setCaptions', enabled: true }]).actions[1]).toEqual({ type: 'captions', languageCode: 'es' });
    expect(run(m, [{ type: 'setOption', module: 'captions', option: 'track', value: { languageCode: 'es' } }]).actions).toEqual([{ type: 'captions', languageCode: 'es' }]);
    expect(run(m, [{ type: 'setOption', module: 'captions', option: 'track', value: {} }]).actions).toEqual([{ type: 'captions', languageCode: null }]);
  });

  it('errors: invalid id → api.invalidparam at once; unplayable answer → its code; one failure reports one error', () => {
    const bad = run(loaded(), [{ type: 'loadVideo', options: { videoId: 'bad!' }, autoplay: true }]);
    expect(bad.actions.filter((a) => a.type === 'error')).toEqual([{ type: 'error', internal: 'api.invalidparam', message: expect.any(String) }]);
    const asked = run(loaded(), [{ type: 'loadVideo', options: { videoId: 'VFnoembed01' }, autoplay: true }]);
    const denied = run(asked.model, [
      { type: 'videoResponse', seq: asked.model.loadSeq, response: { playabilityStatus: { status: 'UNPLAYABLE', errorCode: 'embedder.identity.denied', reason: 'No.' } }, autoplay: true },
    ]);
    expect(denied.actions.filter((a) => a.type === 'error')).toEqual([{ type: 'error', internal: 'embedder.identity.denied', message: 'No.' }]);
    // The broken file: the element's error, then a second one: reported once.
    const broken = run(loaded(), [{ type: 'mediaError', code: 4 }], [{ type: 'mediaError', code: 3 }]);
    expect(broken.actions.filter((a) => a.type === 'error')).toHaveLength(1);
    expect(broken.model.error?.internal).toBe('fmt.unplayable');
    // A new load clears it; a late answer for an older load is ignored.
    const again = run(broken.model, [{ type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: true }]);
    expect(again.model.error).toBeNull();
    expect(run(again.model, [{ type: 'videoResponse', seq: 0, response: response('VFold0000000'), autoplay: true }]).actions).toEqual([]);
  });

  it('rct / rctn of the video load options (spec §3) ride with their load; a playlist move or a load without them clears them', () => {
    const withReferral = run(loaded({ playlist: 'VFcitylight' }), [{ type: 'loadVideo', options: { videoId: 'VFcitylight', rct: 'CAEQ', rctn: '7' }, autoplay: true }]);
    expect(withReferral.model.referral).toEqual({ rct: 'CAEQ', rctn: '7' });
    expect(withReferral.actions).toContainEqual(expect.objectContaining({ type: 'fetchVideo', videoId: 'VFcitylight' }));
    expect(run(withReferral.model, [{ type: 'loadVideo', options: { videoId: 'VFsunrise01' }, autoplay: true }]).model.referral).toBeNull();
    const listed = run(loaded({ playlist: 'VFcitylight' }), [{ type: 'loadVideo', options: { videoId: 'VFsunrise01', rctn: '2' }, autoplay: false }]);
    expect(listed.model.referral).toEqual({ rctn: '2' });
    expect(run(listed.model, [{ type: 'loadPlaylist', options: { playlist: ['VFsunrise01', 'VFcitylight'], index: 1 }, autoplay: true }]).model.referral).toBeNull();
  });

  it('load by URL takes the id from /v/, /e/ or /embed/', () => {
    const byUrl = run(loaded(), [{ type: 'loadVideo', options: { videoId: '', mediaContentUrl: 'https://example.com/embed/VFcitylight?x=1' }, autoplay: false }]);
    expect(byUrl.actions).toContainEqual({ type: 'fetchVideo', seq: 1, videoId: 'VFcitylight', autoplay: false });
  });

  it('stop pauses, rewinds and cues; clear empties the element', () => {
    expect(run(loaded({ start: '2' }), [{ type: 'stop' }]).actions).toEqual([{ type: 'pause' }, { type: 'seek', seconds: 2 }, { type: 'state', input: { type: 'stop' } }]);
    const cleared = run(loaded(), [{ type: 'clear' }]);
    expect(cleared.actions[0]).toMatchObject({ type: 'source', url: null });
    expect(run(cleared.model, [{ type: 'play' }]).actions).toEqual([]);
  });
});
