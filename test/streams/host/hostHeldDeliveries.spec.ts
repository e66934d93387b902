import { map, NEVER, type Observable } from 'rxjs';
import { hostProtocol$ } from '../../../streams/host/hostProtocol';
import type { HostProtocolOptions } from '../../../streams/host/hostProtocolState';
import { HOST_SNAPSHOT_KEYS } from '../../../streams/host/hostApiInterface';
import { captionsApiInfo } from '../../../streams/host/snapshotForHost';
import type { HostAction, HostMessageEvent } from '../../../streams/host/hostTypes';
import type { PlayerReadiness } from '../../../streams/player/playerReadiness';
import type { PlayerCommand, PlayerEventOut, PlayerInfo } from '../../../streams/player/types';
import { createTestScheduler } from '../../helpers/testScheduler';
import { command, HOST, label, listening, makeInfo, VIDEO } from './fixtures';

/**
 * What the host is owed between `onReady` and its subscriptions, and what it hears while
 * a load waits for the new video's answer. Real clients subscribe (`addEventListener`) only after `onReady`.
 */
const OPTS: HostProtocolOptions = { originParam: HOST, framed: false };
/** Entering 1 carries the time group: the host extrapolates getCurrentTime() from a fresh currentTimeLastUpdated_. */
const TO_PLAYING = 'info:currentTime,currentTimeLastUpdated_,mediaReferenceTime,playbackRate,playerState,progressState,videoBytesLoaded,videoLoadedFraction';

interface Marbles {
  messages: Observable<HostMessageEvent>;
  readiness: Observable<PlayerReadiness>;
  info?: Observable<PlayerInfo>;
  events?: Observable<PlayerEventOut>;
  applied?: Observable<PlayerCommand>;
}
const labels = (m: Marbles) =>
  hostProtocol$({ messages$: m.messages, readiness$: m.readiness, info$: m.info ?? NEVER, events$: m.events ?? NEVER, applied$: m.applied }, OPTS).pipe(
    map(label),
  );

const sub = (name: string) => command('addEventListener', [name]);
const decodeError: PlayerEventOut = { type: 'error', internal: 'fmt.decode', code: 5, message: 'damaged' };
const FULL = `info:${[...HOST_SNAPSHOT_KEYS].sort().join(',')}`;
const info0 = makeInfo();
const playing = makeInfo({ playerState: 1 });

describe('an error between onReady and the onError subscription (item 8)', () => {
  it('is held and sent when the host subscribes, once', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L-----E--E--', { L: listening(1), E: sub('onError') });
      const readiness = hot<PlayerReadiness>('-r----------', { r: 'ready' });
      const info = hot('     i-----------', { i: info0 });
      const events = hot('   ---x--x-----', { x: decodeError });
      // x at 3: after onReady, nobody subscribed yet; the second x is the same failure; the second E asks again.
      expectObservable(labels({ messages, readiness, info, events })).toBe('-(IR)-e-----', { I: 'I', R: 'R', e: 'onError=5' });
    });
  });

  it('a host that subscribed before the error hears it at once, and never twice', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L--E--E-----', { L: listening(1), E: sub('onError') });
      const readiness = hot<PlayerReadiness>('-r----------', { r: 'ready' });
      const info = hot('     i-----------', { i: info0 });
      const events = hot('   -----x------', { x: decodeError });
      expectObservable(labels({ messages, readiness, info, events })).toBe('-(IR)e------', { I: 'I', R: 'R', e: 'onError=5' });
    });
  });

  it('a load or cue before the subscription drops it (it was about the video the host replaced)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L----C---E--', { L: listening(1), C: command('loadVideoById', ['VFcitylight']), E: sub('onError') });
      const readiness = hot<PlayerReadiness>('-r----------', { r: 'ready' });
      const info = hot('     i-----------', { i: info0 });
      const events = hot('   ---x--------', { x: decodeError });
      expectObservable(labels({ messages, readiness, info, events })).toBe('-(IR)c------', { I: 'I', R: 'R', c: 'cmd:loadVideo' });
    });
  });

  it('an error before onReady waits for the subscription, however late it comes, and goes once', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L---------E-E-', { L: listening(1), E: sub('onError') });
      const readiness = hot<PlayerReadiness>('---r----------', { r: 'ready' });
      const info = hot('     i-------------', { i: info0 });
      const events = hot('   -x------------', { x: decodeError });
      expectObservable(labels({ messages, readiness, info, events })).toBe('---(IR)---e---', { I: 'I', R: 'R', e: 'onError=5' });
    });
  });

  it('an error before onReady goes right after it to a host that subscribed before the handshake, and not again', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('LE--------E-', { L: listening(1), E: sub('onError') });
      const readiness = hot<PlayerReadiness>('---r--------', { r: 'ready' });
      const info = hot('     i-----------', { i: info0 });
      const events = hot('   --x---------', { x: decodeError });
      expectObservable(labels({ messages, readiness, info, events })).toBe('---(IRe)----', { I: 'I', R: 'R', e: 'onError=5' });
    });
  });
});

