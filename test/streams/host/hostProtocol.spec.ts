import { map, NEVER, type Observable } from 'rxjs';
import { hostProtocol$ } from '../../../streams/host/hostProtocol';
import { initialHostProtocolState, type HostProtocolOptions } from '../../../streams/host/hostProtocolState';
import { stepHostProtocol } from '../../../streams/host/stepHostProtocol';
import { hostApiInterface, HOST_SNAPSHOT_KEYS } from '../../../streams/host/hostApiInterface';
import { captionsApiInfo } from '../../../streams/host/snapshotForHost';
import type { HostAction, HostMessageEvent } from '../../../streams/host/hostTypes';
import type { PlayerReadiness } from '../../../streams/player/playerReadiness';
import type { PlayerCommand, PlayerEventOut, PlayerInfo } from '../../../streams/player/types';
import { CAPTIONS_MODULE_OPTIONS, DEFAULT_CAPTION_DISPLAY_SETTINGS } from '../../../streams/player/captionSettings';
import { createTestScheduler } from '../../helpers/testScheduler';
import { bareListening, command, HOST, hostWindow, label, listening, makeInfo, otherWindow, VIDEO, wire } from './fixtures';

const OPTS: HostProtocolOptions = { originParam: HOST, widgetId: 7, framed: true };
const info0 = makeInfo();

interface Marbles {
  messages: Observable<HostMessageEvent>;
  readiness: Observable<PlayerReadiness>;
  info?: Observable<PlayerInfo>;
  events?: Observable<PlayerEventOut>;
  applied?: Observable<PlayerCommand>;
}
const run = (m: Marbles, options: HostProtocolOptions = OPTS) =>
  hostProtocol$({ messages$: m.messages, readiness$: m.readiness, info$: m.info ?? NEVER, events$: m.events ?? NEVER, applied$: m.applied }, options);
/** What `getOptions('captions')` answers (the IFrame API's captions module). */
const OPTIONS = [...CAPTIONS_MODULE_OPTIONS];
const labels = (m: Marbles, options?: HostProtocolOptions) => run(m, options).pipe(map(label));

/** Every action of a synchronous run, for the assertions on payloads. */
function collect(inputs: Parameters<typeof stepHostProtocol>[1][], options: HostProtocolOptions = { originParam: HOST, framed: false }): HostAction[] {
  let state = initialHostProtocolState(options.widgetId);
  const out: HostAction[] = [];
  for (const input of inputs) {
    const [next, actions] = stepHostProtocol(state, input, options);
    state = next;
    out.push(...actions);
  }
  return out;
}
const msgIn = (message: HostMessageEvent) => ({ kind: 'message' as const, message });
const ready = { kind: 'readiness' as const, readiness: 'ready' as const };
const infoIn = (info: PlayerInfo) => ({ kind: 'info' as const, info });

describe('stepHostProtocol: robustness', () => {
  it('an input of no known kind leaves the state as it was and does nothing, whatever its name', () => {
    const state = initialHostProtocolState(1);
    for (const kind of ['nope', 'toString', 'constructor', '__proto__']) {
      const [next, actions] = stepHostProtocol(state, { kind } as unknown as Parameters<typeof stepHostProtocol>[1], OPTS);
      expect(next).toBe(state);
      expect(actions).toEqual([]);
    }
  });
});

