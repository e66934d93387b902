import type { AdsHostSettings } from './adsHostSettings';

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** A host name as `VIDFRAME_PRIVATE_EMBED_HOSTS` may list it: a DNS name, an IPv4 address or a bracketed IPv6 one. */
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])$/i;

/** `https://ads.example:8443` as its origin; `fail` for anything that is not a bare http(s) origin. */
function origin(name: string, text: string, fail: (message: string) => Error): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    throw fail(`${name} must be an origin like https://ads.example (scheme, host and port only), not "${text}".`);
  }
  return url.origin;
}

/**
 * The ads host's part of the configuration (`readConfig`, server/config.ts): `VIDFRAME_ADS_PORT` (default the main
 * `port` + 1, or a free port when the main port is one too), `VIDFRAME_ADS_ORIGIN`, `VIDFRAME_ADS_ALLOWED_ORIGINS`,
 * `VIDFRAME_PRIVATE_EMBED_HOSTS` (lower-cased); the id cookie is `Secure` when the configured origin is https. A
 * mistake throws what `fail` makes of its message (`readConfig` passes its ConfigError).
 */
export function readAdsHostSettings(env: NodeJS.ProcessEnv, port: number, fail: (message: string) => Error = (message) => new Error(message)): AdsHostSettings {
  const portText = env.VIDFRAME_ADS_PORT?.trim();
  let adsPort: number;
  if (portText) {
    adsPort = Number(portText);
    if (!/^\d+$/.test(portText) || adsPort > 65535) throw fail(`VIDFRAME_ADS_PORT must be a whole number from 0 to 65535, not "${portText}".`);
    if (adsPort !== 0 && adsPort === port) throw fail(`VIDFRAME_ADS_PORT must differ from PORT (${port}): the ads host is a second origin.`);
  } else {
    if (port === 65535) throw fail('PORT is 65535, so the ads host has no next port: set VIDFRAME_ADS_PORT.');
    adsPort = port === 0 ? 0 : port + 1;
  }

  const originText = env.VIDFRAME_ADS_ORIGIN?.trim();
  const adsOrigin = originText ? origin('VIDFRAME_ADS_ORIGIN', originText, fail) : undefined;
  const allowedOrigins = list(env.VIDFRAME_ADS_ALLOWED_ORIGINS).map((o) => origin('VIDFRAME_ADS_ALLOWED_ORIGINS', o, fail));

  const privateEmbedHosts = list(env.VIDFRAME_PRIVATE_EMBED_HOSTS).map((h) => h.toLowerCase());
  const badHost = privateEmbedHosts.find((h) => !HOST_NAME.test(h));
  if (badHost !== undefined) throw fail(`VIDFRAME_PRIVATE_EMBED_HOSTS must list host names (no scheme or port), not "${badHost}".`);

  return { port: adsPort, origin: adsOrigin, privateEmbedHosts, allowedOrigins, secureCookies: adsOrigin?.startsWith('https:') ?? false };
}
