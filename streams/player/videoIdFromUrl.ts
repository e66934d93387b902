import { TEXT_INPUT_MAX_CHARS } from '../timing';

/**
 * Spec §5: the video id in a media URL path `/v/{id}`, `/e/{id}` or `/embed/{id}`, absolute or root-relative, followed
 * by the end of the path, `/`, `?`, `&` (the old `/v/{id}&hl=en` form) or `#`. Anything else, or an id that is not
 * 11 characters of `[A-Za-z0-9_-]`, is `null`. The one rule for the views, the engine and the host protocol.
 */
export function videoIdFromUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > TEXT_INPUT_MAX_CHARS) return null;
  const queryOrFragment = url.search(/[?#]/);
  const path = queryOrFragment === -1 ? url : url.slice(0, queryOrFragment);
  return /(?:^|\/)(?:v|e|embed)\/([A-Za-z0-9_-]{11})(?=$|[/&])/.exec(path)?.[1] ?? null;
}
