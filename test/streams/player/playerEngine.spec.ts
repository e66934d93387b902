import { map, NEVER, type Observable } from 'rxjs';
import type { PlayerResponse } from '../../../streams/config/playerConfig';
import { playerEngine, type PlaylistResponse } from '../../../streams/player/playerEngine';
import { initialPlayerModel } from '../../../streams/player/playerModel';
import { PlayerState } from '../../../streams/player/playerState';
import type { EngineInput } from '../../../streams/player/reducePlayer';
import { ApiFetchError } from '../../../streams/transport/apiErrors';
import { createTestScheduler } from '../../helpers/testScheduler';
import { configFor, response } from './fixtures';

const context = () => ({ currentTime: 0, state: PlayerState.PAUSED, random: () => 0 });
/** Each step as the kinds of its actions, joined: `state,fetchVideo`. */
const kinds = (steps$: Observable<{ actions: { type: string }[] }>) => steps$.pipe(map((s) => s.actions.map((a) => a.type).join(',')));

// The page's inputs never complete, and neither does the engine (its answers loop back in): no `|` below.
describe('playerEngine', () => {
  it('a load fetches the response and puts it into the element; a newer load cancels the older fetch', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const inputs: Record<string, EngineInput> = {
        a: { type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: true },
        b: { type: 'loadVideo', options: { videoId: 'VFoceanwave' }, autoplay: true },
      };
      const src = hot('  -a-b------|', inputs);
      const fetched = { c: response('VFcitylight'), o: response('VFoceanwave') };
      const fetches: Record<string, ReturnType<typeof cold<PlayerResponse>>> = {
        VFcitylight: cold('---c|', fetched),
        VFoceanwave: cold('---o|', fetched),
      };
      const steps = playerEngine(src, { initialModel: initialPlayerModel(configFor()), context, fetchVideo: (id) => fetches[id], fetchPlaylist: () => NEVER });
      // a at 1 starts the citylight fetch, b at 3 cancels it and fetches oceanwave, answered at 3 + 3 = 6.
      expectObservable(kinds(steps)).toBe('-x-x--y----', { x: 'state,fetchVideo', y: 'source,captions' });
      expectSubscriptions(fetches.VFcitylight.subscriptions).toBe('-^-!');
      expectSubscriptions(fetches.VFoceanwave.subscriptions).toBe('---^---!');
    });
  });

  it("setOption('captions', …): a valid value changes the model, a bad one is a step that changes nothing", () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const opt = (option: string, value: unknown): EngineInput => ({ type: 'setOption', module: 'captions', option, value });
      const inputs: Record<string, EngineInput> = {
        a: { type: 'loadVideo', options: { videoId: 'VFsunrise01' }, autoplay: false },
        f: opt('fontSize', 3),
        x: opt('fontSize', 9),
        l: opt('track', { languageCode: 'xx' }),
        e: opt('track', { languageCode: 'es' }),
        r: opt('reload', true),
        o: opt('track', {}),
      };
      const src = hot('  -a----f-x-l-e-r-o-|', inputs);
      const steps = playerEngine(src, {
        initialModel: initialPlayerModel(configFor()),
        context,
        fetchVideo: (id) => cold('-r|', { r: response(id, true) }),
        fetchPlaylist: () => NEVER,
      });
      // Each step as "font size / caption language / actions".
      const seen = steps.pipe(
        map(
          (st) =>
            `${st.model.subtitlesUserSettings.fontSizeIncrement}/${st.model.captions.enabled ? st.model.captions.languageCode : 'off'}/${st.actions.map((a) => a.type).join(',')}`,
        ),
      );
      // a at 1 fetches, answered at 1 + 1 = 2 (captions off by default); x and l change nothing.
      expectObservable(seen).toBe('-ab---c-d-d-e-f-g-', {
        a: '0/off/state,pause,fetchVideo', // a cue: the element stops at once
        b: '0/off/source,captions,apiChange',
        c: '3/off/',
        d: '3/off/',
        e: '3/es/captions',
        f: '3/es/reloadCaptions',
        g: '3/off/captions',
      });
    });
  });

  it('a failed fetch is caught inside: one error step, and the engine keeps working', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const inputs: Record<string, EngineInput> = {
        a: { type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: true },
        p: { type: 'setVolume', volume: 30 },
      };
      const src = hot('  -a------p-|', inputs);
      const steps = playerEngine(src, {
        initialModel: initialPlayerModel(configFor()),
        context,
        fetchVideo: () => cold<PlayerResponse>('--#', {}, new Error('offline')),
        fetchPlaylist: () => NEVER,
      });
      expectObservable(kinds(steps)).toBe('-x-e----v--', { x: 'state,fetchVideo', e: 'pause,error', v: 'volume' });
    });
  });

  it('an answer that is no player response (no body, wrong shape) or a typed transport error is one error step; the next load plays', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const load = (videoId: string): EngineInput => ({ type: 'loadVideo', options: { videoId }, autoplay: true });
      const inputs = {
        a: load('VFbadanswr1'),
        b: load('VFbadanswr2'),
        c: load('VFbadanswr3'),
        g: load('VFcitylight'),
        p: { type: 'setVolume', volume: 30 } as EngineInput,
      };
      const src = hot('  -a---b---c---g---p-|', inputs);
      const answers: Record<string, Observable<unknown>> = {
        VFbadanswr1: cold('-u|', { u: undefined }), // a 200 with an HTML page or an empty body: no JSON
        VFbadanswr2: cold('-w|', { w: { garbage: true } }),
        VFbadanswr3: cold('-#', {}, new ApiFetchError(503, 'busy')),
        VFcitylight: cold('-r|', { r: response('VFcitylight') }),
      };
      const steps = playerEngine(src, { initialModel: initialPlayerModel(configFor()), context, fetchVideo: (id) => answers[id], fetchPlaylist: () => NEVER });
      const seen = steps.pipe(map((s) => s.actions.map((a) => (a.type === 'error' ? `error:${a.internal}:${a.message}` : a.type)).join(',')));
      // Each load at n is answered at n + 1; the good one plays (source) and a later command is carried out.
      expectObservable(seen).toBe('-xy--xz--xe--xs--v--', {
        x: 'state,fetchVideo',
        y: 'pause,error:net.badresponse:JSON parsing failed after fetch',
        z: 'pause,error:net.badresponse:The answer is not a player response.',
        e: 'pause,error:net.badstatus:Request failed, status=503',
        s: 'source,captions',
        v: 'volume',
      });
    });
  });

  it('a looping playlist of one: the end loads the video again with the response it has, in the same frame, no fetch', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const src = hot<EngineInput>('  -e-----|', { e: { type: 'mediaEnded' } });
      const fetch = cold<PlayerResponse>('-r|', { r: response('VFsunrise01') });
      const first = { type: 'videoResponse', seq: 0, response: response('VFsunrise01', true), autoplay: true } as const;
      // The page's first response (seq 0) as the model starts from it.
      const initialModel = { ...initialPlayerModel(configFor({ loop: '1', playlist: 'VFsunrise01' })), response: first.response, quality: 'medium' };
      const steps = playerEngine(src, { initialModel, context, fetchVideo: () => fetch, fetchPlaylist: () => NEVER });
      // e at 1: the load (state -1, the fetch carrying the response), then its answer at once: two steps in frame 1.
      expectObservable(steps.pipe(map((s) => `${s.actions.map((a) => a.type).join(',')}@${s.model.loadSeq}`))).toBe('-(xy)---', {
        x: 'state,fetchVideo@1',
        y: 'source,captions,apiChange@1',
      });
      expectSubscriptions(fetch.subscriptions).toBe([]);
    });
  });

  it('a playlist by list id: fetch the list, then the video at index', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const src = hot<EngineInput>('  -a-----|', { a: { type: 'loadPlaylist', options: { list: 'PLvfDemoPlaylist01', index: 1 }, autoplay: false } });
      const list: PlaylistResponse = {
        playlistId: 'PLvfDemoPlaylist01',
        title: 'Demo',
        videos: [
          { videoId: 'VFsunrise01', title: 'S' },
          { videoId: 'VFcitylight', title: 'C' },
        ],
      };
      const steps = playerEngine(src, {
        initialModel: initialPlayerModel(configFor()),
        context,
        fetchVideo: (id) => cold('-r|', { r: response(id) }),
        fetchPlaylist: () => cold('-l|', { l: list }),
      });
      expectObservable(steps.pipe(map((s) => `${s.actions.map((a) => a.type).join(',')}@${s.model.playlist?.index ?? '-'}`))).toBe('-xyz----', {
        x: 'state,pause,fetchPlaylist@-', // cued by list id: the element stops at once too
        y: 'state,pause,fetchVideo@1', // cued (autoplay false): the element stops at once
        z: 'source,captions@1',
      });
    });
  });
  it('a channel or a search is asked with its list type; its answer plays in the suggested quality; a list that names nothing fails with code 2', () => {
    const asked: [string, string][] = [];
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const inputs: Record<string, EngineInput> = {
        a: { type: 'loadPlaylist', options: { list: 'VidFrame Studio', listType: 'user_uploads', suggestedQuality: 'small' }, autoplay: true },
        b: { type: 'loadPlaylist', options: { list: 'zebra', listType: 'search' }, autoplay: true },
      };
      const src = hot('  -a-------b---', inputs);
      const uploads: PlaylistResponse = { playlistId: 'UUvidframeStudio00000000', title: 'Uploads', videos: [{ videoId: 'VFoceanwave', title: 'O' }] };
      const steps = playerEngine(src, {
        initialModel: initialPlayerModel(configFor()),
        context,
        fetchVideo: (id) => cold('-r|', { r: response(id) }),
        fetchPlaylist: (list, listType) => {
          asked.push([list, listType]);
          return listType === 'search' ? cold<PlaylistResponse>('-#', undefined, new Error('404')) : cold('-l|', { l: uploads });
        },
      });
      const seen = steps.pipe(
        map((s) => {
          const source = s.actions.find((a) => a.type === 'source');
          const error = s.actions.find((a) => a.type === 'error');
          return `${s.actions.map((a) => a.type).join(',')}|${source && 'url' in source ? source.url : ''}|${error && 'message' in error ? `${error.internal}: ${error.message}` : ''}`;
        }),
      );
      // a at 1, its list at 2, the video's answer at 3 (in small); b at 9 fails at 10.
      expectObservable(seen).toBe('-xyz-----uv', {
        x: 'state,fetchPlaylist||',
        y: 'state,fetchVideo||',
        z: 'source,captions|/media/VFoceanwave/small.webm|',
        u: 'state,fetchPlaylist||',
        v: 'pause,error||api.invalidparam: No video matches this search.', // host code 2
      });
    });
    expect(asked).toEqual([
      ['VidFrame Studio', 'user_uploads'],
      ['zebra', 'search'],
    ]);
  });
});
