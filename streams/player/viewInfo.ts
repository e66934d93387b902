import { distinctUntilChanged, map, type Observable, scan, take, type OperatorFunction } from 'rxjs';
import type { PlayerInfo } from './types';
import { sameValue } from '../shared/sameValue';

/**
 * The snapshot keys that move with playback (several times a second while playing) or with buffering. The views that
 * show them (the seek bar, the time) subscribe to them alone; the rest of the player renders only when something
 * else changes, so that a `timeupdate` never re-renders the whole player.
 */
export const PLAYBACK_TIME_KEYS: readonly (keyof PlayerInfo)[] = [
  'currentTime',
  'currentTimeLastUpdated_',
  'mediaReferenceTime',
  'progressState',
  'videoBytesLoaded',
  'videoLoadedFraction',
];

const TIME_KEYS = new Set<string>(PLAYBACK_TIME_KEYS);

/** True when `a` and `b` differ in nothing but the playback-time keys. */
export function sameBeyondTime(a: PlayerInfo, b: PlayerInfo): boolean {
  if (a === b) return true;
  // Every key of either, without building the union (this runs on every playback tick).
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  for (const k in x) if (!TIME_KEYS.has(k) && !sameValue(x[k], y[k])) return false;
  for (const k in y) if (!(k in x) && !TIME_KEYS.has(k) && !sameValue(x[k], y[k])) return false;
  return true;
}

/** The snapshots, passed on only when something other than the playback time changed. */
export const beyondTime = (): OperatorFunction<PlayerInfo, PlayerInfo> => distinctUntilChanged(sameBeyondTime);

export interface PlaybackTime {
  currentTime: number;
  duration: number;
}

/** `time(info)` and the duration, passed on when either changes. */
const distinctTime =
  (time: (i: PlayerInfo) => number): OperatorFunction<PlayerInfo, PlaybackTime> =>
  (info$) =>
    info$.pipe(
      distinctUntilChanged((a, b) => time(a) === time(b) && a.duration === b.duration),
      map((i) => ({ currentTime: time(i), duration: i.duration })),
    );

/** The current time and duration, passed on when either changes (the seek bar's rate: each `timeupdate`). */
export const playbackTime = (): OperatorFunction<PlayerInfo, PlaybackTime> => distinctTime((i) => i.currentTime);

/** The time in whole seconds and the duration, passed on when the shown text could change (about once a second). */
export const wholeSecondsTime = (): OperatorFunction<PlayerInfo, PlaybackTime> => distinctTime((i) => Math.floor(i.currentTime));

/**
 * A state stream (replaying its latest value) as a view that can be hidden reads it: every value while `shown`; only
 * the latest one while not — the view keeps what it last showed and does no work per tick (an auto-hidden
 * control bar would otherwise move its seek bar's played part and buffered ranges on every tick). Used under a
 * `switchMap` of the view's visibility, it catches up at once when the view shows again.
 *
 * ```
 * state$:  -a-b-c-d-e-f-
 * shown:   T-----F---T--   (under switchMap)
 * result:  -a-b-cc---ef-   (hidden: c, the latest, once; d and e not; shown again: e at once, then f)
 * ```
 */
export function whileShown<T>(state$: Observable<T>, shown: boolean): Observable<T> {
  return shown ? state$ : state$.pipe(take(1));
}

/**
 * Where the view is in its playback, for what it shows while playing: `playing` (1 or 3), `looping` — a video looping
 * by itself (`loop=1&playlist=<its id>`, a playlist of one) between its end (0) and its new start (-1, then 3 and 1),
 * which takes moments — or `other`. From the phase before and the snapshot now; the same snapshot again gives the same
 * phase (a view may render twice).
 *
 * The view counts `looping` as playing: the viewer sees one playback going on, so the end screen, the title and the
 * controls do not pop up for a moment at each loop (which would mount and unmount them, and show the
 * controls for their auto-hide delay). The host and the logging still see the loop's states.
 *
 * ```
 * state: 1 1 0 -1 3 1 2 0
 * phase: p p l  l p p o o   (loop=1, playlist of one: the pause and the end after it are not a loop)
 * ```
 */
export type PlaybackPhase = 'playing' | 'looping' | 'other';

export function playbackPhase(before: PlaybackPhase, info: PlayerInfo): PlaybackPhase {
  const state = info.playerState;
  if (state === 1 || state === 3) return 'playing';
  if (state === 0 && (before === 'playing' || before === 'looping') && info.loop && info.playlist?.length === 1) return 'looping';
  if (state === -1 && before === 'looping') return 'looping';
  return 'other';
}

/** Each snapshot with its {@link playbackPhase}, folded from the first one (phase `other` before it). */
export const withPlaybackPhase = (): OperatorFunction<PlayerInfo, { info: PlayerInfo; phase: PlaybackPhase }> =>
  scan((view: { info: PlayerInfo | null; phase: PlaybackPhase }, info: PlayerInfo) => ({ info, phase: playbackPhase(view.phase, info) }), {
    info: null,
    phase: 'other',
  }) as OperatorFunction<PlayerInfo, { info: PlayerInfo; phase: PlaybackPhase }>;
