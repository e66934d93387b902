import { distinctUntilChanged, EMPTY, filter, map, merge, mergeMap, type Observable, of, pairwise, scan, share, skip, startWith, take } from 'rxjs';
import { playerEvents, type LoggedPlayerState, type PlayerLogEvent } from './playerEvents';

/** The player's state at a change: its number and the media time at that moment. */
export interface PlayerStateSnapshot {
  state: LoggedPlayerState;
  mediaTimeSec: number;
  playbackRate: number;
  muted: boolean;
  /** 0–100. */
  volume: number;
}

/** What a viewing session is made of, as the page sees it; each stream is optional but `state$`. */
export interface SessionSources {
  videoId: string;
  autoplay: boolean;
  hostOrigin?: string;
  playerStyle?: string;
  /** One snapshot per state change (the first is the initial state). */
  state$: Observable<PlayerStateSnapshot>;
  /** Emits the load-to-ready latency once, when the player is ready. */
  readyLatencyMs$?: Observable<number>;
  error$?: Observable<{ internal: string; code: number; message?: string }>;
  seek$?: Observable<{ fromSec: number; toSec: number }>;
  volume$?: Observable<{ volume: number; muted: boolean }>;
  playbackRate$?: Observable<number>;
  quality$?: Observable<string>;
  visibility$?: Observable<'unknown' | 'visible' | 'hidden' | 'foregrounded' | 'backgrounded'>;
  online$?: Observable<boolean>;
  hostCommand$?: Observable<{ command: string; hostOrigin: string; accepted: boolean }>;
  /** Latency spans measured by `streams/latency` (e.g. navigation start → player ready). */
  latency$?: Observable<{ action: string; from: string; to: string; durationMs: number }>;
}

const PLAYING: LoggedPlayerState = 1;

/**
 * The events that let the collector rebuild a viewing session: `playerLoad` at once, `playerReady` with
 * its latency, one `playerStateChange` per change, a `watchTimeSegment` for every stretch of continuous playback
 * (from entering state 1 to leaving it), seeks, volume/rate/quality changes, host commands, visibility and network
 * changes, latency spans, and errors. Pure mapping of its sources: time and scheduling belong to them and to the log sink.
 *
 * ```
 * state$:   -5--1-----2--       (media time 0 at 1, 4.5 at 2)
 * result:   L-s--s-----(sw)--   (L load, s stateChange, w watchTimeSegment 0 → 4.5)
 * ```
 */
export function sessionEvents(sources: SessionSources): Observable<PlayerLogEvent> {
  const { videoId } = sources;
  // Shared: the state changes and the watch-time segments read one subscription of the source.
  const state$ = sources.state$.pipe(
    distinctUntilChanged((a, b) => a.state === b.state),
    share(),
  );

  const stateChanges$ = state$.pipe(
    startWith<PlayerStateSnapshot | null>(null),
    pairwise(),
    mergeMap(([previous, current]) =>
      previous === null || current === null
        ? EMPTY
        : of(playerEvents.stateChange({ videoId, previousState: previous.state, state: current.state, mediaTimeSec: current.mediaTimeSec })),
    ),
  );

  // A segment opens when the state becomes 1 and closes, with the media time then, when it leaves 1.
  const watchTime$ = state$.pipe(
    scan(
      (acc: { open?: PlayerStateSnapshot; closed?: { start: PlayerStateSnapshot; end: PlayerStateSnapshot } }, s) =>
        s.state === PLAYING ? { open: acc.open ?? s } : acc.open ? { closed: { start: acc.open, end: s } } : {},
      {},
    ),
    mergeMap((acc) =>
      acc.closed
        ? of(
            playerEvents.watchTimeSegment({
              videoId,
              startSec: acc.closed.start.mediaTimeSec,
              endSec: acc.closed.end.mediaTimeSec,
              playbackRate: acc.closed.start.playbackRate,
              muted: acc.closed.start.muted,
              volume: acc.closed.start.volume,
            }),
          )
        : EMPTY,
    ),
  );

  const rate$ = (sources.playbackRate$ ?? EMPTY).pipe(
    distinctUntilChanged(),
    pairwise(),
    map(([previousRate, rate]) => playerEvents.playbackRateChange({ videoId, previousRate, rate })),
  );
  const quality$ = (sources.quality$ ?? EMPTY).pipe(
    distinctUntilChanged(),
    pairwise(),
    map(([previousQuality, quality]) => playerEvents.qualityChange({ videoId, previousQuality, quality })),
  );

  return merge(
    of(playerEvents.load({ videoId, autoplay: sources.autoplay, hostOrigin: sources.hostOrigin, playerStyle: sources.playerStyle })),
    (sources.readyLatencyMs$ ?? EMPTY).pipe(
      take(1),
      map((latencyMs) => playerEvents.ready({ videoId, latencyMs })),
    ),
    stateChanges$,
    watchTime$,
    (sources.error$ ?? EMPTY).pipe(map((e) => playerEvents.error({ videoId, internalError: e.internal, hostErrorCode: e.code, message: e.message }))),
    (sources.seek$ ?? EMPTY).pipe(map((s) => playerEvents.seek({ videoId, ...s }))),
    (sources.volume$ ?? EMPTY).pipe(
      distinctUntilChanged((a, b) => a.volume === b.volume && a.muted === b.muted),
      skip(1), // the first value is the initial volume, not a change
      map((v) => playerEvents.volumeChange({ videoId, ...v })),
    ),
    rate$,
    quality$,
    (sources.hostCommand$ ?? EMPTY).pipe(map((c) => playerEvents.hostCommand(c))),
    (sources.latency$ ?? EMPTY).pipe(map(({ action, from, to, durationMs }) => playerEvents.latency({ action, from, to, durationMs }))),
    (sources.visibility$ ?? EMPTY).pipe(
      distinctUntilChanged(),
      map((state) => playerEvents.visibilityChange({ state })),
    ),
    (sources.online$ ?? EMPTY).pipe(
      distinctUntilChanged(),
      skip(1), // log changes, not the initial status
      filter((online): online is boolean => typeof online === 'boolean'),
      map((online) => playerEvents.networkChange({ online })),
    ),
  );
}