describe('a refused autoplay at load (item 9)', () => {
  const blocked: PlayerEventOut = { type: 'autoplayBlocked' };

  it('before the handshake: held past onReady until the host subscribes, then sent once', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L--------A-A', { L: listening(1), A: sub('onAutoplayBlocked') });
      const readiness = hot<PlayerReadiness>('----r-------', { r: 'ready' });
      const info = hot('     i-----------', { i: info0 });
      const events = hot('   -b-b--------', { b: blocked });
      expectObservable(labels({ messages, readiness, info, events })).toBe('----(IR)-a--', { I: 'I', R: 'R', a: 'onAutoplayBlocked' });
    });
  });

  it('after onReady, before the subscription: held and sent when the host subscribes, once', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L-----A--A--', { L: listening(1), A: sub('onAutoplayBlocked') });
      const readiness = hot<PlayerReadiness>('-r----------', { r: 'ready' });
      const info = hot('     i-----------', { i: info0 });
      const events = hot('   ---b--------', { b: blocked });
      expectObservable(labels({ messages, readiness, info, events })).toBe('-(IR)-a-----', { I: 'I', R: 'R', a: 'onAutoplayBlocked' });
    });
  });

  it('is dropped once the video plays (the viewer started it) before the subscription', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L-------A---', { L: listening(1), A: sub('onAutoplayBlocked') });
      const readiness = hot<PlayerReadiness>('-r----------', { r: 'ready' });
      const info = hot('     i----p------', { i: info0, p: playing });
      const events = hot('   ---b--------', { b: blocked });
      expectObservable(labels({ messages, readiness, info, events })).toBe('-(IR)p------', { I: 'I', R: 'R', p: TO_PLAYING });
    });
  });

  it('a later refused playVideo() goes to a subscribed host at once', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L-A---------', { L: listening(1), A: sub('onAutoplayBlocked') });
      const readiness = hot<PlayerReadiness>('-r----------', { r: 'ready' });
      const info = hot('     i-----------', { i: info0 });
      const events = hot('   -----b------', { b: blocked });
      expectObservable(labels({ messages, readiness, info, events })).toBe('-(IR)a------', { I: 'I', R: 'R', a: 'onAutoplayBlocked' });
    });
  });
});

