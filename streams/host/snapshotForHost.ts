import type { PlayerInfo } from '../player/types';
import { CAPTIONS_MODULE_OPTIONS, captionDisplaySettingsOf } from '../player/captionSettings';
import { HOST_SNAPSHOT_KEYS } from './hostApiInterface';

/**
 * The host's view of a player snapshot (host-protocol §5): exactly the keys the host caches, one per getter of the
 * `apiInterface` plus `currentTimeLastUpdated_`; engine-only fields (`loop`, `shuffle`, …) stay out.
 */
export function snapshotForHost(info: PlayerInfo): Record<string, unknown> {
  const cached = hostSnapshots.get(info);
  if (cached) return cached;
  const out: Record<string, unknown> = {};
  for (const key of HOST_SNAPSHOT_KEYS) out[key] = info[key];
  hostSnapshots.set(info, out);
  return out;
}

/**
 * Each snapshot's host view, built once: the diff of every playback tick reads the previous snapshot's view again.
 * Snapshots are read-only, and so is what this returns.
 */
const hostSnapshots = new WeakMap<PlayerInfo, Record<string, unknown>>();

/**
 * The captions module as `apiInfoDelivery` describes it (host-protocol §5): `{namespaces: ['captions'], captions:
 * {options, tracklist, track, fontSize, displaySettings}}` while the video has caption tracks, `{namespaces: []}`
 * otherwise. Feeds the host's `getOptions()` and `getOption('captions', …)`; `reload` is an action, it has no value.
 */
export function captionsApiInfo(info: PlayerInfo): Record<string, unknown> {
  // The same three values (shared between the snapshots of one model, see `buildPlayerInfo`) give the same object, so
  // the comparisons made on every playback tick (`sameValue`) are one `===`.
  const last = lastApiInfo;
  if (last && last.tracks === info.captionTracks && last.track === info.captionTrack && last.settings === info.subtitlesUserSettings) return last.api;
  const api = buildCaptionsApiInfo(info);
  lastApiInfo = { tracks: info.captionTracks, track: info.captionTrack, settings: info.subtitlesUserSettings, api };
  return api;
}

let lastApiInfo: { tracks: unknown; track: unknown; settings: unknown; api: Record<string, unknown> } | null = null;

function buildCaptionsApiInfo(info: PlayerInfo): Record<string, unknown> {
  if (!info.captionTracks?.length) return { namespaces: [] };
  const displaySettings = captionDisplaySettingsOf(info.subtitlesUserSettings);
  return {
    namespaces: ['captions'],
    captions: {
      options: [...CAPTIONS_MODULE_OPTIONS],
      tracklist: info.captionTracks,
      track: info.captionTrack ?? {},
      fontSize: displaySettings.fontSizeIncrement,
      displaySettings,
    },
  };
}
