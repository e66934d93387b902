import { BehaviorSubject, Subject } from 'rxjs';
import { bindMediaSession } from '../../../../src/embed/player/mediaSession';
import { PlayerState, type PlayerStateValue } from '../../../../streams/player/playerState';
import type { PlayerCommand, PlayerInfo } from '../../../../streams/player/types';
import type { VideoData } from '../../../../src/embed/player/nextVideoData';

/** A Media Session as the browser keeps it: what the page set, and the handlers it gave. */
function fakeSession() {
  const handlers = new Map<string, ((details: { action: string; seekTime?: number }) => void) | null>();
  const positions: unknown[] = [];
  const session = {
    metadata: null as unknown,
    playbackState: 'none',
    setActionHandler: (action: string, handler: ((details: { action: string }) => void) | null) => handlers.set(action, handler),
    setPositionState: (state?: { duration: number; position: number }) => {
      if (state && state.position > state.duration) throw new TypeError('position beyond duration');
      positions.push(state);
    },
  };
  return { session, handlers, positions, nav: { mediaSession: session } as unknown as Navigator };
}

class FakeMetadata {
  constructor(readonly init: MediaMetadataInit) {}
}

const info = (over: Partial<PlayerInfo> = {}) =>
  ({ currentTime: 2, currentTimeLastUpdated_: 100, duration: 12, playbackRate: 1, playerState: PlayerState.PLAYING, playlist: null, ...over }) as PlayerInfo;

describe('bindMediaSession', () => {
  it('keeps the session’s video, state, position and handlers current, and lets go of them when stopped', () => {
    const { session, handlers, positions, nav } = fakeSession();
    const videoData$ = new BehaviorSubject<VideoData | null>(null);
    const state$ = new BehaviorSubject<PlayerStateValue>(PlayerState.UNSTARTED);
    const info$ = new Subject<PlayerInfo>();
    const commands: PlayerCommand[] = [];
    const binding = bindMediaSession({ videoData$, state$, info$, command: (c) => commands.push(c) }, nav, FakeMetadata as unknown as typeof MediaMetadata);

    expect(session.metadata).toBeNull();
    videoData$.next({ videoId: 'VFcitylight', title: 'City lights', author: 'VidFrame Samples', durationSeconds: 12, posterUrl: '/p.jpg' });
    expect((session.metadata as FakeMetadata).init).toEqual({ title: 'City lights', artist: 'VidFrame Samples', artwork: [{ src: '/p.jpg' }] });
    state$.next(PlayerState.PLAYING);
    expect(session.playbackState).toBe('playing');

    info$.next(info());
    expect(positions).toEqual([{ duration: 12, playbackRate: 1, position: 2 }]);
    // Steady playback moves on by itself in the session: a tick sets nothing; a seek, a pause or a new rate does.
    info$.next(info({ currentTime: 2.25, currentTimeLastUpdated_: 100.25 }));
    expect(positions).toHaveLength(1);
    info$.next(info({ currentTime: 8, currentTimeLastUpdated_: 100.5 }));
    info$.next(info({ currentTime: 8, currentTimeLastUpdated_: 100.75, playerState: PlayerState.PAUSED }));
    info$.next(info({ currentTime: 8, currentTimeLastUpdated_: 101, playerState: PlayerState.PAUSED, playbackRate: 2 }));
    expect(positions.slice(1)).toEqual([
      { duration: 12, playbackRate: 1, position: 8 },
      { duration: 12, playbackRate: 1, position: 8 },
      { duration: 12, playbackRate: 2, position: 8 },
    ]);
    expect([...handlers.entries()].filter(([, h]) => h !== null).map(([a]) => a)).toEqual(['play', 'pause', 'stop', 'seekbackward', 'seekforward', 'seekto']);
    handlers.get('seekto')!({ action: 'seekto', seekTime: 5 });
    handlers.get('pause')!({ action: 'pause' });
    expect(commands).toEqual([{ type: 'seek', seconds: 5, allowSeekAhead: true, keepState: true }, { type: 'pause' }]);

    // A playlist brings the track handlers; its end takes them away.
    info$.next(info({ playlist: ['a', 'b'] }));
    handlers.get('nexttrack')!({ action: 'nexttrack' });
    expect(commands.at(-1)).toEqual({ type: 'nextVideo' });
    info$.next(info({ playlist: null }));
    expect(handlers.get('nexttrack')).toBeNull();

    binding.unsubscribe();
    expect(session.metadata).toBeNull();
    expect([...handlers.values()].every((h) => h === null)).toBe(true);
  });

  it('does nothing where the browser has no Media Session: it watches nothing of the player', () => {
    const sources = { videoData$: new Subject<VideoData | null>(), state$: new Subject<PlayerStateValue>(), info$: new Subject<PlayerInfo>() };
    const binding = bindMediaSession({ ...sources, command: () => undefined }, {} as Navigator, FakeMetadata as unknown as typeof MediaMetadata);
    expect(Object.values(sources).map((s) => s.observed)).toEqual([false, false, false]);
    binding.unsubscribe();
  });
});
