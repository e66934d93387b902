import type { PlayerInfo } from '../player/types';
import { captionsApiInfo, snapshotForHost } from './snapshotForHost';

/** One message the embed owes the host for a snapshot change, before the envelope is added. */
export interface HostDelivery {
  event: string;
  info: unknown;
  /** True when a burst of these may be merged (see `coalesceDeliveries`); never for a state change. */
  coalesce: boolean;
}

/** Keys sent together whenever time moves or a seek completes (host-protocol §5). */
const TIME_GROUP = ['currentTime', 'currentTimeLastUpdated_', 'playbackRate', 'mediaReferenceTime', 'videoBytesLoaded', 'videoLoadedFraction', 'progressState'];
const VOLUME_GROUP = ['volume', 'muted'];
const QUALITY_GROUP = ['playbackQuality', 'availableQualityLevels'];
/** Keys whose changes alone may be coalesced in a burst. */
const COALESCABLE = new Set([...TIME_GROUP, ...VOLUME_GROUP]);

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * What the host must receive when the snapshot goes from `prev` to `next` (host-protocol §5), in order:
 * 1. one `infoDelivery` with every changed key, widened to its group (time → the whole time group, volume ↔ muted,
 *    quality ↔ available levels), **before** any event, so the host's getters already answer the new values;
 * 2. `onStateChange`, then `onVolumeChange {volume, muted}`, `onPlaybackRateChange`, `onPlaybackQualityChange`,
 *    `onVideoProgress` (current time);
 * 3. `apiInfoDelivery` when caption tracks or the shown track change, then `onApiChange` when the module appeared or left.
 * Events are listed whether or not the host subscribed; the protocol filters them. No change → `[]`.
 */
export function hostDeliveries(prev: PlayerInfo, next: PlayerInfo): HostDelivery[] {
  const before = snapshotForHost(prev);
  const after = snapshotForHost(next);
  const changed = new Set(Object.keys(after).filter((k) => !same(before[k], after[k])));
  const out: HostDelivery[] = [];
  const timeMoved = TIME_GROUP.some((k) => changed.has(k));
  if (timeMoved) TIME_GROUP.forEach((k) => changed.add(k));
  if (VOLUME_GROUP.some((k) => changed.has(k))) VOLUME_GROUP.forEach((k) => changed.add(k));
  if (QUALITY_GROUP.some((k) => changed.has(k))) QUALITY_GROUP.forEach((k) => changed.add(k));

  const stateChanged = prev.playerState !== next.playerState;
  if (changed.size > 0) {
    const info: Record<string, unknown> = {};
    for (const k of Object.keys(after)) if (changed.has(k)) info[k] = after[k];
    out.push({ event: 'infoDelivery', info, coalesce: [...changed].every((k) => COALESCABLE.has(k)) });
  }
  if (stateChanged) out.push({ event: 'onStateChange', info: next.playerState, coalesce: false });
  if (prev.volume !== next.volume || prev.muted !== next.muted) {
    out.push({ event: 'onVolumeChange', info: { volume: next.volume, muted: next.muted }, coalesce: true });
  }
  if (prev.playbackRate !== next.playbackRate) out.push({ event: 'onPlaybackRateChange', info: next.playbackRate, coalesce: true });
  if (prev.playbackQuality !== next.playbackQuality) {
    out.push({ event: 'onPlaybackQualityChange', info: next.playbackQuality, coalesce: false });
  }
  if (prev.currentTime !== next.currentTime) out.push({ event: 'onVideoProgress', info: next.currentTime, coalesce: true });

  const apiBefore = captionsApiInfo(prev);
  const apiAfter = captionsApiInfo(next);
  if (!same(apiBefore, apiAfter)) {
    out.push({ event: 'apiInfoDelivery', info: apiAfter, coalesce: false });
    if (!same(apiBefore.namespaces, apiAfter.namespaces)) out.push({ event: 'onApiChange', info: null, coalesce: false });
  }
  return out;
}
