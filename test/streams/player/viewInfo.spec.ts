import { map, shareReplay, switchMap } from 'rxjs';
import {
  beyondTime,
  PLAYBACK_TIME_KEYS,
  playbackPhase,
  type PlaybackPhase,
  playbackTime,
  sameBeyondTime,
  whileShown,
  wholeSecondsTime,
} from '../../../streams/player/viewInfo';
import { createTestScheduler } from '../../helpers/testScheduler';
import { makeInfo } from '../host/fixtures';
import type { PlayerInfo } from '../../../streams/player/types';

const tick = (t: number) =>
  makeInfo({
    playerState: 1,
    currentTime: t,
    currentTimeLastUpdated_: 1_700_000_000 + t,
    mediaReferenceTime: t,
    videoBytesLoaded: Math.round(t * 100),
    videoLoadedFraction: t / 30,
    progressState: { ...makeInfo().progressState, current: t, loaded: t },
  });

describe('viewInfo: what the player view renders on', () => {
  it('playback ticks differ only in the playback-time keys', () => {
    expect(sameBeyondTime(tick(1), tick(1.25))).toBe(true);
    expect(sameBeyondTime(tick(1), { ...tick(1.25), playerState: 2 })).toBe(false);
    expect(sameBeyondTime(tick(1), { ...tick(1), volume: 50 })).toBe(false);
    expect(sameBeyondTime(tick(1), { ...tick(1), duration: 31 })).toBe(false);
    // Objects by value: a fresh but equal array is no change, a changed one is.
    expect(sameBeyondTime(tick(1), { ...tick(1), availableQualityLevels: [...tick(1).availableQualityLevels] })).toBe(true);
    expect(sameBeyondTime(tick(1), { ...tick(1), playlist: ['a', 'b'] })).toBe(false);
    expect(PLAYBACK_TIME_KEYS).toContain('currentTime');
  });

  it('beyondTime passes the first snapshot and then only changes other than time (4 ticks, one pause → 2 renders)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const info$ = cold<PlayerInfo>('abcdef|', {
        a: tick(0),
        b: tick(0.25),
        c: tick(0.5),
        d: tick(0.75),
        e: makeInfo({ ...tick(0.8), playerState: 2 }),
        f: makeInfo({ ...tick(0.8), playerState: 2, currentTimeLastUpdated_: 5 }),
      });
      expectObservable(
        info$.pipe(
          beyondTime(),
          map((i) => `${i.playerState}@${i.currentTime}`),
        ),
      ).toBe('a---e-|', { a: '1@0', e: '2@0.8' });
    });
  });

  it('playbackTime follows every time change; wholeSecondsTime only the shown second (about 1 Hz while playing)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const info$ = cold<PlayerInfo>('abcdefg|', {
        a: tick(0),
        b: tick(0.25),
        c: tick(0.5),
        d: tick(0.75),
        e: tick(1),
        f: tick(1.25),
        g: { ...tick(1.25), volume: 3 },
      });
      expectObservable(
        info$.pipe(
          playbackTime(),
          map((t) => t.currentTime),
        ),
      ).toBe('abcdef-|', { a: 0, b: 0.25, c: 0.5, d: 0.75, e: 1, f: 1.25 });
      expectObservable(
        info$.pipe(
          wholeSecondsTime(),
          map((t) => t.currentTime),
        ),
      ).toBe('a---e--|', { a: 0, e: 1 });
    });
  });

  it('whileShown under a switchMap of the visibility: every value while shown, the latest once when hidden, catching up on show', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-c-d-e-f-', { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 });
      const state$ = source.pipe(shareReplay({ bufferSize: 1, refCount: false }));
      const shown = hot(' T-----F---T--', { T: true, F: false });
      // Hidden at 6: the latest value (c) once, then nothing (d, e); shown at 10: the latest (e) at once, then f.
      expectObservable(shown.pipe(switchMap((on) => whileShown(state$, on)))).toBe('-a-b-cc---ef-', { a: 1, b: 2, c: 3, e: 5, f: 6 });
      expectSubscriptions(source.subscriptions).toBe('^');
    });
  });

  it('playbackPhase: a video looping by itself (loop=1, a playlist of one) stays "playing" for the view from its end to its new start', () => {
    const phases = (states: number[], patch: Partial<PlayerInfo>) => {
      let phase: PlaybackPhase = 'other';
      return states.map((playerState) => {
        const info = makeInfo({ playerState: playerState as PlayerInfo['playerState'], ...patch });
        phase = playbackPhase(phase, info);
        // The same snapshot again (a second render) gives the same phase.
        expect(playbackPhase(phase, info)).toBe(phase);
        return phase[0];
      });
    };
    const one = { loop: true, playlist: ['VFsunrise01'] };
    expect(phases([-1, 3, 1, 0, -1, 3, 1, 2, 0, -1], one)).toEqual(['o', 'p', 'p', 'l', 'l', 'p', 'p', 'o', 'o', 'o']);
    // Not a loop: no loop flag, a longer playlist (the next video's start is shown), an end that was not playing.
    expect(phases([1, 0, -1, 1], { loop: false, playlist: ['VFsunrise01'] })).toEqual(['p', 'o', 'o', 'p']);
    expect(phases([1, 0, -1, 1], { loop: true, playlist: ['VFsunrise01', 'VFcitylight'] })).toEqual(['p', 'o', 'o', 'p']);
    expect(phases([5, 0, -1], one)).toEqual(['o', 'o', 'o']);
    // A load after playing (not an end) is not a loop.
    expect(phases([1, -1, 3], one)).toEqual(['p', 'o', 'p']);
  });
});
