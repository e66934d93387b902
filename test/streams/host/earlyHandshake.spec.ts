import { earlyHandshakeOf, type EarlyHostHandoff } from '../../../streams/host/earlyHandshake';
import { HOST_SNAPSHOT_KEYS, hostApiInterface } from '../../../streams/host/hostApiInterface';
import { hostProtocol$ } from '../../../streams/host/hostProtocol';
import { hostStateFromHandoff, type HostProtocolOptions, type HostProtocolState } from '../../../streams/host/hostProtocolState';
import { stepHostProtocol } from '../../../streams/host/stepHostProtocol';
import type { HostAction, HostProtocolInput } from '../../../streams/host/hostTypes';
import type { PlayerEventOut, PlayerInfo } from '../../../streams/player/types';
import { BehaviorSubject, concat, from, NEVER, of, Subject } from 'rxjs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { configFor } from '../player/fixtures';
import { EMBED, fakeWindow, HOST, hostWindow, runScript } from './earlyWindow';

const dataFor = (vars: Record<string, string>) => earlyHandshakeOf(configFor({ enablejsapi: '1', ...vars }), { nowMs: 1_700_000_000_000 })!;
const listening = (id?: number | string) => JSON.stringify({ event: 'listening', ...(id !== undefined && { id }), channel: 'widget' });
const command = (func: string, args: unknown[]) => JSON.stringify({ event: 'command', func, args, id: 1, channel: 'widget' });

describe('earlyHandshakeOf: the first snapshot the server can answer a host with', () => {
  it('none without enablejsapi=1, for a playlist still to fetch, or for a video that cannot play', () => {
    expect(earlyHandshakeOf(configFor({}), { nowMs: 0 })).toBeUndefined();
    expect(earlyHandshakeOf(configFor({ enablejsapi: '1', list: 'PLsamples' }), { nowMs: 0 })).toBeUndefined();
    const unplayable = configFor({ enablejsapi: '1' });
    unplayable.args.player_response.playabilityStatus = { status: 'ERROR', errorCode: 'fmt.unplayable', reason: 'no' } as never;
    expect(earlyHandshakeOf(unplayable, { nowMs: 0 })).toBeUndefined();
  });

  it("the host's view of the player's first snapshot: its keys, the video's length, quality and tracks, root-relative URLs", () => {
    const data = dataFor({ origin: HOST, widgetid: '7' });
    expect(Object.keys(data.view)).toEqual([...new Set(HOST_SNAPSHOT_KEYS)]);
    expect(data.view).toMatchObject({ playerState: 5, duration: 12, currentTime: 0, playbackQuality: 'medium', volume: 100, muted: false });
    expect(data.view.currentTimeLastUpdated_).toBe(1_700_000_000);
    expect(data.view.videoUrl).toBe('/embed/VFsunrise01');
    expect(data.view.videoEmbedCode).toContain('src="/embed/VFsunrise01"');
    expect((data.view.captionTracks as unknown[]).length).toBe(2);
    expect(data.api).toMatchObject({ namespaces: ['captions'] });
    expect(data.engine).toEqual({ captionTrack: null, loop: false, shuffle: false, videoKnown: true });
    expect(data).toMatchObject({ originParam: HOST, widgetId: 7, trustedOrigins: [] });
    expect([...data.commands, ...data.getters]).toEqual(hostApiInterface(false));
    expect([...data.commands, ...data.privileged, ...data.getters]).toEqual(hostApiInterface(true));
  });

  it('a muted autoplay is unstarted (-1) and muted; a video without tracks has no captions module', () => {
    const config = configFor({ enablejsapi: '1', autoplay: '1', mute: '1' });
    config.args.player_response.captions = { tracks: [] } as never;
    const data = earlyHandshakeOf(config, { nowMs: 0 })!;
    expect(data.view).toMatchObject({ playerState: -1, muted: true });
    expect(data.api).toBeNull();
  });
});

