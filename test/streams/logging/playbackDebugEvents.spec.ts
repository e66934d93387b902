import { playbackDebugEvents } from '../../../streams/logging/playbackDebugEvents';
import type { LoggedPlayerState } from '../../../streams/logging/playerEvents';
import { createTestScheduler } from '../../helpers/testScheduler';

const videoId = 'VFsunrise01';
const at = (state: LoggedPlayerState, mediaTimeSec: number, id = videoId) => ({ videoId: id, state, mediaTimeSec });

describe('playbackDebugEvents', () => {
  it('logs a stall of playback with where and how long, as a debugging event; start-up buffering is no stall', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      // start-up buffering @1 → playing @3; stalls at 4.2 s @5, playing again @9; stalls @12, paused @15.
      const state = hot('-b-p-s---p--s--z', { b: at(3, 0), p: at(1, 0), s: at(3, 4.2), z: at(2, 4.2) });
      const expected = ' ---------x-----y';
      expectObservable(playbackDebugEvents({ state$: state })).toBe(expected, {
        x: { name: 'playbackStall', payload: { videoId, mediaTimeSec: 4.2, durationMs: 4 }, debug: true },
        y: { name: 'playbackStall', payload: { videoId, mediaTimeSec: 4.2, durationMs: 3 }, debug: true },
      });
      expectSubscriptions(state.subscriptions).toBe('^');
    });
  });

  it('logs each media error with its MediaError code and message, and each switch of rendition (not the first)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const state = hot<ReturnType<typeof at>>('-');
      const errors = hot('--e', { e: { videoId, code: 4, message: 'MEDIA_ELEMENT_ERROR: Format error', mediaTimeSec: 0 } });
      // the initial quality, a switch, the same again, then another video's first quality (no switch).
      const quality = hot('q--r-r-c', { q: { videoId, quality: 'small' }, r: { videoId, quality: 'medium' }, c: { videoId: 'VFcitylight', quality: 'small' } });
      expectObservable(playbackDebugEvents({ state$: state, mediaError$: errors, quality$: quality })).toBe('--ew', {
        e: { name: 'mediaError', payload: { videoId, code: 4, message: 'MEDIA_ELEMENT_ERROR: Format error', mediaTimeSec: 0 }, debug: true },
        w: { name: 'qualityChange', payload: { videoId, previousQuality: 'small', quality: 'medium' }, debug: true },
      });
    });
  });
});
