import {
  asyncScheduler,
  defer,
  distinctUntilChanged,
  EMPTY,
  exhaustMap,
  filter,
  map,
  type Observable,
  of,
  retry,
  type SchedulerLike,
  switchMap,
  takeWhile,
  tap,
  timer,
  catchError,
} from 'rxjs';
import type { HeartbeatParams, HeartbeatRequest, HeartbeatResponse } from '../config/heartbeatTypes';
import { PLAYER_HEARTBEAT_INTERVAL_MS, PLAYER_HEARTBEAT_MAX_RETRIES, PLAYER_HEARTBEAT_MIN_INTERVAL_MS, PLAYER_HEARTBEAT_RETRY_DELAY_MS } from '../timing';
import type { PlayerModel } from './playerModel';
import type { EngineInput } from './playerStep';

/** What one heartbeat answer means for the playback. */
export type HeartbeatVerdict = { kind: 'continue'; serverData?: string } | { kind: 'quiet' } | { kind: 'stop'; reason?: string };

/** The answer is not one: the request counts as failed (and is retried). */
export class HeartbeatAnswerError extends Error {
  override name = 'HeartbeatAnswerError';
}

/**
 * What a heartbeat answer says: a `playabilityStatus` other than OK stops the playback (`heartbeat.stop`, with the
 * answer's reason); `stopHeartbeat` ends the heartbeat while the playback goes on; anything else goes on, carrying the
 * server's data to the next heartbeat.
 *
 * @throws HeartbeatAnswerError for an answer without a `playabilityStatus` (not an answer of this call).
 */
export function heartbeatVerdict(answer: unknown): HeartbeatVerdict {
  const status = (answer as Partial<HeartbeatResponse> | null)?.playabilityStatus;
  if (!status || typeof status !== 'object' || typeof status.status !== 'string')
    throw new HeartbeatAnswerError('The heartbeat answer has no playabilityStatus.');
  if (status.status !== 'OK') return { kind: 'stop', ...(typeof status.reason === 'string' && { reason: status.reason }) };
  const { heartbeatServerData, stopHeartbeat } = answer as HeartbeatResponse;
  if (stopHeartbeat === true) return { kind: 'quiet' };
  return { kind: 'continue', ...(typeof heartbeatServerData === 'string' && { serverData: heartbeatServerData }) };
}

/** A whole number from the answer's text (`"5000"`), or `fallback` when it is not one or is below `min`. */
function countOr(text: string | undefined, fallback: number, min: number): number {
  const n = typeof text === 'string' && /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(n) && n >= min ? n : fallback;
}

/** The playback a heartbeat belongs to: one load's answer. */
interface Playback {
  seq: number;
  videoId: string;
  params: HeartbeatParams | undefined;
}

export interface PlayerHeartbeatOptions {
  /** `POST /youtubei/v1/player/heartbeat` (injected: a marble test passes `cold()`); errors for a failed request. */
  sendHeartbeat: (request: HeartbeatRequest) => Observable<unknown>;
  intervalMs?: number;
  maxRetries?: number;
  retryDelayMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * The player heartbeat (spec §8 `heartbeat.stop`, `heartbeat.servererror`): for a load whose answer carries
 * `heartbeatParams`, a heartbeat at once when playing starts and then every interval while it plays (none while
 * paused, buffering or cued; at most one in flight). Each carries the answer's `heartbeatToken` and the
 * `heartbeatServerData` of the previous heartbeat's answer. A failed heartbeat is asked again, `maxRetries` times,
 * 1 s then 2 s later; playback goes on meanwhile.
 *
 * `playing$` is a state: it gives its current value to each subscriber (each load's heartbeat subscribes anew).
 *
 * Emits the engine's failure input for that load (`requestFailed`, which pauses the element and reports the error
 * once, and is dropped when another load came since):
 * - `heartbeat.stop` when an answer says the playback may not go on;
 * - `heartbeat.servererror` when a heartbeat still fails after its retries (unless the answer said `softFailOnError`,
 *   when the heartbeat ends and the playback goes on).
 * The heartbeat of that load ends there, as it does on `stopHeartbeat`.
 *
 * ```
 * playing:  t--------------------f----     (t playing, f paused; interval 5 frames here)
 * beats:    a----b----c----------------     (a at once, then every 5)
 * answers:  -o----o----s                   (o OK, s stop)
 * result:   -----------x                   (x requestFailed heartbeat.stop)
 * ```
 */
export function playerHeartbeat(
  model$: Observable<PlayerModel>,
  playing$: Observable<boolean>,
  {
    sendHeartbeat,
    intervalMs = PLAYER_HEARTBEAT_INTERVAL_MS,
    maxRetries = PLAYER_HEARTBEAT_MAX_RETRIES,
    retryDelayMs = PLAYER_HEARTBEAT_RETRY_DELAY_MS,
    scheduler = asyncScheduler,
  }: PlayerHeartbeatOptions,
): Observable<EngineInput> {
  const playback$ = model$.pipe(
    filter((m) => m.response !== null),
    map((m): Playback => ({ seq: m.loadSeq, videoId: m.videoId, params: m.response?.heartbeatParams })),
    distinctUntilChanged((a, b) => a.seq === b.seq),
  );
  const playing = playing$.pipe(distinctUntilChanged());
  return playback$.pipe(switchMap((p) => (p.params ? beatsOf(p, p.params) : EMPTY)));

  function beatsOf(p: Playback, params: HeartbeatParams): Observable<EngineInput> {
    const every = countOr(params.intervalMilliseconds, intervalMs, PLAYER_HEARTBEAT_MIN_INTERVAL_MS);
    const retries = countOr(params.maxRetries, maxRetries, 0);
    const failed = (internal: string, message: string): EngineInput => ({ type: 'requestFailed', seq: p.seq, internal, message });
    return defer(() => {
      // The server's data of the latest answer of this playback, sent back with the next heartbeat.
      let serverData: string | undefined;
      const beat = () =>
        defer(() =>
          sendHeartbeat({
            videoId: p.videoId,
            ...(params.heartbeatToken !== undefined && { heartbeatToken: params.heartbeatToken }),
            ...(serverData !== undefined && { heartbeatServerData: serverData }),
          }),
        ).pipe(
          map(heartbeatVerdict),
          retry({ count: retries, delay: (_e, n) => timer(retryDelayMs * 2 ** (n - 1), scheduler) }),
          // Still failing after its retries: the playback stops, or with `softFailOnError` only the heartbeat does.
          catchError(() => of<HeartbeatVerdict | 'failed'>(params.softFailOnError === true ? { kind: 'quiet' } : 'failed')),
        );
      return playing.pipe(
        switchMap((on) => (on ? timer(0, every, scheduler).pipe(exhaustMap(beat)) : EMPTY)),
        tap((v) => {
          if (v !== 'failed' && v.kind === 'continue' && v.serverData !== undefined) serverData = v.serverData;
        }),
        takeWhile((v) => v !== 'failed' && v.kind === 'continue', true),
        map((v): EngineInput | null => {
          if (v === 'failed') return failed('heartbeat.servererror', 'Playback stopped: the server could not confirm it may go on.');
          return v.kind === 'stop' ? failed('heartbeat.stop', v.reason ?? 'Playback of this video was stopped.') : null;
        }),
        filter((input): input is EngineInput => input !== null),
      );
    });
  }
}
