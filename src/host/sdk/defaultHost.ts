/**
 * The embed origin a {@link Player} uses when its options name none. The `/iframe_api` script sets it to the origin it
 * was loaded from (so `<script src="https://player.example/iframe_api">` drives `https://player.example` embeds);
 * the ESM SDK falls back to the page's own origin. A page may also set `window.YTConfig = { host }` before creating
 * players, as with the public API.
 */
let configuredHost: string | undefined;

export function setDefaultHost(host: string | undefined): void {
  configuredHost = host;
}

export function defaultHost(win: Window | undefined = typeof window === 'undefined' ? undefined : window): string | undefined {
  const fromPage = (win as (Window & { YTConfig?: { host?: unknown } }) | undefined)?.YTConfig?.host;
  if (typeof fromPage === 'string') return fromPage;
  return configuredHost ?? win?.location.origin;
}