describe('hostProtocol$: handshake', () => {
  it('early commands are held until ready, then run in order right after initialDelivery and onReady', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('-a-b-L------', { a: command('unMute'), b: command('setVolume', [40]), L: listening(3) });
      const readiness = hot<PlayerReadiness>('l-------r---', { l: 'loading', r: 'ready' });
      const info = hot('     i-----------', { i: info0 });
      expectObservable(labels({ messages, readiness, info })).toBe('--------(IRab)', {
        I: 'I',
        R: 'R',
        a: 'cmd:unMute',
        b: 'cmd:setVolume',
      });
    });
  });

  it('late listener: readyToListen goes to the parent at ready; the handshake waits for listening', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('-----------L---L', { L: listening(9) });
      const readiness = hot<PlayerReadiness>('--r-----------', { r: 'ready' });
      const info = hot('     i-------------', { i: info0 });
      const actions = run({ messages, readiness, info });
      expectObservable(actions.pipe(map((a) => (a.type === 'post' ? `${a.to}:${label(a)}:${a.targetOrigin}:${a.message.id}` : label(a))))).toBe(
        '--p--------(IR)a',
        {
          p: 'parent:readyToListen:*:7',
          I: `host:I:${HOST}:9`,
          R: `host:R:${HOST}:9`,
          a: `host:alreadyInitialized:${HOST}:9`,
        },
      );
    });
  });

  it('a single bare listening before the player is ready is remembered and answered at ready (id = widgetid)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('-L----------', { L: bareListening() });
      const readiness = hot<PlayerReadiness>('------r-----', { r: 'ready' });
      const info = hot('     i-----------', { i: info0 });
      expectObservable(run({ messages, readiness, info }).pipe(map((a) => `${label(a)}#${a.type === 'post' ? a.message.id : ''}`))).toBe('------(IR)', {
        I: 'I#7',
        R: 'R#7',
      });
    });
  });

  it('repeated listening: nothing before the handshake, alreadyInitialized after it, once per message', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // A host ticking every 250 ms: frames 0, 250, 500, 750; the player is ready at 400.
      const messages = hot('L 249ms L 249ms L 249ms L', { L: listening(1) });
      const readiness = hot<PlayerReadiness>('400ms r', { r: 'ready' });
      const info = hot('     i', { i: info0 });
      // 400: handshake (the group "(IR)" spans 4 frames: 400 + 4 + 96 = 500); 500 and 750: one alreadyInitialized each.
      expectObservable(labels({ messages, readiness, info })).toBe('400ms (IR) 96ms a 249ms a', { I: 'I', R: 'R', a: 'alreadyInitialized' });
    });
  });

  it('waits for the first snapshot when the player is ready before it has one', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L-----', { L: listening(1) });
      const readiness = hot<PlayerReadiness>('-r----', { r: 'ready' });
      const info = hot('     ----i-', { i: info0 });
      expectObservable(labels({ messages, readiness, info })).toBe('----(IR)', { I: 'I', R: 'R' });
    });
  });

  it('nothing but readyToListen is sent before the handshake, and no readyToListen unframed or without widgetid', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('-c-', { c: command('playVideo') });
      const readiness = hot<PlayerReadiness>('--r', { r: 'ready' });
      const info = hot('     i--', { i: info0 });
      expectObservable(labels({ messages, readiness, info }, { framed: false, widgetId: 7 })).toBe('--c', { c: 'cmd:play' });
      expectObservable(labels({ messages, readiness, info }, { framed: true })).toBe('--c', { c: 'cmd:play' });
    });
  });

  it('initialDelivery carries apiInterface and one key per getter, with the current values', () => {
    const [initial, onReady] = collect([msgIn(listening(1)), infoIn(info0), ready]);
    expect(initial).toMatchObject({ type: 'post', to: 'host', window: hostWindow, targetOrigin: HOST });
    const msg = (initial as Extract<HostAction, { type: 'post' }>).message;
    expect(msg).toMatchObject({ event: 'initialDelivery', channel: 'widget', id: 1 });
    const body = msg.info as Record<string, unknown>;
    expect(body.apiInterface).toEqual(hostApiInterface(false));
    expect(body.apiInterface).toEqual(expect.arrayContaining(['getVideoData', 'isMuted', 'getPlayerState', 'seekTo', 'loadPlaylist']));
    expect(body.apiInterface).not.toContain('setCaptions');
    for (const key of HOST_SNAPSHOT_KEYS) expect(body).toHaveProperty(key, (info0 as unknown as Record<string, unknown>)[key]);
    expect(body).not.toHaveProperty('loop');
    expect((onReady as Extract<HostAction, { type: 'post' }>).message).toEqual({ event: 'onReady', info: null, channel: 'widget', id: 1 });
  });
});

