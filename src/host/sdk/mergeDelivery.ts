import type { PlayerInfoCache } from './types';

/**
 * `infoDelivery`: the embed sends the keys that changed; the host merges them key by key into its cache. A key sent
 * with a new value replaces the old one whole (objects such as `videoData` or `progressState` are not deep-merged:
 * the embed always sends them complete). A value that is not a plain object is ignored and the cache is returned
 * unchanged. The result is a new object when something changed, so readers can compare by reference.
 */
export function mergeDelivery(cache: PlayerInfoCache, info: unknown): PlayerInfoCache {
  if (!info || typeof info !== 'object' || Array.isArray(info)) return cache;
  const entries = Object.entries(info as Record<string, unknown>).filter(([key]) => key !== '__proto__');
  if (entries.length === 0) return cache;
  const next: PlayerInfoCache = { ...cache };
  for (const [key, value] of entries) next[key] = value;
  return next;
}
