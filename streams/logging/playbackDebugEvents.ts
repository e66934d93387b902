import { asyncScheduler, distinctUntilChanged, EMPTY, map, merge, mergeMap, type Observable, of, pairwise, scan, type SchedulerLike } from 'rxjs';
import { playerEvents, type LoggedPlayerState, type PlayerLogEvent } from './playerEvents';

export interface PlaybackDebugSources {
  /** The player's state at each change, with the video and the media time then. */
  state$: Observable<{ videoId: string; state: LoggedPlayerState; mediaTimeSec: number }>;
  /** Each failure of the media element, with its `MediaError` code and message. */
  mediaError$?: Observable<{ videoId: string; code: number; message: string; mediaTimeSec: number }>;
  /** The quality of the rendition playing, at each change (the first value is the initial one). */
  quality$?: Observable<{ videoId: string; quality: string }>;
  scheduler?: SchedulerLike;
}

const PLAYING: LoggedPlayerState = 1;
const BUFFERING: LoggedPlayerState = 3;

/**
 * The debugging events of a playback (spec §7 `video_stats`): what a developer needs when a viewer says "it stuck" or
 * "it broke", and that the session events do not carry.
 *
 * - `playbackStall` when the player leaves a stall — buffering entered **from playing** (not the start-up buffering) —
 *   with where it stalled and how long it lasted (by `scheduler`);
 * - `mediaError` for each failure of the media element, with the browser's `MediaError` code and message;
 * - `qualityChange` (as a debugging event) at each switch of rendition, not for the initial one.
 *
 * ```
 * state$:  -1--3---1---     (3 at 4.2 s, entered @3, left @7)
 * result:  --------s---     (s playbackStall 4.2 s, 4 frames)
 * ```
 */
export function playbackDebugEvents({
  state$,
  mediaError$ = EMPTY,
  quality$ = EMPTY,
  scheduler = asyncScheduler,
}: PlaybackDebugSources): Observable<PlayerLogEvent> {
  type Stall = { videoId: string; mediaTimeSec: number; sinceMs: number };
  const stalls$ = state$.pipe(
    distinctUntilChanged((a, b) => a.state === b.state && a.videoId === b.videoId),
    scan((acc: { state?: LoggedPlayerState; open?: Stall; done?: Stall & { durationMs: number } }, s) => {
      const now = scheduler.now();
      const done = acc.open && s.state !== BUFFERING ? { ...acc.open, durationMs: now - acc.open.sinceMs } : undefined;
      const open =
        s.state === BUFFERING && acc.state === PLAYING
          ? { videoId: s.videoId, mediaTimeSec: s.mediaTimeSec, sinceMs: now }
          : s.state === BUFFERING
            ? acc.open
            : undefined;
      return { state: s.state, open, done };
    }, {}),
    mergeMap(({ done }) =>
      done ? of(playerEvents.playbackStall({ videoId: done.videoId, mediaTimeSec: done.mediaTimeSec, durationMs: done.durationMs })) : EMPTY,
    ),
  );
  const qualitySwitches$ = quality$.pipe(
    distinctUntilChanged((a, b) => a.videoId === b.videoId && a.quality === b.quality),
    pairwise(),
    mergeMap(([previous, current]) =>
      previous.videoId === current.videoId && previous.quality !== '' && current.quality !== ''
        ? of(playerEvents.asDebug(playerEvents.qualityChange({ videoId: current.videoId, previousQuality: previous.quality, quality: current.quality })))
        : EMPTY,
    ),
  );
  return merge(stalls$, mediaError$.pipe(map((e) => playerEvents.mediaError(e))), qualitySwitches$);
}
