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
const loaded = (vars: Record<string, string> = {}) =>
  run(initialPlayerModel(configFor(vars)), [{ type: 'videoResponse', seq: 0, response: response('VFsunrise01', true), autoplay: false }]).model;

describe('reducePlayer', () => {
  it('an input of no known type changes nothing, whatever its name (an Object member included)', () => {
    const m = loaded();
    for (const type of ['nope', 'toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const step = reducePlayer(m, { type } as unknown as EngineInput, ctx());
      expect(step).toEqual({ model: m, actions: [] });
      expect(step.model).toBe(m);
    }
  });

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

  it('a quality switch while a play is on its way (asked, not yet playing) plays the new rendition', () => {
    const m = loaded();
    const step = reducePlayer(m, { type: 'setPlaybackQuality', quality: 'small' }, { ...ctx(PlayerState.CUED, 0), playWanted: true });
    expect(step.actions[0]).toMatchObject({ type: 'source', url: '/media/VFsunrise01/small.webm', play: true });
    const idle = reducePlayer(m, { type: 'setPlaybackQuality', quality: 'small' }, { ...ctx(PlayerState.CUED, 0), playWanted: false });
    expect(idle.actions[0]).toMatchObject({ type: 'source', play: false });
  });

  it("play, pause, stop and seek asked while a load's answer is on its way take effect when it comes", () => {
    const cueCitylight: EngineInput = { type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: false };
    const loadCitylight: EngineInput = { type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: true };
    const answer: EngineInput = { type: 'videoResponse', seq: 1, response: response('VFcitylight', true), autoplay: false };
    const answerAutoplay: EngineInput = { ...answer, autoplay: true } as EngineInput;
    const sourceOf = (r: ReturnType<typeof run>) => r.actions.find((a) => a.type === 'source');
    // Cued, then played before the answer: it plays when it comes (nothing goes to the element before).
    const played = run(loaded(), [cueCitylight], [{ type: 'play' }, ctx(PlayerState.CUED)]);
    expect(played.actions.filter((a) => a.type === 'play')).toEqual([]);
    expect(sourceOf(run(played.model, [answer]))).toMatchObject({ play: true, startSeconds: 0 });
    // Loaded, then paused (or stopped) before the answer: it stays paused.
    expect(sourceOf(run(loaded(), [loadCitylight], [{ type: 'pause' }, ctx(PlayerState.UNSTARTED)], [answerAutoplay]))).toMatchObject({ play: false });
    expect(sourceOf(run(loaded(), [loadCitylight], [{ type: 'stop' }, ctx(PlayerState.UNSTARTED)], [answerAutoplay]))).toMatchObject({ play: false });
    // A seek before the answer is where the video starts; from the cued state it plays, as a seek there does.
    const seeked = run(loaded(), [cueCitylight], [{ type: 'seek', seconds: 6, allowSeekAhead: true }, ctx(PlayerState.CUED)], [answer]);
    expect(sourceOf(seeked)).toMatchObject({ play: true, startSeconds: 6 });
    const pausedSeek = run(
      loaded(),
      [cueCitylight],
      [{ type: 'pause' }, ctx(PlayerState.CUED)],
      [{ type: 'seek', seconds: 6, allowSeekAhead: true }, ctx(PlayerState.CUED)],
      [answer],
    );
    expect(sourceOf(pausedSeek)).toMatchObject({ play: false, startSeconds: 6 });
    // What was asked belongs to that load: the next load starts afresh.
    const reloaded = run(played.model, [cueCitylight], [{ ...answer, seq: 2 } as EngineInput]);
    expect(sourceOf(reloaded)).toMatchObject({ play: false });
  });

  it('seek keeps a paused player paused and starts a cued or ended one', () => {
    const m = loaded();
    expect(run(m, [{ type: 'seek', seconds: 5, allowSeekAhead: true }, ctx(PlayerState.PAUSED)]).actions).toEqual([{ type: 'seek', seconds: 5 }]);
    expect(run(m, [{ type: 'seek', seconds: 5, allowSeekAhead: true }, ctx(PlayerState.CUED)]).actions).toEqual([
      { type: 'seek', seconds: 5 },
      { type: 'play' },
    ]);
    // The seek slider's keys keep a cued (or ended) player as it is: only the position moves.
    expect(run(m, [{ type: 'seek', seconds: 5, allowSeekAhead: true, keepState: true }, ctx(PlayerState.CUED)]).actions).toEqual([
      { type: 'seek', seconds: 5 },
    ]);
    expect(run(m, [{ type: 'seek', seconds: 5, allowSeekAhead: true, keepState: true }, ctx(PlayerState.ENDED)]).actions).toEqual([
      { type: 'seek', seconds: 5 },
    ]);
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
    expect(list.actions).toEqual([
      { type: 'state', input: { type: 'cue' } },
      { type: 'pause' },
      { type: 'fetchVideo', seq: 1, videoId: 'VFcitylight', autoplay: false },
    ]);
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

  it('a looping playlist of one comes back to its video with the response it has: a load like any other, no new request', () => {
    const m = loaded({ loop: '1', playlist: 'VFsunrise01' });
    expect(m.playlist).toMatchObject({ ids: ['VFsunrise01'], index: 0 });
    const again = run(m, [{ type: 'mediaEnded' }]);
    // The same load as a move to another item (state -1, a new sequence number, the response cleared until it is
    // answered), only the fetch carries the response that just played.
    expect(again.actions).toEqual([
      { type: 'state', input: { type: 'load' } },
      { type: 'fetchVideo', seq: 1, videoId: 'VFsunrise01', autoplay: true, reuse: m.response },
    ]);
    expect(again.model).toMatchObject({ loadSeq: 1, response: null, quality: '', videoId: 'VFsunrise01' });
    // Answered with it, the same rendition goes back into the element from the start, playing.
    const answered = run(again.model, [{ type: 'videoResponse', seq: 1, response: m.response!, autoplay: true }]);
    expect(answered.actions[0]).toMatchObject({ type: 'source', url: '/media/VFsunrise01/medium.webm', startSeconds: 0, play: true });
    // Another video next, or a video that failed, is asked for as before.
    const two = loaded({ loop: '1', playlist: 'VFsunrise01,VFcitylight' });
    expect(run(two, [{ type: 'mediaEnded' }]).actions).toContainEqual({ type: 'fetchVideo', seq: 1, videoId: 'VFcitylight', autoplay: true });
    const failed = run(m, [{ type: 'mediaError', code: 3 }], [{ type: 'mediaEnded' }]);
    expect(failed.actions).toContainEqual({ type: 'fetchVideo', seq: 1, videoId: 'VFsunrise01', autoplay: true });
    // A move asked for by the host or the viewer (next, playVideoAt) asks the network, even for the same video.
    expect(run(m, [{ type: 'nextVideo' }]).actions).toContainEqual({ type: 'fetchVideo', seq: 1, videoId: 'VFsunrise01', autoplay: true });
  });

  it('a list id is fetched, then its item at index plays', () => {
    const asked = run(loaded(), [{ type: 'loadPlaylist', options: { list: 'PLvfDemoPlaylist01', index: 2 }, autoplay: true }]);
    expect(asked.actions[1]).toEqual({ type: 'fetchPlaylist', seq: 1, listId: 'PLvfDemoPlaylist01', index: 2, autoplay: true, startSeconds: 0 });
    const got = run(asked.model, [
      {
        type: 'playlistResponse',
        seq: 1,
        listId: 'PLvfDemoPlaylist01',
        title: 'Demo',
        ids: ['a0000000000', 'b0000000000', 'c0000000000'],
        titles: {},
        index: 2,
        autoplay: true,
        startSeconds: 0,
      },
    ]);
    expect(got.model.playlist).toMatchObject({ listId: 'PLvfDemoPlaylist01', index: 2 });
    expect(got.actions).toContainEqual({ type: 'fetchVideo', seq: 2, videoId: 'c0000000000', autoplay: true });
  });

  it('a play, or a pause and a seek, asked while a list id is fetched go to the video the list starts with', () => {
    const answer: EngineInput = {
      type: 'playlistResponse',
      seq: 1,
      listId: 'PLvfDemoPlaylist01',
      title: 'Demo',
      ids: ['a0000000000', 'b0000000000'],
      titles: {},
      index: 1,
      autoplay: false,
      startSeconds: 0,
    };
    const cue: EngineInput = { type: 'loadPlaylist', options: { list: 'PLvfDemoPlaylist01', index: 1 }, autoplay: false };
    const played = run(loaded(), [cue], [{ type: 'play' }, ctx(PlayerState.CUED)], [answer]);
    expect(played.actions).toContainEqual({ type: 'fetchVideo', seq: 2, videoId: 'b0000000000', autoplay: true });
    const load: EngineInput = { ...cue, autoplay: true } as EngineInput;
    const paused = run(
      loaded(),
      [load],
      [{ type: 'pause' }, ctx(PlayerState.UNSTARTED)],
      [{ type: 'seek', seconds: 4, allowSeekAhead: true }, ctx(PlayerState.UNSTARTED)],
      [{ ...answer, autoplay: true } as EngineInput],
    );
    expect(paused.actions).toContainEqual({ type: 'fetchVideo', seq: 2, videoId: 'b0000000000', autoplay: false });
    expect(paused.model.startSeconds).toBe(4);
  });

  it("a channel's uploads and a search are fetched with their list type; the load's suggestedQuality reaches the video", () => {
    const byChannel = run(loaded(), [
      { type: 'loadPlaylist', options: { list: 'VidFrame Samples', listType: 'user_uploads', index: 1, suggestedQuality: 'small' }, autoplay: false },
    ]);
    expect(byChannel.actions).toContainEqual({
      type: 'fetchPlaylist',
      seq: 1,
      listId: 'VidFrame Samples',
      listType: 'user_uploads',
      index: 1,
      autoplay: false,
      startSeconds: 0,
      quality: 'small',
    });
    const bySearch = run(loaded(), [{ type: 'loadPlaylist', options: { list: 'city', listType: 'search', startSeconds: 3 }, autoplay: true }]);
    expect(bySearch.actions).toContainEqual({ type: 'fetchPlaylist', seq: 1, listId: 'city', listType: 'search', index: 0, autoplay: true, startSeconds: 3 });
    // The answer carries the quality back: the video at index is asked for, and plays in it.
    const answer = (seq: number, quality?: string): EngineInput => ({
      type: 'playlistResponse',
      seq,
      listId: null,
      title: 'city',
      ids: ['VFsunrise01', 'VFcitylight'],
      titles: {},
      index: 1,
      autoplay: true,
      startSeconds: 0,
      ...(quality !== undefined && { quality }),
    });
    const got = run(byChannel.model, [answer(1, 'small')]);
    expect(got.model.playlist).toMatchObject({ listId: null, ids: ['VFsunrise01', 'VFcitylight'], index: 1 });
    const played = run(got.model, [{ type: 'videoResponse', seq: 2, response: response('VFcitylight', true), autoplay: true }]);
    expect(played.actions[0]).toMatchObject({ type: 'source', url: '/media/VFcitylight/small.webm', play: true });
    // Without one, the default rendition.
    const plain = run(bySearch.model, [answer(1)], [{ type: 'videoResponse', seq: 2, response: response('VFcitylight', true), autoplay: true }]);
    expect(plain.actions).toContainEqual(expect.objectContaining({ type: 'source', url: '/media/VFcitylight/medium.webm' }));
  });

  it('a list of an unknown type, or an answer with no video, fails with api.invalidparam (host code 2)', () => {
    const unknown = run(loaded(), [{ type: 'loadPlaylist', options: { list: 'anything', listType: 'favorites' }, autoplay: true }]);
    expect(unknown.model.error).toMatchObject({ internal: 'api.invalidparam' });
    expect(unknown.actions.some((a) => a.type === 'fetchPlaylist')).toBe(false);
    const asked = run(loaded(), [{ type: 'loadPlaylist', options: { list: 'zebra', listType: 'search' }, autoplay: true }]);
    const empty = run(asked.model, [
      { type: 'playlistResponse', seq: 1, listId: null, title: '', ids: [], titles: {}, index: 0, autoplay: true, startSeconds: 0 },
    ]);
    expect(empty.model.error).toMatchObject({ internal: 'api.invalidparam' });
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
    expect(run(m, [{ type: 'mute' }], [{ type: 'unMute' }]).actions).toEqual([
      { type: 'muted', muted: true },
      { type: 'muted', muted: false },
    ]);
  });

  it('captions on/off and track choice (also through setOption)', () => {
    const m = loaded();
    expect(run(m, [{ type: 'setCaptions', enabled: true }]).actions).toEqual([{ type: 'captions', languageCode: 'en' }]);
    const es = run(m, [{ type: 'setCaptions', enabled: true, languageCode: 'es' }]);
    expect(es.actions).toEqual([{ type: 'captions', languageCode: 'es' }]);
    expect(run(es.model, [{ type: 'setCaptions', enabled: false }], [{ type: 'setCaptions', enabled: true }]).actions[1]).toEqual({
      type: 'captions',
      languageCode: 'es',
    });
    expect(run(m, [{ type: 'setOption', module: 'captions', option: 'track', value: { languageCode: 'es' } }]).actions).toEqual([
      { type: 'captions', languageCode: 'es' },
    ]);
    expect(run(m, [{ type: 'setOption', module: 'captions', option: 'track', value: {} }]).actions).toEqual([{ type: 'captions', languageCode: null }]);
  });

  describe("setOption('captions', …): the IFrame API's captions module", () => {
    const opt = (option: string, value: unknown, module = 'captions'): EngineInput => ({ type: 'setOption', module, option, value });
    const on = loaded({ cc_load_policy: '1', cc_lang_pref: 'en' });

    it('track: a language of the tracklist (or its primary language) shows it; {} or no code turns captions off', () => {
      expect(run(on, [opt('track', { languageCode: 'es', languageName: 'Spanish' })]).actions).toEqual([{ type: 'captions', languageCode: 'es' }]);
      expect(run(on, [opt('track', { languageCode: 'es-MX' })]).actions).toEqual([{ type: 'captions', languageCode: 'es' }]);
      expect(run(on, [opt('track', { languageCode: 'es' }, 'cc')]).actions).toEqual([{ type: 'captions', languageCode: 'es' }]);
      const off = run(on, [opt('track', {})]);
      expect(off.actions).toEqual([{ type: 'captions', languageCode: null }]);
      expect(off.model.captions.enabled).toBe(false);
      expect(run(on, [opt('track', { languageCode: '' })]).actions).toEqual([{ type: 'captions', languageCode: null }]);
    });

    it('track: an unknown language, a non-object or a bad code is ignored (captions stay as they were)', () => {
      for (const value of [{ languageCode: 'xx' }, { languageCode: 42 }, 'es', null, undefined, ['es'], 3]) {
        const step = reducePlayer(on, opt('track', value), ctx());
        expect(step).toEqual({ model: on, actions: [] });
      }
    });

    it('fontSize: an integer from -1 to 3 is kept in the display settings; anything else is ignored', () => {
      expect(on.subtitlesUserSettings.fontSizeIncrement).toBe(0);
      for (const size of [-1, 0, 1, 2, 3]) {
        const step = run(on, [opt('fontSize', 2)], [opt('fontSize', size)]);
        expect(step.model.subtitlesUserSettings.fontSizeIncrement).toBe(size);
        expect(step.actions).toEqual([]);
      }
      const three = run(on, [opt('fontSize', 3)]).model;
      for (const bad of [-2, 4, 1.5, '2', NaN, Infinity, null, undefined, { size: 1 }]) {
        expect(reducePlayer(three, opt('fontSize', bad), ctx()).model).toBe(three);
      }
    });

    it('displaySettings: valid keys are applied, bad keys and values are ignored, fontSizeIncrement is fontSize', () => {
      const step = run(on, [
        opt('displaySettings', { color: '#FF0', background: '#000080', backgroundOpacity: 0.5, fontSizeIncrement: 2, charEdgeStyle: 4, fontFamily: 1 }),
      ]);
      expect(step.model.subtitlesUserSettings).toEqual({
        ...on.subtitlesUserSettings,
        color: '#ffff00',
        background: '#000080',
        backgroundOpacity: 0.5,
        fontSizeIncrement: 2,
        charEdgeStyle: 4,
        fontFamily: 1,
      });
      const bad = {
        color: 'red; display:none',
        background: 'url(x)',
        backgroundOpacity: 2,
        textOpacity: -1,
        fontFamily: 9,
        fontSizeIncrement: 7,
        charEdgeStyle: 1.5,
        windowColor: 42,
        nope: true,
      };
      expect(reducePlayer(on, opt('displaySettings', bad), ctx()).model).toBe(on);
      for (const value of ['red', null, [1], 7]) expect(reducePlayer(on, opt('displaySettings', value), ctx()).model).toBe(on);
    });

    it('reload: true fetches the tracks again and keeps the shown one; anything else, or a video without tracks, does nothing', () => {
      const es = run(on, [opt('track', { languageCode: 'es' })]).model;
      const tracks = es.response!.captions!.tracks;
      expect(run(es, [opt('reload', true)]).actions).toEqual([{ type: 'reloadCaptions', captions: tracks, languageCode: 'es' }]);
      const off = run(es, [opt('track', {})]).model;
      expect(run(off, [opt('reload', true)]).actions).toEqual([{ type: 'reloadCaptions', captions: tracks, languageCode: null }]);
      for (const value of [false, 'true', 1, null]) expect(run(es, [opt('reload', value)]).actions).toEqual([]);
      const bare = run(initialPlayerModel(configFor({})), [{ type: 'videoResponse', seq: 0, response: response('VFcitylight'), autoplay: false }]).model;
      expect(run(bare, [opt('reload', true)]).actions).toEqual([]);
    });

    it('another module or an unknown option changes nothing', () => {
      for (const input of [opt('fontSize', 2, 'player'), opt('nope', 1), opt('tracklist', []), opt('__proto__', {})]) {
        expect(reducePlayer(on, input, ctx())).toEqual({ model: on, actions: [] });
      }
    });
  });

  it('errors: invalid id → api.invalidparam at once; unplayable answer → its code; one failure reports one error', () => {
    const bad = run(loaded(), [{ type: 'loadVideo', options: { videoId: 'bad!' }, autoplay: true }]);
    expect(bad.actions.filter((a) => a.type === 'error')).toEqual([{ type: 'error', internal: 'api.invalidparam', message: expect.any(String) }]);
    const asked = run(loaded(), [{ type: 'loadVideo', options: { videoId: 'VFnoembed01' }, autoplay: true }]);
    const denied = run(asked.model, [
      {
        type: 'videoResponse',
        seq: asked.model.loadSeq,
        response: { playabilityStatus: { status: 'UNPLAYABLE', errorCode: 'embedder.identity.denied', reason: 'No.' } },
        autoplay: true,
      },
    ]);
    expect(denied.actions.filter((a) => a.type === 'error')).toEqual([{ type: 'error', internal: 'embedder.identity.denied', message: 'No.' }]);
    // An answer that asks for a signed-in viewer (no error code, as the public answer sends it) is `auth`.
    const login = run(asked.model, [
      { type: 'videoResponse', seq: asked.model.loadSeq, response: { playabilityStatus: { status: 'LOGIN_REQUIRED', reason: 'Sign in.' } }, autoplay: true },
    ]);
    expect(login.actions.filter((a) => a.type === 'error')).toEqual([{ type: 'error', internal: 'auth', message: 'Sign in.' }]);
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
    const withReferral = run(loaded({ playlist: 'VFcitylight' }), [
      { type: 'loadVideo', options: { videoId: 'VFcitylight', rct: 'CAEQ', rctn: '7' }, autoplay: true },
    ]);
    expect(withReferral.model.referral).toEqual({ rct: 'CAEQ', rctn: '7' });
    expect(withReferral.actions).toContainEqual(expect.objectContaining({ type: 'fetchVideo', videoId: 'VFcitylight' }));
    expect(run(withReferral.model, [{ type: 'loadVideo', options: { videoId: 'VFsunrise01' }, autoplay: true }]).model.referral).toBeNull();
    const listed = run(loaded({ playlist: 'VFcitylight' }), [{ type: 'loadVideo', options: { videoId: 'VFsunrise01', rctn: '2' }, autoplay: false }]);
    expect(listed.model.referral).toEqual({ rctn: '2' });
    expect(
      run(listed.model, [{ type: 'loadPlaylist', options: { playlist: ['VFsunrise01', 'VFcitylight'], index: 1 }, autoplay: true }]).model.referral,
    ).toBeNull();
  });

  it('load by URL takes the id from /v/, /e/ or /embed/', () => {
    const byUrl = run(loaded(), [
      { type: 'loadVideo', options: { videoId: '', mediaContentUrl: 'https://example.com/embed/VFcitylight?x=1' }, autoplay: false },
    ]);
    expect(byUrl.actions).toContainEqual({ type: 'fetchVideo', seq: 1, videoId: 'VFcitylight', autoplay: false });
  });

  it('stop pauses, rewinds and cues; clear empties the element', () => {
    expect(run(loaded({ start: '2' }), [{ type: 'stop' }]).actions).toEqual([
      { type: 'pause' },
      { type: 'seek', seconds: 2 },
      { type: 'state', input: { type: 'stop' } },
    ]);
    const cleared = run(loaded(), [{ type: 'clear' }]);
    expect(cleared.actions[0]).toMatchObject({ type: 'source', url: null });
    expect(run(cleared.model, [{ type: 'play' }]).actions).toEqual([]);
  });
});