describe('the inline responder, run from its script text alone', () => {
  it('asks the parent for a listening at once, framed and with a widget id; not unframed or without one', () => {
    const framed = fakeWindow();
    runScript(framed.win, dataFor({ widgetid: '3' }));
    expect(framed.parentPosts).toEqual([{ message: { event: 'readyToListen', channel: 'widget', id: 3 }, target: '*' }]);
    const noId = fakeWindow();
    runScript(noId.win, dataFor({}));
    expect(noId.parentPosts).toEqual([]);
    const alone = fakeWindow({ framed: false });
    runScript(alone.win, dataFor({ widgetid: '3' }));
    expect(alone.parentPosts).toEqual([]);
  });

  it('answers the first listening with initialDelivery (patched with its origin and size), onReady and the captions module', () => {
    const { win, deliver } = fakeWindow();
    runScript(win, dataFor({ origin: HOST, widgetid: '1' }));
    const host = hostWindow();
    const before = Date.now() / 1000;
    deliver(listening(9), HOST, host);
    expect(host.posts.map((p) => [p.message.event, p.message.id, p.message.channel, p.target])).toEqual([
      ['initialDelivery', 9, 'widget', HOST],
      ['onReady', 9, 'widget', HOST],
      ['apiInfoDelivery', 9, 'widget', HOST],
    ]);
    const info = host.posts[0].message.info as Record<string, unknown>;
    expect(info.apiInterface).toEqual(hostApiInterface(false));
    expect(info.videoUrl).toBe(`${EMBED}/embed/VFsunrise01`);
    expect(info.videoEmbedCode).toContain(`src="${EMBED}/embed/VFsunrise01"`);
    expect(info.size).toEqual({ width: 640, height: 360 });
    expect(info.videoContentRect).toEqual({ left: 0, top: 0, width: 640, height: 360 });
    expect(info.currentTimeLastUpdated_).toBeGreaterThanOrEqual(before);
    expect(info).not.toHaveProperty('loop');
    expect(info).not.toHaveProperty('videoKnown');
    expect(host.posts[1].message.info).toBeNull();
  });

  it('works as the server writes it under tsx (npm start, npm run dev), whose output names functions through a helper', () => {
    // The text as the production server renders it: the module loaded by tsx in a process of its own.
    const root = resolve(__dirname, '../../..');
    const program = [
      `import { earlyHandshakeOf, renderEarlyResponderScript } from ${JSON.stringify(resolve(root, 'streams/host/earlyHandshake.ts'))};`,
      `import { configFor } from ${JSON.stringify(resolve(root, 'test/streams/player/fixtures.ts'))};`,
      `process.stdout.write(renderEarlyResponderScript(earlyHandshakeOf(configFor({ enablejsapi: '1', widgetid: '4' }), { nowMs: 0 })));`,
    ].join('\n');
    const script = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { cwd: root, encoding: 'utf8' });
    const { win, parentPosts, deliver } = fakeWindow();
    new Function('window', script)(win);
    expect(parentPosts).toEqual([{ message: { event: 'readyToListen', channel: 'widget', id: 4 }, target: '*' }]);
    const host = hostWindow();
    deliver(listening(4), HOST, host);
    expect(host.posts.map((p) => p.message.event)).toEqual(['initialDelivery', 'onReady', 'apiInfoDelivery']);
    expect(win.vidframeEarlyHost!.take()).toMatchObject({ initialized: true, listenerId: 4 });
  });

  it('gives a trusted origin the privileged methods', () => {
    const { win, deliver } = fakeWindow();
    const data = { ...dataFor({}), trustedOrigins: [HOST] };
    runScript(win, data);
    const host = hostWindow();
    deliver(listening(), HOST, host);
    expect((host.posts[0].message.info as Record<string, unknown>).apiInterface).toEqual(hostApiInterface(true));
  });

  it('ignores a listening from another origin than the origin parameter, non-strings, bad JSON, and messages without a window', () => {
    const { win, deliver } = fakeWindow();
    runScript(win, dataFor({ origin: HOST }));
    const host = hostWindow();
    deliver(listening(), 'https://evil.example', host);
    deliver({ event: 'listening' }, HOST, host);
    deliver('{not json', HOST, host);
    deliver(listening(), HOST, null);
    expect(host.posts).toEqual([]);
    const handoff = win.vidframeEarlyHost!.take()!;
    expect(handoff).toMatchObject({ lock: null, initialized: false, baseline: null });
    // Nothing the page script could use was kept either.
    expect(handoff.held).toEqual([]);
  });

  it('holds every later message, in order, and hands everything over once; the listener is gone after', () => {
    const { win, deliver, listeners } = fakeWindow();
    runScript(win, dataFor({ widgetid: '1' }));
    const host = hostWindow();
    deliver(command('setVolume', [30]), HOST, host);
    deliver(listening(1), HOST, host);
    deliver(command('seekTo', [4, true]), HOST, host);
    deliver(listening(1), HOST, host);
    const handoff = win.vidframeEarlyHost!.take()!;
    expect(handoff.lock).toEqual({ origin: HOST, source: host });
    expect(handoff).toMatchObject({ listenerId: 1, initialized: true, readyToListenSent: true });
    expect(handoff.held.map((m) => [m.data, m.origin])).toEqual([
      [command('setVolume', [30]), HOST],
      [command('seekTo', [4, true]), HOST],
      [listening(1), HOST],
    ]);
    expect(handoff.baseline).toMatchObject({ playerState: 5, videoKnown: true, loop: false, videoUrl: `${EMBED}/embed/VFsunrise01` });
    expect(listeners.size).toBe(0);
    expect(win.vidframeEarlyHost!.take()).toBeNull();
  });

  it("after the lock, keeps only the locked host's messages: another window or origin cannot crowd them out", () => {
    const { win, deliver } = fakeWindow();
    runScript(win, { ...dataFor({}), maxHeld: 2 });
    const host = hostWindow();
    deliver(listening(1), HOST, host);
    for (let i = 0; i < 5; i++) deliver(command('setVolume', [i]), HOST, {});
    deliver(command('setVolume', [7]), 'https://evil.example', host);
    deliver(command('setVolume', [30]), HOST, host);
    expect(win.vidframeEarlyHost!.take()!.held.map((m) => m.data)).toEqual([command('setVolume', [30])]);
  });

  it('holds at most maxHeld messages', () => {
    const { win, deliver } = fakeWindow();
    runScript(win, { ...dataFor({}), maxHeld: 2 });
    for (let i = 0; i < 5; i++) deliver(command('setVolume', [i]), HOST, {});
    expect(win.vidframeEarlyHost!.take()!.held).toHaveLength(2);
  });

  it('a "null" origin (sandboxed host) is answered with "*", never trusted', () => {
    const { win, deliver } = fakeWindow();
    runScript(win, { ...dataFor({}), trustedOrigins: ['null'] });
    const host = hostWindow();
    deliver(listening(), 'null', host);
    expect(host.posts[0].target).toBe('*');
    expect((host.posts[0].message.info as Record<string, unknown>).apiInterface).toEqual(hostApiInterface(false));
  });
});