describe('hostProtocol$: locks and acceptance', () => {
  it('before the lock only the origin parameter (exact: scheme, host, port) may talk', () => {
    const actions = collect([
      ready,
      infoIn(info0),
      msgIn(command('playVideo', [], 'https://host.example')), // no port
      msgIn(command('playVideo', [], 'http://host.example:8443')), // wrong scheme
      msgIn(listening(1, 'https://evil.example')),
      msgIn(command('pauseVideo')),
    ]);
    expect(actions.map(label)).toEqual(['cmd:pause']);
  });

  it('without the origin parameter any origin may open the channel; then the lock holds origin and window', () => {
    const actions = collect(
      [
        ready,
        infoIn(info0),
        msgIn(listening(1, 'https://first.example', hostWindow)),
        msgIn(command('playVideo', [], 'https://first.example', otherWindow)), // same origin, another window
        msgIn(command('playVideo', [], 'https://second.example', hostWindow)), // same window, another origin
        msgIn(listening(2, 'https://second.example', otherWindow)), // a second host cannot take over
        msgIn(command('pauseVideo', [], 'https://first.example', hostWindow)),
      ],
      { framed: true },
    );
    expect(actions.map(label)).toEqual(['I', 'R', 'cmd:pause']);
    expect(actions.every((a) => a.type === 'command' || a.targetOrigin === 'https://first.example')).toBe(true);
  });

  it('a sandboxed ("null") host locks by window only and is answered with "*"', () => {
    const actions = collect([ready, infoIn(info0), msgIn(listening(1, 'null')), msgIn(command('playVideo', [], 'null', otherWindow))], { framed: true });
    expect(actions.map(label)).toEqual(['I', 'R']);
    expect(actions.map((a) => a.type === 'post' && a.targetOrigin)).toEqual(['*', '*']);
  });

  it.each([
    ['an object instead of a string', { data: { event: 'listening', id: 1 }, origin: HOST, source: hostWindow }],
    ['invalid JSON', { data: '{"event":', origin: HOST, source: hostWindow }],
    ['a JSON array', { data: '[1,2]', origin: HOST, source: hostWindow }],
    ['an unknown event', wire({ event: 'hello' })],
    ['no source window', { ...listening(1), source: null }],
    ['a huge payload', wire({ event: 'listening', id: 1, pad: 'x'.repeat(200_000) })],
  ])('drops %s', (_n, message) => {
    expect(collect([ready, infoIn(info0), msgIn(message as HostMessageEvent)])).toEqual([]);
  });

  it('runs privileged methods only for trusted origins, and lists them only there', () => {
    const opts = { framed: true, trustedOrigins: ['https://trusted.example'] };
    const untrusted = collect([ready, infoIn(info0), msgIn(listening(1, HOST)), msgIn(command('setCaptions', [true], HOST))], opts);
    expect(untrusted.map(label)).toEqual(['I', 'R']);
    const trusted = collect(
      [ready, infoIn(info0), msgIn(listening(1, 'https://trusted.example')), msgIn(command('setCaptions', [true], 'https://trusted.example'))],
      opts,
    );
    expect(trusted.map(label)).toEqual(['I', 'R', 'cmd:setCaptions']);
    const apiInterface = ((trusted[0] as Extract<HostAction, { type: 'post' }>).message.info as { apiInterface: string[] }).apiInterface;
    expect(apiInterface).toContain('setCaptions');
  });

  it('ignores unknown functions and getters sent as commands; hostile names do nothing', () => {
    const names = ['getPlayerState', 'destroy', '__proto__', 'constructor', 'toString', 'onReady'];
    const actions = collect([ready, infoIn(info0), msgIn(listening(1)), ...names.map((n) => msgIn(command(n, [1])))]);
    expect(actions.map(label)).toEqual(['I', 'R']);
  });

  it('args missing, null or "" are an empty list', () => {
    const raw = (args: string) => wire(`{"event":"command","func":"playVideo"${args}}`);
    const actions = collect([ready, infoIn(info0), msgIn(raw('')), msgIn(raw(',"args":null')), msgIn(raw(',"args":""'))]);
    expect(actions.map(label)).toEqual(['cmd:play', 'cmd:play', 'cmd:play']);
  });
});

