import type { PlayerInfo } from '../player/types';
import { HOST_SEEK_JUMP_SECONDS } from '../timing';
import { sameValue } from '../shared/sameValue';
import { captionsApiInfo } from './snapshotForHost';
import { HOST_SNAPSHOT_KEYS } from './hostApiInterface';

/** One message the embed owes the host for a snapshot change, before the envelope is added. */
export interface HostDelivery {
  event: string;
  info: unknown;
  /** True when a burst of these may be merged (see `coalesceDeliveries`); never for a state change. */
  coalesce: boolean;
}

/** Keys sent together whenever time moves or a seek completes (host-protocol §5). */
const TIME_GROUP = ['currentTime', 'currentTimeLastUpdated_', 'playbackRate', 'mediaReferenceTime', 'videoBytesLoaded', 'videoLoadedFraction', 'progressState'];
const TIME_KEYS = new Set(TIME_GROUP);
/** The keys of the host's view of a snapshot (`snapshotForHost`), in its order. */
const HOST_KEYS: readonly string[] = [...new Set<string>(HOST_SNAPSHOT_KEYS)];
const VOLUME_GROUP = ['volume', 'muted'];
const QUALITY_GROUP = ['playbackQuality', 'availableQualityLevels'];
/** Keys whose changes alone may be coalesced in a burst. */
const COALESCABLE = new Set([...TIME_GROUP, ...VOLUME_GROUP]);

/**
 * True when the time moved otherwise than playback moves it: any change while not playing, or, while playing, a change
 * that the wall clock × rate between the two reads does not explain within {@link HOST_SEEK_JUMP_SECONDS}.
 */
export function isTimeJump(prev: PlayerInfo, next: PlayerInfo): boolean {
  if (prev.currentTime === next.currentTime) return false;
  if (prev.playerState !== 1 || next.playerState !== 1) return true;
  const expected = (next.currentTimeLastUpdated_ - prev.currentTimeLastUpdated_) * (next.playbackRate || 1);
  return Math.abs(next.currentTime - prev.currentTime - expected) > HOST_SEEK_JUMP_SECONDS;
}

/** The host keys outside the time group, in the host's order: the ones a playback tick compares. */
const OTHER_KEYS: readonly string[] = HOST_KEYS.filter((k) => !TIME_KEYS.has(k));
/** The time group in the host's order, as {@link hostDeliveries} writes it into an `infoDelivery`. */
const TIME_KEYS_IN_ORDER: readonly string[] = HOST_KEYS.filter((k) => TIME_KEYS.has(k));

/**
 * The deliveries of a playback tick — the time moved at the same state and rate, and nothing else of the host's view
 * changed — or `null` for any other change. The same deliveries {@link hostDeliveries} lists for it, made without its
 * sets and groups, as it runs on every playback tick: the time group's `infoDelivery`, then `onVideoProgress`.
 */
function tickDeliveries(prev: PlayerInfo, next: PlayerInfo, before: Record<string, unknown>, after: Record<string, unknown>): HostDelivery[] | null {
  if (prev.playerState !== next.playerState || prev.playbackRate !== next.playbackRate) return null;
  for (const k of OTHER_KEYS) if (!sameValue(before[k], after[k])) return null;
  if (!sameValue(captionsApiInfo(prev), captionsApiInfo(next))) return null;
  const coalesce = !isTimeJump(prev, next);
  const info: Record<string, unknown> = {};
  for (const k of TIME_KEYS_IN_ORDER) info[k] = after[k];
  return [
    { event: 'infoDelivery', info, coalesce },
    { event: 'onVideoProgress', info: next.currentTime, coalesce },
  ];
}

