import { map, NEVER, tap } from 'rxjs';
import type { PlayerResponse } from '../../../streams/config/playerConfig';
import { playerEngine } from '../../../streams/player/playerEngine';
import { initialPlayerModel, NO_SEEK, type PlayerModel } from '../../../streams/player/playerModel';
import { PlayerState, type PlayerStateValue } from '../../../streams/player/playerState';
import { reducePlayer, type EngineContext, type EngineInput, type PlayerAction } from '../../../streams/player/reducePlayer';
import { createTestScheduler } from '../../helpers/testScheduler';
import { configFor, response } from './fixtures';

/** The page as the engine reads it: by default an element without metadata yet, that has the medium rendition. */
const page = (over: Partial<EngineContext> = {}, state: PlayerStateValue = PlayerState.PAUSED): EngineContext => ({
  currentTime: 0,
  state,
  random: () => 0,
  hasMetadata: false,
  source: '/media/VFsunrise01/medium.webm',
  ...over,
});
const withMetadata = (over: Partial<EngineContext> = {}, state?: PlayerStateValue) => page({ hasMetadata: true, ...over }, state);

/** Feeds inputs in order, each with its context, and returns the last model and every action. */
function run(model: PlayerModel, ...steps: [EngineInput, EngineContext][]) {
  const actions: PlayerAction[] = [];
  for (const [input, ctx] of steps) {
    const step = reducePlayer(model, input, ctx);
    model = step.model;
    actions.push(...step.actions);
  }
  return { model, actions };
}

/** The configured video answered (seq 0), as the page does at start: a new source for an element that has none. */
const loaded = (vars: Record<string, string> = {}) =>
  run(initialPlayerModel(configFor(vars)), [
    { type: 'videoResponse', seq: 0, response: response('VFsunrise01', true), autoplay: false },
    page({ source: null }),
  ]).model;

const seek = (seconds: number, keepState?: boolean): EngineInput => ({ type: 'seek', seconds, allowSeekAhead: true, ...(keepState && { keepState }) });

