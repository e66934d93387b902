/** Video ids are 11 characters of `[A-Za-z0-9_-]` (host-protocol §2); a host checks before building a URL. */
export function isValidVideoId(videoId: unknown): videoId is string {
  return typeof videoId === 'string' && /^[A-Za-z0-9_-]{11}$/.test(videoId);
}
