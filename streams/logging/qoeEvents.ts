import { asyncScheduler, EMPTY, filter, from, map, merge, mergeMap, type Observable, scan, type SchedulerLike, throttleTime } from 'rxjs';
import { QOE_BANDWIDTH_LOG_INTERVAL_MS } from '../timing';
import { playerEvents, type LoggedPlayerState, type PlayerLogEvent } from './playerEvents';

/** What the adaptive stream tells about itself: the rendition each decision chose (with why), and its estimates. */
export type QoeStreamEvent = { type: 'decision'; quality: string; bitrate: number; reason: string } | { type: 'estimate'; bps: number };

export interface QoeSources {
  /** Each video load (the first one included): it starts the start-up clock. */
  load$: Observable<{ videoId: string }>;
  /** The player's state at each change, with the video and the media time then. */
  state$: Observable<{ videoId: string; state: LoggedPlayerState; mediaTimeSec: number }>;
  /** Each seek: the buffering that follows it, until playing again, is no rebuffer. */
  seek$: Observable<unknown>;
  /** The quality of the rendition on screen, at each change ('' when none). */
  quality$: Observable<{ videoId: string; quality: string }>;
  /** The adaptive stream's decisions and estimates, with the video they belong to. */
  stream$?: Observable<QoeStreamEvent & { videoId: string }>;
  scheduler?: SchedulerLike;
  /** At most one bandwidth estimate is logged in this long. */
  bandwidthIntervalMs?: number;
}

const PLAYING: LoggedPlayerState = 1;
const BUFFERING: LoggedPlayerState = 3;

type Input =
  | { kind: 'load'; videoId: string }
  | { kind: 'state'; videoId: string; state: LoggedPlayerState; mediaTimeSec: number }
  | { kind: 'seek' }
  | { kind: 'quality'; videoId: string; quality: string }
  | { kind: 'decision'; quality: string; bitrate: number; reason: string };

/** What the reducer keeps between inputs; `out` holds the events of the last input. */
interface QoeState {
  videoId: string;
  /** When the current video's load started, until its first frame plays. */
  loadAtMs?: number;
  state?: LoggedPlayerState;
  /** A seek is under way: set by the seek, cleared when playing again. */
  seeking: boolean;
  rebuffer?: { sinceMs: number };
  /** The rendition on screen, and since when it played (while playing). */
  quality: string;
  playingSinceMs?: number;
  /** The latest decision per quality: its bitrate and reason. */
  decided: Record<string, { bitrate: number; reason: string }>;
  out: PlayerLogEvent[];
}

const initial: QoeState = { videoId: '', seeking: false, quality: '', decided: {}, out: [] };

/** Closes the rendition's played time at `now`, when it was playing. */
function closeRendition(s: QoeState, now: number, out: PlayerLogEvent[]): void {
  if (s.playingSinceMs === undefined || s.quality === '') return;
  const bitrate = s.decided[s.quality]?.bitrate ?? 0;
  out.push(playerEvents.renditionPlayed({ videoId: s.videoId, quality: s.quality, bitrate, durationMs: now - s.playingSinceMs }));
}

function onState(s: QoeState, input: Extract<Input, { kind: 'state' }>, now: number): QoeState {
  const out: PlayerLogEvent[] = [];
  const { videoId, state, mediaTimeSec } = input;
  if (state === s.state) return { ...s, out };
  let { loadAtMs, rebuffer, seeking } = s;
  if (state === PLAYING && loadAtMs !== undefined) {
    out.push(playerEvents.startupTime({ videoId, startupMs: now - loadAtMs }));
    loadAtMs = undefined;
  }
  if (rebuffer && state !== BUFFERING) {
    out.push(playerEvents.rebufferEnd({ videoId, mediaTimeSec, durationMs: now - rebuffer.sinceMs }));
    rebuffer = undefined;
  }
  if (state === BUFFERING && s.state === PLAYING && !seeking) {
    out.push(playerEvents.rebufferStart({ videoId, mediaTimeSec }));
    rebuffer = { sinceMs: now };
  }
  if (state !== PLAYING) closeRendition(s, now, out);
  else seeking = false;
  const playingSinceMs = state === PLAYING ? (s.state === PLAYING ? s.playingSinceMs : now) : undefined;
  return { ...s, videoId, state, loadAtMs, rebuffer, playingSinceMs, seeking, out };
}