describe('the seek state in the model', () => {
  it('starts with no seek waiting', () => {
    expect(initialPlayerModel(configFor()).seek).toEqual(NO_SEEK);
    expect(loaded().seek).toEqual(NO_SEEK);
  });

  it('a seek before the element has its metadata waits in the model, its target shown as the time; no seek reaches the element', () => {
    const { model, actions } = run(loaded(), [seek(5), page()]);
    expect(model.seek).toEqual({ pending: 5, target: 5 });
    expect(actions).toEqual([]);
  });

  it('a waiting seek stays within the video length the response says (12 s)', () => {
    expect(run(loaded(), [seek(30), page()]).model.seek).toEqual({ pending: 12, target: 12 });
  });

  it('a seek that starts a cued player before the metadata plays at once and waits for its position', () => {
    const { model, actions } = run(loaded(), [seek(5), page({}, PlayerState.CUED)]);
    expect(actions).toEqual([{ type: 'play' }]);
    expect(model.seek).toEqual({ pending: 5, target: 5 });
  });

  it('a newer seek before the metadata replaces the waiting one', () => {
    expect(run(loaded(), [seek(5), page()], [seek(8), page()]).model.seek).toEqual({ pending: 8, target: 8 });
  });

  it('the metadata performs the waiting seek, once, and the time is the element’s own again', () => {
    const { model, actions } = run(loaded(), [seek(5), page()], [{ type: 'metadataLoaded' }, withMetadata()]);
    expect(actions).toEqual([{ type: 'seek', seconds: 5 }]);
    expect(model.seek).toEqual(NO_SEEK);
    // Nothing waiting: the next metadata (another source) changes nothing, the same model.
    const again = reducePlayer(model, { type: 'metadataLoaded' }, withMetadata());
    expect(again.actions).toEqual([]);
    expect(again.model).toBe(model);
  });

  it('a seek once the element has its metadata goes to it at once and drops a waiting one, which its event must not undo', () => {
    const { model, actions } = run(loaded(), [seek(5), page()], [seek(9), withMetadata()], [{ type: 'metadataLoaded' }, withMetadata()]);
    expect(actions).toEqual([{ type: 'seek', seconds: 9 }]);
    expect(model.seek).toEqual(NO_SEEK);
  });

  it('a new source waits for its start position without showing it as the time, and ends what a waiting seek said', () => {
    const waiting = run(loaded(), [seek(5), page()]).model;
    const load = run(
      waiting,
      [{ type: 'loadVideo', options: { videoId: 'VFcitylight', startSeconds: 3 }, autoplay: true }, page()],
      [{ type: 'videoResponse', seq: waiting.loadSeq + 1, response: response('VFcitylight'), autoplay: true }, page()],
    );
    expect(load.actions.find((a) => a.type === 'source')).toMatchObject({ url: '/media/VFcitylight/medium.webm', startSeconds: 3 });
    expect(load.model.seek).toEqual({ pending: 3, target: null });
    // At its metadata the element goes to the start.
    expect(run(load.model, [{ type: 'metadataLoaded' }, withMetadata()]).actions).toEqual([{ type: 'seek', seconds: 3 }]);
    // A start of 0 waits for nothing.
    expect(run(loaded(), [{ type: 'videoResponse', seq: 0, response: response('VFsunrise01'), autoplay: true }, page({ source: null })]).model.seek).toEqual(
      NO_SEEK,
    );
  });

  it('a source the element has already with its metadata goes to its start at once: nothing waits', () => {
    const model = initialPlayerModel(configFor({ start: '4' }));
    const step = reducePlayer(model, { type: 'videoResponse', seq: 0, response: response('VFsunrise01'), autoplay: false }, withMetadata());
    expect(step.actions[0]).toMatchObject({ type: 'source', url: '/media/VFsunrise01/medium.webm', startSeconds: 4 });
    expect(step.model.seek).toEqual(NO_SEEK);
    // The same source without its metadata yet waits for it.
    expect(reducePlayer(model, { type: 'videoResponse', seq: 0, response: response('VFsunrise01'), autoplay: false }, page()).model.seek).toEqual({
      pending: 4,
      target: null,
    });
  });

  it('a quality switch waits for the new rendition to go where the old one was', () => {
    const playing = run(loaded(), [{ type: 'metadataLoaded' }, withMetadata()]).model;
    const { model, actions } = run(playing, [{ type: 'setPlaybackQuality', quality: 'small' }, withMetadata({ currentTime: 6.5 }, PlayerState.PLAYING)]);
    expect(actions[0]).toMatchObject({ type: 'source', url: '/media/VFsunrise01/small.webm', startSeconds: 6.5, play: true });
    expect(model.seek).toEqual({ pending: 6.5, target: null });
  });

  it('emptying the element (clear) drops everything waiting', () => {
    const waiting = run(loaded(), [seek(5), page()]).model;
    expect(run(waiting, [{ type: 'clear' }, page()]).model.seek).toEqual(NO_SEEK);
  });

  it('an emptied or failed element ends what the target said; the seek stays pending for the metadata', () => {
    const waiting = run(loaded(), [seek(5), page()]).model;
    expect(run(waiting, [{ type: 'mediaEmptied' }, page()]).model.seek).toEqual({ pending: 5, target: null });
    const failed = run(waiting, [{ type: 'mediaError', code: 4 }, page()]);
    expect(failed.model.seek).toEqual({ pending: 5, target: null });
    expect(failed.actions).toEqual([{ type: 'pause' }, expect.objectContaining({ type: 'error', internal: 'fmt.unplayable' })]);
    // An element without a source fires `error` too: the target goes, and it is no failure of the video.
    const sourceless = run(waiting, [{ type: 'mediaError', code: 4, hasSource: false }, page({ source: null })]);
    expect(sourceless.model.seek).toEqual({ pending: 5, target: null });
    expect(sourceless.model.error).toBeNull();
    expect(sourceless.actions).toEqual([]);
    // Nothing shown: the same model.
    const none = loaded();
    expect(reducePlayer(none, { type: 'mediaEmptied' }, page()).model).toBe(none);
  });

  it('stop, a replay after the end and a loop go back to the start through the same rule before the metadata', () => {
    const start = loaded({ start: '2', loop: '1' });
    expect(run(start, [{ type: 'stop' }, page()])).toMatchObject({
      model: { seek: { pending: 2, target: 2 } },
      actions: [{ type: 'pause' }, { type: 'state', input: { type: 'stop' } }],
    });
    expect(run(start, [{ type: 'play' }, page({}, PlayerState.ENDED)])).toMatchObject({
      model: { seek: { pending: 2, target: 2 } },
      actions: [{ type: 'play' }],
    });
    expect(run(start, [{ type: 'mediaEnded' }, page()])).toMatchObject({ model: { seek: { pending: 2, target: 2 } }, actions: [{ type: 'play' }] });
    expect(run(start, [{ type: 'mediaEnded' }, withMetadata()]).actions).toEqual([{ type: 'seek', seconds: 2 }, { type: 'play' }]);
  });

  it('an element the browser started before the script ran keeps its position at a start of 0', () => {
    const first = (vars: Record<string, string>, elementStarted: boolean) =>
      reducePlayer(
        initialPlayerModel(configFor(vars)),
        { type: 'videoResponse', seq: 0, response: response('VFsunrise01'), autoplay: true, elementStarted },
        withMetadata({ currentTime: 1.2 }, PlayerState.PLAYING),
      ).actions[0];
    expect(first({}, true)).toMatchObject({ type: 'source', startSeconds: 0, keepPosition: true });
    expect(first({}, false)).not.toHaveProperty('keepPosition');
    expect(first({ start: '4' }, true)).not.toHaveProperty('keepPosition');
  });

  it('a caption reload counts in the model, so that each asks under a new URL', () => {
    const on = run(loaded({ cc_load_policy: '1' }), [{ type: 'setOption', module: 'captions', option: 'reload', value: true }, page()]).model;
    expect(on.captionReloads).toBe(1);
    expect(run(on, [{ type: 'setOption', module: 'captions', option: 'reload', value: true }, page()]).model.captionReloads).toBe(2);
  });
});

