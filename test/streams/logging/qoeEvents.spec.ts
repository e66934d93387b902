import type { LoggedPlayerState } from '../../../streams/logging/playerEvents';
import { qoeEvents, type QoeStreamEvent } from '../../../streams/logging/qoeEvents';
import { createTestScheduler } from '../../helpers/testScheduler';

const videoId = 'VFladder001';
const at = (state: LoggedPlayerState, mediaTimeSec: number, id = videoId) => ({ videoId: id, state, mediaTimeSec });
const q = (quality: string, id = videoId) => ({ videoId: id, quality });
const decision = (quality: string, bitrate: number, reason: string): QoeStreamEvent & { videoId: string } => ({
  videoId,
  type: 'decision',
  quality,
  bitrate,
  reason,
});

describe('qoeEvents', () => {
  it('logs the start-up time from the load to the first frame playing, once per load', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const load = hot('L-------M', { L: { videoId }, M: { videoId: 'VFother0001' } });
      // playing @3 (start-up 3), paused and playing again; another video loads @8 and plays @12.
      const state = hot('-b-p-z-p--b-c', { b: at(3, 0), p: at(1, 0), z: at(2, 1), c: at(1, 0, 'VFother0001') });
      const none = hot<never>('-');
      expectObservable(qoeEvents({ load$: load, state$: state, seek$: none, quality$: none })).toBe('---s--------t', {
        s: { name: 'startupTime', payload: { videoId, startupMs: 3 } },
        t: { name: 'startupTime', payload: { videoId: 'VFother0001', startupMs: 4 } },
      });
    });
  });

  it('logs a rebuffer (waiting after playback started) with its start, end and duration; a seek’s buffering is none', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // start-up buffering @1, playing @2; waits at 4 s @4, playing @8; seek @10, buffering @11, playing @13;
      // waits again @15, paused while waiting @17.
      const state = hot('-bp-w---p--b-p-w-z', { b: at(3, 0), p: at(1, 4), w: at(3, 4), z: at(2, 6) });
      const seek = hot('----------k', { k: {} });
      const none = hot<never>('-');
      expectObservable(qoeEvents({ load$: none, state$: state, seek$: seek, quality$: none })).toBe('----r---e------r-f', {
        r: { name: 'rebufferStart', payload: { videoId, mediaTimeSec: 4 } },
        e: { name: 'rebufferEnd', payload: { videoId, mediaTimeSec: 4, durationMs: 4 } },
        f: { name: 'rebufferEnd', payload: { videoId, mediaTimeSec: 6, durationMs: 2 } },
      });
    });
  });

  it('logs each switch of the rendition on screen with its decision’s reason and bitrates, and each rendition’s playing time', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const stream = hot('d---u', { d: decision('small', 300_000, 'startup'), u: decision('large', 1_200_000, 'buffer') });
      const quality = hot('-s------l', { s: q('small'), l: q('large') });
      // playing @2 … the switch @8 … paused @12.
      const state = hot('--p---------z', { p: at(1, 0), z: at(2, 5) });
      const none = hot<never>('-');
      expectObservable(qoeEvents({ load$: none, state$: state, seek$: none, quality$: quality, stream$: stream })).toBe('--------(ps)P', {
        p: { name: 'renditionPlayed', payload: { videoId, quality: 'small', bitrate: 300_000, durationMs: 6 } },
        s: {
          name: 'qualitySwitch',
          payload: { videoId, reason: 'buffer', fromQuality: 'small', toQuality: 'large', fromBitrate: 300_000, toBitrate: 1_200_000 },
        },
        P: { name: 'renditionPlayed', payload: { videoId, quality: 'large', bitrate: 1_200_000, durationMs: 4 } },
      });
    });
  });

  it('logs the bandwidth estimate at most once per interval: the first, then the latest of each interval', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const est = (bps: number): QoeStreamEvent & { videoId: string } => ({ videoId, type: 'estimate', bps });
      const stream = hot('a-b-c------d', { a: est(1e6), b: est(2e6), c: est(3e6), d: est(4e6) });
      const none = hot<never>('-');
      const bw = (bps: number) => ({ name: 'bandwidthEstimate', payload: { videoId, bps } });
      expectObservable(qoeEvents({ load$: none, state$: none, seek$: none, quality$: none, stream$: stream, bandwidthIntervalMs: 5 })).toBe('a----c-----d', {
        a: bw(1e6),
        c: bw(3e6),
        d: bw(4e6),
      });
    });
  });
});
