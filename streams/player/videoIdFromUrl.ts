import { isValidVideoId } from '../config/playerConfig';

/**
 * Spec §5: a video id is taken from a media URL path of the form `/v/{id}`, `/e/{id}` or `/embed/{id}`
 * (absolute or root-relative URL, any query). Anything else, or an id that is not 11 `[A-Za-z0-9_-]`, is `null`.
 */
export function videoIdFromUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > 2000) return null;
  let path: string;
  try {
    path = new URL(url, 'http://x.invalid/').pathname;
  } catch {
    return null;
  }
  const m = /\/(?:v|e|embed)\/([^/?#]+)\/?$/.exec(path);
  return m && isValidVideoId(m[1]) ? m[1] : null;
}