/**
 * What the host must receive when the snapshot goes from `prev` to `next` (host-protocol §5), in order:
 * 1. one `infoDelivery` with every changed key, widened to its group (time → the whole time group, volume ↔ muted,
 *    quality ↔ available levels), **before** any event, so the host's getters already answer the new values;
 * 2. `onStateChange`, then `onVolumeChange {volume, muted}`, `onPlaybackRateChange`, `onPlaybackQualityChange`,
 *    `onVideoProgress` (current time);
 * 3. `apiInfoDelivery` when caption tracks or the shown track change, then `onApiChange` when the module appeared or left.
 * Events are listed whether or not the host subscribed; the protocol filters them. No change → `[]`.
 *
 * `currentTimeLastUpdated_` alone is no change (it is re-read with every snapshot: a `seeking` event would otherwise
 * post a delivery that says nothing and opens the coalescing window ahead of the real position). The time of a seek
 * ({@link isTimeJump}) is never coalesced; only the steady stream of playback ticks is.
 */
export function hostDeliveries(prev: PlayerInfo, next: PlayerInfo): HostDelivery[] {
  // The host's view of each snapshot (`snapshotForHost`), read in place: no copy per tick.
  const before = prev as unknown as Record<string, unknown>;
  const after = next as unknown as Record<string, unknown>;
  // A moved time sends the whole time group whatever else of it changed: its keys need no compare then (every tick).
  const timeChanged = !sameValue(before.currentTime, after.currentTime);
  if (timeChanged) {
    const tick = tickDeliveries(prev, next, before, after);
    if (tick) return tick;
  }
  const changed = new Set<string>();
  for (const k of HOST_KEYS) {
    if (k === 'currentTimeLastUpdated_' || (timeChanged && TIME_KEYS.has(k))) continue;
    if (!sameValue(before[k], after[k])) changed.add(k);
  }
  if (timeChanged) changed.add('currentTime');
  const out: HostDelivery[] = [];
  const jump = isTimeJump(prev, next);
  // Entering 1 carries the time group too: the host extrapolates getCurrentTime() from currentTimeLastUpdated_ while
  // playing, so a play after a long pause needs the fresh timestamp with its state.
  const timeMoved = TIME_GROUP.some((k) => changed.has(k)) || (next.playerState === 1 && prev.playerState !== 1);
  if (timeMoved) TIME_GROUP.forEach((k) => changed.add(k));
  if (VOLUME_GROUP.some((k) => changed.has(k))) VOLUME_GROUP.forEach((k) => changed.add(k));
  if (QUALITY_GROUP.some((k) => changed.has(k))) QUALITY_GROUP.forEach((k) => changed.add(k));

  const stateChanged = prev.playerState !== next.playerState;
  if (changed.size > 0) {
    const info: Record<string, unknown> = {};
    for (const k of HOST_KEYS) if (changed.has(k)) info[k] = after[k];
    out.push({ event: 'infoDelivery', info, coalesce: !jump && [...changed].every((k) => COALESCABLE.has(k)) });
  }
  if (stateChanged) out.push({ event: 'onStateChange', info: next.playerState, coalesce: false });
  if (prev.volume !== next.volume || prev.muted !== next.muted) {
    out.push({ event: 'onVolumeChange', info: { volume: next.volume, muted: next.muted }, coalesce: true });
  }
  if (prev.playbackRate !== next.playbackRate) out.push({ event: 'onPlaybackRateChange', info: next.playbackRate, coalesce: true });
  if (prev.playbackQuality !== next.playbackQuality) {
    out.push({ event: 'onPlaybackQualityChange', info: next.playbackQuality, coalesce: false });
  }
  if (prev.currentTime !== next.currentTime) out.push({ event: 'onVideoProgress', info: next.currentTime, coalesce: !jump });

  const apiBefore = captionsApiInfo(prev);
  const apiAfter = captionsApiInfo(next);
  if (!sameValue(apiBefore, apiAfter)) {
    out.push({ event: 'apiInfoDelivery', info: apiAfter, coalesce: false });
    if (!sameValue(apiBefore.namespaces, apiAfter.namespaces)) out.push({ event: 'onApiChange', info: null, coalesce: false });
  }
  return out;
}