describe('the seek state through the engine, in time', () => {
  it('a seek asked while the response is on its way is where the video starts; one before the metadata waits for it; one after goes at once', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      // The element: its metadata comes with `m` (the page reads it when an input arrives).
      let hasMetadata = false;
      const inputs: Record<string, EngineInput> = {
        l: { type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: true },
        s: seek(5),
        t: seek(7),
        m: { type: 'metadataLoaded' },
        u: seek(9),
      };
      const src = hot('-l-s--t-m-u-', inputs).pipe(tap((i) => (hasMetadata ||= i.type === 'metadataLoaded')));
      const steps = playerEngine(src, {
        initialModel: initialPlayerModel(configFor()),
        context: () => page({ hasMetadata, source: hasMetadata ? '/media/VFcitylight/medium.webm' : null }),
        fetchVideo: () => cold<PlayerResponse>('---r|', { r: response('VFcitylight') }),
        fetchPlaylist: () => NEVER,
      });
      // Each step as "pending/target/actions".
      const seen = steps.pipe(map((st) => `${st.model.seek.pending}/${st.model.seek.target}/${st.actions.map((a) => a.type).join(',')}`));
      // l at 1 fetches, answered at 1 + 3 = 4; s at 3 comes before the answer: the source starts at 5 (pending until
      // the metadata). t at 6 replaces it and waits for the metadata; m at 8 performs it; u at 10 goes at once.
      expectObservable(seen).toBe('-a-bc-d-e-f-', {
        a: 'null/null/state,fetchVideo',
        b: 'null/null/',
        c: '5/null/source,captions',
        d: '7/7/',
        e: 'null/null/seek',
        f: 'null/null/seek',
      });
    });
  });
});