describe('hostProtocol$: events, queue and errors', () => {
  const sub = (name: string) => msgIn(command('addEventListener', [name]));

  it('queues subscribed events before the handshake and flushes them, in order, after onReady', () => {
    const actions = collect([
      sub('onStateChange'),
      infoIn(makeInfo({ playerState: -1 })),
      ready,
      infoIn(makeInfo({ playerState: 3 })),
      infoIn(makeInfo({ playerState: 1 })),
      msgIn(listening(1)),
    ]);
    expect(actions.map(label)).toEqual(['I', 'R', 'onStateChange=3', 'onStateChange=1']);
  });

  it('state goes in an infoDelivery before onStateChange; unsubscribed events are not sent, a missed state comes once on subscribing', () => {
    const actions = collect([
      msgIn(listening(1)),
      infoIn(info0),
      ready,
      infoIn(makeInfo({ playerState: 1 })),
      sub('onStateChange'),
      infoIn(makeInfo({ playerState: 2 })),
      msgIn(command('removeEventListener', ['onStateChange', null])),
      infoIn(makeInfo({ playerState: 1 })),
    ]);
    // Entering 1 carries the time group (a fresh currentTimeLastUpdated_ for the host's extrapolation); leaving it does not.
    const toPlaying = 'info:currentTime,currentTimeLastUpdated_,mediaReferenceTime,playbackRate,playerState,progressState,videoBytesLoaded,videoLoadedFraction';
    // The autoplay that started while the host's addEventListener was on its way: its state is owed on subscribing.
    expect(actions.map(label)).toEqual(['I', 'R', toPlaying, 'onStateChange=1', 'info:playerState', 'onStateChange=2', toPlaying]);
  });

  it('a missed state is sent once, as the current state; nothing when no state was missed', () => {
    const once = collect([
      msgIn(listening(1)),
      infoIn(info0),
      ready,
      infoIn(makeInfo({ playerState: 3 })),
      infoIn(makeInfo({ playerState: 1 })),
      sub('onStateChange'),
      msgIn(command('removeEventListener', ['onStateChange', null])),
      sub('onStateChange'),
    ]);
    expect(once.map(label).filter((l) => l.startsWith('on'))).toEqual(['onStateChange=1']);

    const unchanged = collect([msgIn(listening(1)), infoIn(info0), ready, sub('onStateChange')]);
    expect(unchanged.map(label).filter((l) => l.startsWith('on'))).toEqual([]);
  });

  it('addEventListener twice forwards once; onReady cannot be subscribed', () => {
    const actions = collect([
      msgIn(listening(1)),
      infoIn(info0),
      ready,
      sub('onVolumeChange'),
      sub('onVolumeChange'),
      sub('onReady'),
      infoIn(makeInfo({ volume: 30 })),
    ]);
    expect(actions.map(label)).toEqual(['I', 'R', 'info:muted,volume', 'onVolumeChange={"volume":30,"muted":false}']);
  });

  it('volume and muted always travel together; time updates carry the whole time group', () => {
    const actions = collect([msgIn(listening(1)), infoIn(info0), ready, infoIn(makeInfo({ muted: true })), infoIn(makeInfo({ muted: true, currentTime: 1 }))]);
    expect(actions.slice(2).map(label)).toEqual([
      'info:muted,volume',
      'info:currentTime,currentTimeLastUpdated_,mediaReferenceTime,playbackRate,progressState,videoBytesLoaded,videoLoadedFraction',
    ]);
  });

  it('a full snapshot right after every cue/load, then the state events (cued: -1 then 5)', () => {
    const actions = collect([
      msgIn(listening(1)),
      infoIn(info0),
      ready,
      sub('onStateChange'),
      msgIn(command('cueVideoById', ['VFcitylight'])),
      // The player publishes the new video synchronously while the command runs.
      infoIn(makeInfo({ playerState: -1, videoData: { ...info0.videoData, video_id: 'VFcitylight' } })),
      { kind: 'applied', command: { type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: false } },
      infoIn(makeInfo({ playerState: 5, videoData: { ...info0.videoData, video_id: 'VFcitylight' } })),
    ]);
    const full = `info:${[...HOST_SNAPSHOT_KEYS].sort().join(',')}`;
    expect(actions.map(label)).toEqual(['I', 'R', 'cmd:loadVideo', full, 'onStateChange=-1', 'info:playerState', 'onStateChange=5']);
  });

  it('a load whose snapshot comes later still gets its full snapshot when the command has run', () => {
    const actions = collect([
      msgIn(listening(1)),
      infoIn(info0),
      ready,
      msgIn(command('loadVideoById', [VIDEO])),
      { kind: 'applied', command: { type: 'loadVideo', options: { videoId: VIDEO }, autoplay: true } },
    ]);
    expect(actions.map(label)).toEqual(['I', 'R', 'cmd:loadVideo', `info:${[...HOST_SNAPSHOT_KEYS].sort().join(',')}`]);
  });

  it('malformed load arguments: onError 2, nothing runs; before the handshake the error is queued regardless', () => {
    const before = collect([msgIn(command('loadVideoById', [42])), msgIn(listening(1)), infoIn(info0), ready]);
    expect(before.map(label)).toEqual(['I', 'R', 'onError=2']);
    const after = collect([msgIn(listening(1)), infoIn(info0), ready, sub('onError'), msgIn(command('loadPlaylist', [{}])), msgIn(command('seekTo', ['x']))]);
    // The host wiped its cache when it sent the load: the unchanged full snapshot comes first, then the error.
    expect(after.map(label)).toEqual(['I', 'R', `info:${[...HOST_SNAPSHOT_KEYS].sort().join(',')}`, 'onError=2', 'onError=2']);
  });

  it('an unplayable video: onError right after onReady, unsubscribed, and never twice', () => {
    const broken = makeInfo({ videoData: { ...info0.videoData, isPlayable: false, errorCode: 'embedder.identity.denied' } });
    const actions = collect([
      msgIn(listening(1)),
      infoIn(broken),
      { kind: 'event', event: { type: 'error', internal: 'embedder.identity.denied', code: 152, message: 'x' } },
      ready,
      sub('onError'),
      { kind: 'event', event: { type: 'error', internal: 'embedder.identity.denied', code: 152, message: 'x' } },
    ]);
    expect(actions.map(label)).toEqual(['I', 'R', 'onError=152']);
  });

  it('an error after the handshake goes once to a subscribed host; a new load may fail again', () => {
    const err = { kind: 'event' as const, event: { type: 'error' as const, internal: 'fmt.decode', code: 5, message: 'x' } };
    const actions = collect([msgIn(listening(1)), infoIn(info0), ready, sub('onError'), err, err, msgIn(command('loadVideoById', [VIDEO])), err]);
    expect(actions.map(label)).toEqual(['I', 'R', 'onError=5', 'cmd:loadVideo', 'onError=5']);
  });

  it('onAutoplayBlocked and onApiChange are forwarded to subscribers; captions feed apiInfoDelivery', () => {
    const track = { languageCode: 'en', languageName: 'English', displayName: 'English', kind: '', is_default: true };
    const actions = collect([
      msgIn(listening(1)),
      infoIn(info0),
      ready,
      sub('onAutoplayBlocked'),
      sub('onApiChange'),
      { kind: 'event', event: { type: 'autoplayBlocked' } },
      infoIn(makeInfo({ captionTracks: [track] })),
      infoIn(makeInfo({ captionTracks: [track], captionTrack: track })),
    ]);
    expect(actions.map(label)).toEqual([
      'I',
      'R',
      'onAutoplayBlocked',
      'info:captionTracks',
      `apiInfoDelivery=${JSON.stringify({ namespaces: ['captions'], captions: { options: OPTIONS, tracklist: [track], track: {}, fontSize: 0, displaySettings: DEFAULT_CAPTION_DISPLAY_SETTINGS } })}`,
      'onApiChange',
      `apiInfoDelivery=${JSON.stringify({ namespaces: ['captions'], captions: { options: OPTIONS, tracklist: [track], track, fontSize: 0, displaySettings: DEFAULT_CAPTION_DISPLAY_SETTINGS } })}`,
    ]);
  });

  it('the same captions module in a new object (a new model) posts nothing and is kept, so later ticks compare it by identity', () => {
    const track = { languageCode: 'en', languageName: 'English', displayName: 'English', kind: '', is_default: true };
    const a = makeInfo({ captionTracks: [track], captionTrack: track });
    // Another model of the same video: equal tracks in new objects.
    const b = makeInfo({ captionTracks: [{ ...track }], captionTrack: { ...track } });
    let state = initialHostProtocolState(undefined);
    const posts: string[] = [];
    for (const input of [msgIn(listening(1)), infoIn(a), ready, sub('onApiChange'), infoIn(b), infoIn({ ...b, currentTime: 1 })]) {
      const [next, actions] = stepHostProtocol(state, input, { originParam: HOST, framed: false });
      state = next;
      posts.push(...actions.map(label));
    }
    // The module of b's values as the page last built it (built once per set of values: asked before anything else).
    const bApi = captionsApiInfo(b);
    expect(state.apiSent).toBe(bApi);
    expect(posts).toEqual([
      'I',
      'R',
      `apiInfoDelivery=${JSON.stringify(bApi)}`,
      'info:currentTime,currentTimeLastUpdated_,mediaReferenceTime,playbackRate,progressState,videoBytesLoaded,videoLoadedFraction',
    ]);
  });

  it('caption display settings reach the host as {subtitlesUserSettings} and as the fontSize/displaySettings options, without onApiChange', () => {
    const track = { languageCode: 'en', languageName: 'English', displayName: 'English', kind: '', is_default: true };
    const withTracks = makeInfo({ captionTracks: [track], captionTrack: track, subtitlesUserSettings: DEFAULT_CAPTION_DISPLAY_SETTINGS });
    const larger = { ...DEFAULT_CAPTION_DISPLAY_SETTINGS, fontSizeIncrement: 3, color: '#ffff00' };
    const actions = collect([msgIn(listening(1)), infoIn(withTracks), ready, sub('onApiChange'), infoIn({ ...withTracks, subtitlesUserSettings: larger })]);
    const posted = actions
      .filter((a): a is Extract<HostAction, { type: 'post' }> => a.type === 'post')
      .map((a) => a.message as { event: string; info: Record<string, unknown> });
    // The handshake already describes the module, with the defaults.
    expect(posted.map((m) => m.event)).toEqual(['initialDelivery', 'onReady', 'apiInfoDelivery', 'infoDelivery', 'apiInfoDelivery']);
    expect((posted[2].info.captions as Record<string, unknown>).fontSize).toBe(0);
    expect(posted[3].info).toEqual({ subtitlesUserSettings: larger });
    expect(posted[4].info.captions).toMatchObject({ options: OPTIONS, fontSize: 3, displaySettings: larger, track });
  });

  it('keeps at most maxQueue events before the handshake, errors last to go', () => {
    const inputs = [
      sub('onVideoProgress'),
      infoIn(info0),
      msgIn(command('seekTo', ['x'])), // onError 2, queued
      ...Array.from({ length: 10 }, (_, i) => infoIn(makeInfo({ currentTime: i + 1 }))),
      msgIn(listening(1)),
      ready,
    ];
    const labels = collect(inputs, { originParam: HOST, framed: false, maxQueue: 3 }).map(label);
    expect(labels).toEqual(['I', 'R', 'onError=2', 'onVideoProgress=9', 'onVideoProgress=10']);
  });
});
