import { PlayerState } from '../../../streams/player/playerState';
import { HOST_TIME_EXTRAPOLATION_MAX_MS } from '../../../streams/timing';
import type { PlayerInfoCache } from './types';

/**
 * `getCurrentTime()` between deliveries (host-protocol §5). The embed stamps every `currentTime` with
 * `currentTimeLastUpdated_` (wall-clock seconds). While `playerState` is 1 (playing) the host adds the time elapsed
 * since that stamp, times the playback rate, but never more than {@link HOST_TIME_EXTRAPOLATION_MAX_MS} (so a stall
 * the embed has not reported yet cannot run the clock away) and never past `duration` when it is known. In any other
 * state, or without a stamp, the cached value is returned as it is; `undefined` when the cache has no time.
 *
 * @param nowMs wall-clock milliseconds (`scheduler.now()`).
 */
export function extrapolateCurrentTime(cache: PlayerInfoCache, nowMs: number, maxMs: number = HOST_TIME_EXTRAPOLATION_MAX_MS): number | undefined {
  const time = typeof cache.currentTime === 'number' ? cache.currentTime : cache.progressState?.current;
  if (typeof time !== 'number' || !Number.isFinite(time)) return undefined;
  const stamp = cache.currentTimeLastUpdated_;
  if (cache.playerState !== PlayerState.PLAYING || typeof stamp !== 'number') return time;
  const elapsedSeconds = nowMs / 1000 - stamp;
  if (!(elapsedSeconds > 0)) return time;
  const rate = typeof cache.playbackRate === 'number' && cache.playbackRate > 0 ? cache.playbackRate : 1;
  const extrapolated = time + Math.min(elapsedSeconds * rate, maxMs / 1000);
  const duration = cache.duration;
  return typeof duration === 'number' && duration > 0 ? Math.min(extrapolated, Math.max(duration, time)) : extrapolated;
}
