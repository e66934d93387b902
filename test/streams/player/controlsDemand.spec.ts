import { controlsNeeded, controlsNeeded$ } from '../../../streams/player/controlsDemand';
import type { PlayerReadiness } from '../../../streams/player/playerReadiness';
import type { PlayerInfo } from '../../../streams/player/types';
import { createTestScheduler } from '../../helpers/testScheduler';
import { makeInfo } from '../host/fixtures';

const track: PlayerInfo['captionTrack'] = { languageCode: 'en', languageName: 'English', displayName: 'English', kind: '', is_default: true };

describe('controlsNeeded: whether the page needs the controls before the viewer reaches for it', () => {
  const playing = { readiness: 'ready' as const, info: makeInfo({ playerState: 1 }), phase: 'playing' as const, failed: false, autoplayBlocked: false };

  it('a video playing, buffering, looping by itself or about to autoplay needs none', () => {
    expect(controlsNeeded(playing)).toBe(false);
    expect(controlsNeeded({ ...playing, info: makeInfo({ playerState: 3 }) })).toBe(false);
    expect(controlsNeeded({ ...playing, info: makeInfo({ playerState: 0, loop: true }), phase: 'looping' })).toBe(false);
    expect(controlsNeeded({ ...playing, info: makeInfo({ playerState: -1 }), phase: 'other' })).toBe(false);
  });

  it('a player not ready, a cued, paused or ended video, a failure, a refused autoplay or captions on need them', () => {
    expect(controlsNeeded({ ...playing, readiness: 'loading' })).toBe(true);
    for (const playerState of [5, 2, 0] as const) expect(controlsNeeded({ ...playing, info: makeInfo({ playerState }), phase: 'other' })).toBe(true);
    expect(controlsNeeded({ ...playing, failed: true })).toBe(true);
    expect(controlsNeeded({ ...playing, autoplayBlocked: true })).toBe(true);
    expect(controlsNeeded({ ...playing, info: makeInfo({ playerState: 1, captionTrack: track }) })).toBe(true);
  });

  it('over the streams: ticks change nothing; a pause asks for them, a loop does not', () => {
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const readiness$ = hot<PlayerReadiness>('r', { r: 'ready' });
      const error$ = hot('n', { n: null });
      const autoplayBlocked$ = hot('f', { f: false });
      const info$ = cold<PlayerInfo>('abcde', {
        a: makeInfo({ playerState: 1, currentTime: 1 }),
        b: makeInfo({ playerState: 1, currentTime: 1.25 }),
        c: makeInfo({ playerState: 0, currentTime: 12, loop: true, playlist: ['VFsunrise01'] }),
        d: makeInfo({ playerState: 1, currentTime: 0, loop: true, playlist: ['VFsunrise01'] }),
        e: makeInfo({ playerState: 2, currentTime: 0.5, loop: true, playlist: ['VFsunrise01'] }),
      });
      expectObservable(controlsNeeded$({ readiness$, info$, error$, autoplayBlocked$ })).toBe('a---e', { a: false, e: true });
    });
  });
});
