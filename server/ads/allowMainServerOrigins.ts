import { hostname, networkInterfaces } from 'node:os';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_HOSTS = ['', '0.0.0.0', '::', '[::]'];

export interface MainServerOrigins {
  /** The main server's listening host (`HOST`): `localhost`, an address, or a wildcard (`0.0.0.0`, `::`). */
  host: string;
  /** The port the main server really listens on. */
  port: number;
  /** Further embed origins allowed as they are (`VIDFRAME_ADS_ALLOWED_ORIGINS`: the embed's public origins behind a proxy). */
  extraOrigins?: readonly string[];
}

/**
 * The ads host's `allowedOrigin`: the origins the main server serves the embed from, and only those. An origin passes
 * when it is `http:` or `https:` on the main server's port with one of the main server's host names — the loopback names
 * when it listens on loopback, its `HOST`, and when it listens on every interface (`0.0.0.0`, `::`) also this
 * machine's name and interface addresses — or when it is one of `extraOrigins`. `null` (a sandboxed or opaque origin)
 * never passes.
 */
export function allowMainServerOrigins({ host, port, extraOrigins = [] }: MainServerOrigins): (origin: string) => boolean {
  const listening = (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host).toLowerCase();
  const names = new Set<string>([listening]);
  const loopback = LOOPBACK_NAMES.includes(listening) || listening.startsWith('127.');
  if (loopback || WILDCARD_HOSTS.includes(listening)) LOOPBACK_NAMES.forEach((name) => names.add(name));
  if (WILDCARD_HOSTS.includes(listening)) {
    names.add(hostname().toLowerCase());
    for (const addresses of Object.values(networkInterfaces())) {
      for (const { address, family } of addresses ?? []) names.add(family === 'IPv6' ? `[${address.replace(/%.*/s, '').toLowerCase()}]` : address);
    }
  }
  const extra = new Set(extraOrigins.map(normalOrigin).filter((o): o is string => o !== undefined));
  return (origin) => {
    const url = parseOrigin(origin);
    if (!url) return false;
    if (extra.has(url.origin)) return true;
    const urlPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    return urlPort === port && names.has(url.hostname);
  };
}

/** An `Origin` header as a URL: only a serialized http(s) origin (no path, query or credentials). */
function parseOrigin(origin: string): URL | undefined {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin.toLowerCase() ? url : undefined;
  } catch {
    return undefined;
  }
}

const normalOrigin = (origin: string) => {
  try {
    return new URL(origin).origin;
  } catch {
    return undefined;
  }
};
