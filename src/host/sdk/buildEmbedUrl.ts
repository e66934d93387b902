import { isValidVideoId } from './isValidVideoId';
import type { PlayerVars, PlayerVarValue } from './types';

export interface EmbedUrlParts {
  /** The embed's origin, e.g. `https://player.example` (a trailing slash or path is dropped). */
  host: string;
  videoId?: string;
  playerVars?: PlayerVars;
  /** The host page's origin, sent as `origin` so the embed accepts only this page (host-protocol §3.3). */
  pageOrigin: string;
  widgetId: number;
}

/** `1`/`0` for booleans, comma lists for arrays, strings as they are; `null`/`undefined` leave the parameter out. */
function paramValue(value: PlayerVarValue): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

/**
 * The iframe URL of host-protocol §2: `{host}/embed/{videoId}?enablejsapi=1&origin=…&widgetid=…&…playerVars`.
 * A malformed id is left out of the path (`/embed/?…`): the embed then reports error 2 to the host instead of the
 * URL carrying arbitrary text. `origin` must match the host page exactly (scheme, host and port): a caller's own
 * `playerVars.origin` wins, for hosts behind a proxy that know better.
 */
export function buildEmbedUrl({ host, videoId, playerVars = {}, pageOrigin, widgetId }: EmbedUrlParts): string {
  const params = new URLSearchParams();
  params.set('enablejsapi', '1');
  params.set('origin', pageOrigin);
  params.set('widgetid', String(widgetId));
  for (const [key, raw] of Object.entries(playerVars)) {
    const value = paramValue(raw);
    if (value !== undefined && key !== 'enablejsapi' && key !== 'widgetid') params.set(key, value);
  }
  const path = isValidVideoId(videoId) ? encodeURIComponent(videoId) : '';
  return `${normalizeHost(host)}/embed/${path}?${params.toString()}`;
}

/** `https://a.example:8443/anything` → `https://a.example:8443`; anything that is not an http(s) URL → undefined. */
export function normalizeHost(host: string): string;
export function normalizeHost(host: unknown): string | undefined;
export function normalizeHost(host: unknown): string | undefined {
  if (typeof host !== 'string') return undefined;
  try {
    const url = new URL(host);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