function onQuality(s: QoeState, { videoId, quality }: Extract<Input, { kind: 'quality' }>, now: number): QoeState {
  const out: PlayerLogEvent[] = [];
  if (quality === s.quality) return { ...s, out };
  closeRendition(s, now, out);
  if (s.quality !== '' && quality !== '' && videoId === s.videoId) {
    const to = s.decided[quality];
    out.push(
      playerEvents.qualitySwitch({
        videoId,
        reason: to?.reason ?? 'unknown',
        fromQuality: s.quality,
        toQuality: quality,
        fromBitrate: s.decided[s.quality]?.bitrate ?? 0,
        toBitrate: to?.bitrate ?? 0,
      }),
    );
  }
  return { ...s, videoId, quality, playingSinceMs: s.playingSinceMs === undefined ? undefined : now, out };
}

function reduce(s: QoeState, input: Input, now: number): QoeState {
  switch (input.kind) {
    case 'load': {
      const out: PlayerLogEvent[] = [];
      closeRendition(s, now, out);
      return { ...initial, videoId: input.videoId, loadAtMs: now, out };
    }
    case 'seek':
      return { ...s, seeking: true, out: [] };
    case 'decision':
      return { ...s, decided: { ...s.decided, [input.quality]: { bitrate: input.bitrate, reason: input.reason } }, out: [] };
    case 'state':
      return onState(s, input, now);
    case 'quality':
      return onQuality(s, input, now);
  }
}

/**
 * The quality of experience of a playback, as log events, each timed by `scheduler`:
 *
 * - `startupTime` from a video's load to its first frame playing;
 * - `rebufferStart` when playback under way waits for data (buffering entered from playing, not after a seek), and
 *   `rebufferEnd` when it stops waiting, with the duration;
 * - `qualitySwitch` when the rendition on screen changes (not the first one), with the reason of the decision that
 *   chose it and both renditions' bitrates;
 * - `renditionPlayed`: how long a rendition was on screen while playing, closed when it leaves the screen or playback
 *   stops (the dashboard weighs bitrates by it);
 * - `bandwidthEstimate`: the stream's estimate, at most one per `bandwidthIntervalMs` (the latest of each interval).
 *
 * ```
 * load:    L--------------
 * state:   -b-p--w---p----     (b buffering, p playing, w waiting after playing)
 * result:  ---s--r---(Ee)-     (s startupTime 2, r rebufferStart, E rebufferEnd 4, e renditionPlayed)
 * ```
 */
export function qoeEvents({
  load$,
  state$,
  seek$,
  quality$,
  stream$ = EMPTY,
  scheduler = asyncScheduler,
  bandwidthIntervalMs = QOE_BANDWIDTH_LOG_INTERVAL_MS,
}: QoeSources): Observable<PlayerLogEvent> {
  const inputs$: Observable<Input> = merge(
    load$.pipe(map(({ videoId }): Input => ({ kind: 'load', videoId }))),
    state$.pipe(map((s): Input => ({ kind: 'state', ...s }))),
    seek$.pipe(map((): Input => ({ kind: 'seek' }))),
    quality$.pipe(map((q): Input => ({ kind: 'quality', ...q }))),
    stream$.pipe(
      filter((e) => e.type === 'decision'),
      map((e): Input => ({ kind: 'decision', quality: e.quality, bitrate: e.bitrate, reason: e.reason })),
    ),
  );
  const playback$ = inputs$.pipe(
    scan((s: QoeState, input: Input) => reduce(s, input, scheduler.now()), initial),
    mergeMap((s) => from(s.out)),
  );
  const estimates$ = stream$.pipe(
    filter((e): e is Extract<QoeStreamEvent, { type: 'estimate' }> & { videoId: string } => e.type === 'estimate'),
    throttleTime(bandwidthIntervalMs, scheduler, { leading: true, trailing: true }),
    map((e) => playerEvents.bandwidthEstimate({ videoId: e.videoId, bps: e.bps })),
  );
  return merge(playback$, estimates$);
}
