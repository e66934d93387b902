/**
 * The functions a host may call (host-protocol §4, §5): the `apiInterface` of `initialDelivery`, split into the public
 * set every origin gets and the privileged set only origins the server trusts get (spec §5–§6: "the method is exposed
 * to that origin"). The host creates its methods only from this list, so a name missing here does not exist for it.
 */

/** Commands of the public IFrame Player API, exposed to every origin. */
export const PUBLIC_HOST_COMMANDS = [
  'playVideo',
  'pauseVideo',
  'stopVideo',
  'clearVideo',
  'seekTo',
  'mute',
  'unMute',
  'setVolume',
  'setPlaybackRate',
  'setPlaybackQuality',
  'setSize',
  'nextVideo',
  'previousVideo',
  'playVideoAt',
  'setLoop',
  'setShuffle',
  'setOption',
  'loadModule',
  'unloadModule',
  'loadVideoById',
  'cueVideoById',
  'loadVideoByUrl',
  'cueVideoByUrl',
  'loadPlaylist',
  'cuePlaylist',
  'setSphericalProperties',
  'addEventListener',
  'removeEventListener',
] as const;

/** Our own commands beyond the public API, exposed only to trusted origins (`config.args.trustedOrigins`). */
export const PRIVILEGED_HOST_COMMANDS = ['setCaptions'] as const;

/**
 * Getters, each with the snapshot key the host reads it from (`getPlayerState` → `playerState`, `isMuted` → `muted`).
 * Getters are never sent as commands: the host reads the cache the embed keeps filled.
 */
export const HOST_GETTERS = {
  getPlayerState: 'playerState',
  getCurrentTime: 'currentTime',
  getDuration: 'duration',
  getVideoData: 'videoData',
  getVideoBytesLoaded: 'videoBytesLoaded',
  getVideoBytesTotal: 'videoBytesTotal',
  getVideoStartBytes: 'videoStartBytes',
  getVideoLoadedFraction: 'videoLoadedFraction',
  getPlaybackQuality: 'playbackQuality',
  getAvailableQualityLevels: 'availableQualityLevels',
  getPlaybackRate: 'playbackRate',
  getAvailablePlaybackRates: 'availablePlaybackRates',
  getMediaReferenceTime: 'mediaReferenceTime',
  getVideoUrl: 'videoUrl',
  getVideoEmbedCode: 'videoEmbedCode',
  getVideoContentRect: 'videoContentRect',
  getProgressState: 'progressState',
  getPlaylist: 'playlist',
  getPlaylistIndex: 'playlistIndex',
  getPlaylistId: 'playlistId',
  isMuted: 'muted',
  getVolume: 'volume',
  getCaptionTracks: 'captionTracks',
  getSubtitlesUserSettings: 'subtitlesUserSettings',
  getSphericalProperties: 'sphericalProperties',
  getSize: 'size',
} as const;
export type HostSnapshotKey = (typeof HOST_GETTERS)[keyof typeof HOST_GETTERS] | 'currentTimeLastUpdated_';

/** Every snapshot key the host caches: one per getter, plus `currentTimeLastUpdated_` (host-protocol §5). */
export const HOST_SNAPSHOT_KEYS: readonly HostSnapshotKey[] = [...Object.values(HOST_GETTERS), 'currentTimeLastUpdated_'];

const has = (list: readonly string[], name: string) => list.includes(name);

/** Whether `func` may run for a caller; `trusted` says whether the caller's origin is trusted. Unknown names: false. */
export function isHostMethodExposed(func: string, trusted: boolean): boolean {
  return has(PUBLIC_HOST_COMMANDS, func) || (trusted && has(PRIVILEGED_HOST_COMMANDS, func));
}

/** Whether an origin is one the server configuration trusts (exact match of scheme, host and port). */
export const isTrustedOrigin = (origin: string | null | undefined, trustedOrigins: readonly string[]): boolean =>
  typeof origin === 'string' && origin !== 'null' && trustedOrigins.includes(origin);

/** The `apiInterface` for a caller: every command it may call, then every getter. */
export function hostApiInterface(trusted: boolean): string[] {
  return [...PUBLIC_HOST_COMMANDS, ...(trusted ? PRIVILEGED_HOST_COMMANDS : []), ...Object.keys(HOST_GETTERS)];
}