describe('the page script takes over from the handoff (hostStateFromHandoff)', () => {
  const options: HostProtocolOptions = { originParam: HOST, widgetId: 1, framed: true };
  const step = (state: HostProtocolState, input: HostProtocolInput): [HostProtocolState, HostAction[]] => stepHostProtocol(state, input, options);
  const posts = (actions: HostAction[]) => actions.flatMap((a) => (a.type === 'post' ? [a.message.event] : []));

  function handedOver(): { state: HostProtocolState; baseline: PlayerInfo; host: ReturnType<typeof hostWindow>; held: EarlyHostHandoff['held'] } {
    const { win, deliver } = fakeWindow();
    const config = configFor({ enablejsapi: '1', origin: HOST, widgetid: '1' });
    runScript(win, earlyHandshakeOf(config, { nowMs: 1_700_000_000_000 })!);
    const host = hostWindow();
    deliver(listening(1), HOST, host);
    deliver(command('setVolume', [30]), HOST, host);
    const handoff = win.vidframeEarlyHost!.take()!;
    return { state: hostStateFromHandoff(handoff, 1), baseline: handoff.baseline!, host, held: handoff.held };
  }

  it('starts initialized and locked, from the snapshot the host heard', () => {
    const { state, baseline } = handedOver();
    expect(state).toMatchObject({ initialized: true, ready: false, readyToListenSent: true, listenerId: 1, lock: { origin: HOST } });
    expect(state.info).toBe(baseline);
    expect(state.firstSnapshotOwed).toBe(true);
  });

  it("a video that failed before the page took over: its first snapshot's onError, once, to a subscribed host", () => {
    const { state, baseline } = handedOver();
    const failed = { ...baseline, videoData: { ...baseline.videoData, isPlayable: false, errorCode: 'fmt.decode' } } as PlayerInfo;
    const subscribe = (s: typeof state) =>
      step(s, { kind: 'message', message: { data: command('addEventListener', ['onError']), origin: HOST, source: state.lock!.source } });
    const [subscribed] = subscribe(state);
    const [after, actions] = step(subscribed, { kind: 'info', info: failed });
    expect(posts(actions)).toEqual(['infoDelivery', 'onError']);
    expect((actions[1] as Extract<HostAction, { type: 'post' }>).message.info).toBe(5);
    const [, again] = step(after, { kind: 'event', event: { type: 'error', internal: 'fmt.decode' } as never });
    expect(posts(again)).toEqual([]);
    // Not subscribed yet: held until the host subscribes, then sent once.
    const [held, unsubscribed] = step(state, { kind: 'info', info: failed });
    expect(posts(unsubscribed)).toEqual(['infoDelivery']);
    const [late, atSubscription] = subscribe(held);
    expect(posts(atSubscription)).toEqual(['onError']);
    expect(posts(subscribe(late)[1])).toEqual([]);
    // A playable first snapshot owes nothing, and later ones are ordinary diffs.
    const [fine, none] = step(state, { kind: 'info', info: { ...baseline, currentTimeLastUpdated_: 1 } });
    expect(none).toEqual([]);
    expect(fine.firstSnapshotOwed).toBe(false);
  });

  it('what the real player says differently goes out as an infoDelivery of those keys, and its events; readiness sends no second handshake', () => {
    const { state, baseline } = handedOver();
    const [subscribed] = step(state, {
      kind: 'message',
      message: { data: command('addEventListener', ['onVolumeChange']), origin: HOST, source: state.lock!.source },
    });
    const [, actions] = step(subscribed, { kind: 'info', info: { ...baseline, volume: 50 } });
    expect(posts(actions)).toEqual(['infoDelivery', 'onVolumeChange']);
    const delivery = actions[0] as Extract<HostAction, { type: 'post' }>;
    expect(delivery.message.info).toEqual({ volume: 50, muted: false });
    const [, ready] = step(subscribed, { kind: 'readiness', readiness: 'ready' });
    expect(posts(ready)).toEqual([]);
  });

  it('held commands wait for readiness, then run in order; a repeated listening is told alreadyInitialized', () => {
    const { state, held } = handedOver();
    let s = state;
    const all: HostAction[] = [];
    for (const message of held) {
      const [next, actions] = step(s, { kind: 'message', message });
      s = next;
      all.push(...actions);
    }
    expect(all).toEqual([]);
    const [afterReady, actions] = step(s, { kind: 'readiness', readiness: 'ready' });
    expect(actions).toEqual([{ type: 'command', command: { type: 'setVolume', volume: 30 } }]);
    const [, again] = step(afterReady, { kind: 'message', message: { data: listening(1), origin: HOST, source: afterReady.lock!.source } });
    expect(posts(again)).toEqual(['alreadyInitialized']);
  });

  it('a handoff before any listening leaves the handshake to the page script, without a second readyToListen', () => {
    const { win } = fakeWindow();
    runScript(win, dataFor({ origin: HOST, widgetid: '1' }));
    const state = hostStateFromHandoff(win.vidframeEarlyHost!.take()!, 1);
    expect(state).toMatchObject({ initialized: false, lock: null, info: null, readyToListenSent: true });
    const [, actions] = step(state, { kind: 'readiness', readiness: 'ready' });
    expect(actions).toEqual([]);
  });

  it('held commands that run at subscription (the player already ready) have their events heard: the player is listened to first', () => {
    const { state, baseline, held } = handedOver();
    const events$ = new Subject<PlayerEventOut>();
    const seen: string[] = [];
    const subscription = hostProtocol$(
      {
        // The host subscribed to onError while the script was on its way, then sent the command.
        messages$: concat(from([{ data: command('addEventListener', ['onError']), origin: HOST, source: state.lock!.source }, ...held]), NEVER),
        readiness$: of('ready' as const),
        info$: new BehaviorSubject<PlayerInfo>(baseline),
        events$,
      },
      { ...options, initialState: state },
    ).subscribe((action) => {
      if (action.type === 'command') {
        seen.push(`cmd:${action.command.type}`);
        // The player refuses it at once, synchronously, as a failing load does.
        events$.next({ type: 'error', code: 2 } as PlayerEventOut);
      } else seen.push(action.message.event);
    });
    subscription.unsubscribe();
    expect(seen).toEqual(['cmd:setVolume', 'onError']);
  });
});