describe('a load: the new video once it is known, onApiChange once per real change (item 11)', () => {
  const track = { languageCode: 'en', languageName: 'English', displayName: 'English', kind: '', is_default: true };
  const withCaptions = makeInfo({ captionTracks: [track] });
  /** What the player publishes while the new video's answer is awaited. */
  const placeholder = (state: -1 | 5) =>
    makeInfo({
      playerState: state,
      videoKnown: false,
      videoData: { video_id: 'VFcitylight', title: '', author: '', isPlayable: false, errorCode: null },
      playbackQuality: 'unknown',
      availableQualityLevels: [],
    });
  const city = (state: -1 | 3 | 1 | 5, captions = false) =>
    makeInfo({
      playerState: state,
      videoData: { video_id: 'VFcitylight', title: 'City lights', author: 'VidFrame Samples', isPlayable: true, errorCode: null },
      ...(captions && { captionTracks: [track] }),
    });

  it('nothing about the placeholder; one full snapshot with the real data, then -1, 3, 1', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L-S-Q-P--------', {
        L: listening(1),
        S: sub('onStateChange'),
        Q: sub('onPlaybackQualityChange'),
        P: command('loadVideoById', ['VFcitylight']),
      });
      const readiness = hot<PlayerReadiness>('-r-------------', { r: 'ready' });
      const info = hot('     p-----u-k---b---y', { p: playing, u: placeholder(-1), k: city(-1), b: city(3), y: city(1) });
      const applied = hot('  ------c--------', { c: { type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: true } as PlayerCommand });
      expectObservable(labels({ messages, readiness, info, applied })).toBe('-(IR)-P-(Fu)(bB)(yY)', {
        I: 'I',
        R: 'R',
        P: 'cmd:loadVideo',
        F: FULL,
        u: 'onStateChange=-1',
        b: 'info:playerState',
        B: 'onStateChange=3',
        y: TO_PLAYING,
        Y: 'onStateChange=1',
      });
    });
  });

  it('the full snapshot carries the new title and quality, never an empty title or "unknown"', () => {
    const posted: HostAction[] = [];
    createTestScheduler().run(({ hot, flush }) => {
      const messages = hot('L-P------', { L: listening(1), P: command('cueVideoById', ['VFcitylight']) });
      const readiness = hot<PlayerReadiness>('-r-------', { r: 'ready' });
      const info = hot('     i---u-k--', { i: info0, u: placeholder(5), k: city(5) });
      hostProtocol$({ messages$: messages, readiness$: readiness, info$: info, events$: NEVER }, OPTS).subscribe((a) => posted.push(a));
      flush();
    });
    const deliveries = posted.filter((a): a is Extract<HostAction, { type: 'post' }> => a.type === 'post' && a.message.event === 'infoDelivery');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].message.info).toMatchObject({
      playerState: 5,
      videoData: { video_id: 'VFcitylight', title: 'City lights', isPlayable: true },
      playbackQuality: 'medium',
    });
  });

  it('a load that fails is known at its failure: the snapshot, then onError once', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const failed = makeInfo({
        playerState: -1,
        videoData: { video_id: 'VFunknown00', title: '', author: '', isPlayable: false, errorCode: 'video.unavailable' },
      });
      const messages = hot('L-E--P-----', { L: listening(1), E: sub('onError'), P: command('loadVideoById', ['VFunknown00']) });
      const readiness = hot<PlayerReadiness>('-r---------', { r: 'ready' });
      const info = hot('     i-----u--k-', {
        i: info0,
        u: { ...placeholder(-1), videoData: { ...placeholder(-1).videoData, video_id: 'VFunknown00' } },
        k: failed,
      });
      const events = hot<PlayerEventOut>('   -----------x', { x: { type: 'error', internal: 'video.unavailable', code: 5, message: 'Video unavailable.' } });
      expectObservable(labels({ messages, readiness, info, events })).toBe('-(IR)P---F-e--', { I: 'I', R: 'R', P: 'cmd:loadVideo', F: FULL, e: 'onError=5' });
    });
  });

  it('clearVideo during a load releases the snapshot (nothing will be known)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L----P--X---', { L: listening(1), P: command('loadVideoById', ['VFcitylight']), X: command('clearVideo') });
      const readiness = hot<PlayerReadiness>('-r---------', { r: 'ready' });
      const info = hot('     i-----u-----', { i: info0, u: placeholder(-1) });
      const applied = hot('  --------c---', { c: { type: 'clear' } as PlayerCommand });
      expectObservable(labels({ messages, readiness, info, applied })).toBe('-(IR)P--(XF)', { I: 'I', R: 'R', P: 'cmd:loadVideo', X: 'cmd:clear', F: FULL });
    });
  });

  it('a playlist move (no load command, no wiped cache): what changed, once the next video is known', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const ended = makeInfo({ playerState: 0, playlist: [VIDEO, 'VFcitylight'], playlistIndex: 0 });
      const moving = { ...placeholder(-1), playlist: [VIDEO, 'VFcitylight'], playlistIndex: 1 };
      const next = { ...city(-1), playlist: [VIDEO, 'VFcitylight'], playlistIndex: 1 };
      const messages = hot('L-S----------', { L: listening(1), S: sub('onStateChange') });
      const readiness = hot<PlayerReadiness>('-r-----------', { r: 'ready' });
      const info = hot('     e-----m---n--', { e: ended, m: moving, n: next });
      expectObservable(labels({ messages, readiness, info })).toBe('-(IR)-----(dS)', {
        I: 'I',
        R: 'R',
        d: 'info:playerState,playlistIndex,videoData',
        S: 'onStateChange=-1',
      });
    });
  });

  it('clearVideo on its own is delivered at once (same video, nothing to wait for)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const cleared = makeInfo({ playerState: -1, videoKnown: false, videoData: { ...info0.videoData, title: '', author: '', isPlayable: false } });
      const messages = hot('L-S--X----', { L: listening(1), S: sub('onStateChange'), X: command('clearVideo') });
      const readiness = hot<PlayerReadiness>('-r--------', { r: 'ready' });
      const info = hot('     i-----c---', { i: info0, c: cleared });
      expectObservable(labels({ messages, readiness, info })).toBe('-(IR)X(dS)', {
        I: 'I',
        R: 'R',
        X: 'cmd:clear',
        d: 'info:playerState,videoData',
        S: 'onStateChange=-1',
      });
    });
  });

  it("captions coming with the new video: one apiInfoDelivery and one onApiChange, even with the player's apiChange event", () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L-A--P-------', { L: listening(1), A: sub('onApiChange'), P: command('cueVideoById', ['VFcitylight']) });
      const readiness = hot<PlayerReadiness>('-r-----------', { r: 'ready' });
      const info = hot('     i-----u--k---', { i: info0, u: placeholder(5), k: city(5, true) });
      const events = hot<PlayerEventOut>('   -----------a-', { a: { type: 'apiChange' } });
      expectObservable(labels({ messages, readiness, info, events })).toBe('-(IR)P---(FDC)', {
        I: 'I',
        R: 'R',
        P: 'cmd:loadVideo',
        F: FULL,
        // The captions module as the new video has it (its options are captionsApiInfo's business, not this test's).
        D: `apiInfoDelivery=${JSON.stringify(captionsApiInfo(city(5, true)))}`,
        C: 'onApiChange',
      });
    });
  });

  it('reloading a video with the same captions sends no onApiChange (no real change)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const messages = hot('L-A---P------', { L: listening(1), A: sub('onApiChange'), P: command('cueVideoById', [VIDEO]) });
      const readiness = hot<PlayerReadiness>('-r-----------', { r: 'ready' });
      const noCaptionsYet = makeInfo({ videoKnown: false, captionTracks: [], videoData: { ...info0.videoData, title: '', isPlayable: false } });
      const info = hot('     c------u--k--', { c: withCaptions, u: noCaptionsYet, k: withCaptions });
      const events = hot<PlayerEventOut>('   ------------a', { a: { type: 'apiChange' } });
      expectObservable(labels({ messages, readiness, info, events })).toBe('-(IRD)P---F--', {
        I: 'I',
        R: 'R',
        P: 'cmd:loadVideo',
        F: FULL,
        D: `apiInfoDelivery=${JSON.stringify(captionsApiInfo(withCaptions))}`,
      });
    });
  });
});
