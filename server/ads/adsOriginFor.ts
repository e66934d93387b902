import type { AdsHostSettings } from './adsHostSettings';

/** A host name as a Host header may carry it: a DNS name or IPv4 address, or an IPv6 address in brackets. */
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])$/i;

/**
 * The origin of the ads host the embed page tells the player to fetch the anonymous id from (spec §7, "GET anonymous
 * id from an ads host"): the configured `VIDFRAME_ADS_ORIGIN` when there is one, else the embed request's own host name
 * on the ads port, with the embed request's protocol — `http://localhost:8081` for an embed served at
 * `http://localhost:8080`. A second port of the same host name is another origin but the same site, so the id cookie
 * travels with a credentialed `fetch` without third-party cookies.
 *
 * `requestHostHeader` is the embed request's `Host` (`localhost:8080`, `[::1]:8080`); `protocol` is `http` or `https`
 * (Fastify's `request.protocol`; a trailing colon is accepted). A Host header that is not a plain host name gives
 * `undefined` (no ads host: the player treats the id as missing), so nothing a client sends is written into the page.
 */
export function adsOriginFor(requestHostHeader: string, protocol: string, settings: Pick<AdsHostSettings, 'port' | 'origin'>): string | undefined {
  if (settings.origin) return settings.origin;
  const scheme = protocol.replace(/:$/, '').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  const hostName = hostNameOf(requestHostHeader);
  if (!hostName || !Number.isInteger(settings.port) || settings.port < 1 || settings.port > 65535) return undefined;
  return `${scheme}://${hostName}:${settings.port}`;
}

/** `localhost:8080` → `localhost`, `[::1]:8080` → `[::1]`, lower case; `undefined` for anything else. */
function hostNameOf(hostHeader: string): string | undefined {
  const text = hostHeader.trim();
  const bracketEnd = text.startsWith('[') ? text.indexOf(']') + 1 : 0;
  const colon = text.indexOf(':', bracketEnd);
  const name = colon === -1 ? text : text.slice(0, colon);
  const port = colon === -1 ? '' : text.slice(colon + 1);
  if (port !== '' && !/^\d{1,5}$/.test(port)) return undefined;
  return HOST_NAME.test(name) ? name.toLowerCase() : undefined;
}
