import { sessionEvents, type PlayerStateSnapshot } from '../../../streams/logging/sessionEvents';
import { createTestScheduler } from '../../helpers/testScheduler';

const snap = (state: PlayerStateSnapshot['state'], mediaTimeSec: number): PlayerStateSnapshot => ({
  state,
  mediaTimeSec,
  playbackRate: 1,
  muted: false,
  volume: 100,
});
const videoId = 'VFsunrise01';
const load = { name: 'playerLoad', payload: { videoId, autoplay: true, hostOrigin: 'https://host.example', playerStyle: undefined } };

describe('sessionEvents', () => {
  it('logs load, each state change, and a watch-time segment for each stretch of playback', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      // a@0 b@2 c@5 d@10 e@15; the (sw) group at 10 spans four frames, so the last change stands at 15.
      const state = hot('    a-b--c----d----e--|', { a: snap(-1, 0), b: snap(3, 0), c: snap(1, 0), d: snap(2, 4.5), e: snap(1, 4.5) });
      const expected = '     L-s--s----(sw)-s--|';
      expectObservable(sessionEvents({ videoId, autoplay: true, hostOrigin: 'https://host.example', state$: state })).toBe(expected, {
        L: load,
        s: expect.objectContaining({ name: 'playerStateChange' }),
        w: { name: 'watchTimeSegment', payload: { videoId, startSec: 0, endSec: 4.5, playbackRate: 1, muted: false, volume: 100 } },
      });
      expectSubscriptions(state.subscriptions).toBe('^-----------------!');
    });
  });

  it('carries previous and current state and media time in each state change', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const state = hot('a-b|', { a: snap(5, 0), b: snap(1, 0.25) });
      expectObservable(sessionEvents({ videoId, autoplay: false, state$: state })).toBe('L-s|', {
        L: expect.objectContaining({ name: 'playerLoad' }),
        s: { name: 'playerStateChange', payload: { videoId, previousState: 5, state: 1, mediaTimeSec: 0.25 } },
      });
    });
  });

  it('ignores a repeated state, so no zero-length segment or duplicate change is logged', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const state = hot('a-a-b-----|', { a: snap(1, 0), b: snap(0, 10) });
      expectObservable(sessionEvents({ videoId, autoplay: true, state$: state })).toBe('L---(sw)--|', {
        L: expect.objectContaining({ name: 'playerLoad' }),
        s: expect.objectContaining({ name: 'playerStateChange' }),
        w: expect.objectContaining({ name: 'watchTimeSegment', payload: expect.objectContaining({ startSec: 0, endSec: 10 }) }),
      });
    });
  });

  it('logs each latency span as a latencyReport', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const latency = hot('--l', { l: { action: 'embed', from: 'navigationStart', to: 'playerReady', durationMs: 412.6 } });
      expectObservable(sessionEvents({ videoId, autoplay: false, state$: hot('a', { a: snap(5, 0) }), latency$: latency })).toBe('L-R', {
        L: expect.objectContaining({ name: 'playerLoad' }),
        R: { name: 'latencyReport', payload: { action: 'embed', from: 'navigationStart', to: 'playerReady', durationMs: 413 } },
      });
    });
  });

  it('logs ready once, errors, seeks, volume/rate/quality changes (not initial values), commands, visibility and network changes', () => {
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const sources = {
        videoId,
        autoplay: false,
        state$: hot('a', { a: snap(5, 0) }),
        readyLatencyMs$: hot('--r-r', { r: 120 }),
        error$: hot('---e', { e: { internal: 'fmt.decode', code: 5 } }),
        seek$: hot('----k', { k: { fromSec: 1, toSec: 7 } }),
        volume$: hot('v----V', { v: { volume: 100, muted: false }, V: { volume: 40, muted: false } }),
        playbackRate$: hot('1-----2', { 1: 1, 2: 1.5 }),
        quality$: hot('m------h', { m: 'medium', h: 'small' }),
        hostCommand$: hot('--------c', { c: { command: 'playVideo', hostOrigin: 'https://h.example', accepted: true } }),
        visibility$: hot('-x-------y', { x: 'visible', y: 'backgrounded' } as const),
        online$: cold('t---------f', { t: true, f: false }),
      };
      // Initial values (volume, rate, quality, online) are not changes; the second ready is ignored.
      expectObservable(sessionEvents(sources)).toBe('LxRESVPQCYN', {
        L: expect.objectContaining({ name: 'playerLoad' }),
        R: { name: 'playerReady', payload: { videoId, latencyMs: 120 } },
        E: { name: 'playerError', payload: { videoId, internalError: 'fmt.decode', hostErrorCode: 5, message: undefined } },
        S: { name: 'playerSeek', payload: { videoId, fromSec: 1, toSec: 7 } },
        V: { name: 'volumeChange', payload: { videoId, volume: 40, muted: false } },
        P: { name: 'playbackRateChange', payload: { videoId, previousRate: 1, rate: 1.5 } },
        Q: { name: 'qualityChange', payload: { videoId, previousQuality: 'medium', quality: 'small' } },
        C: { name: 'hostCommandReceived', payload: { command: 'playVideo', hostOrigin: 'https://h.example', accepted: true } },
        x: { name: 'visibilityChange', payload: { state: 'visible' } },
        Y: { name: 'visibilityChange', payload: { state: 'backgrounded' } },
        N: { name: 'networkChange', payload: { online: false } },
      });
    });
  });
});
