/** What a `clickhouse://` (or `clickhouse+http(s)://`, `http(s)://`) store URL names. */
export interface ClickHouseTarget {
  /** The HTTP interface, without credentials or path: `http://host:8123`. */
  httpUrl: string;
  database: string;
  username?: string;
  password?: string;
}

/** When the URL names no database. */
export const DEFAULT_DATABASE = 'vidframe';

const URL_FORM = 'clickhouse://[user[:password]@]host[:port]/database (or clickhouse+http://, clickhouse+https://, http://, https://)';
const SCHEMES: Record<string, { http: 'http:' | 'https:'; port: string }> = {
  'clickhouse:': { http: 'http:', port: '8123' },
  'clickhouse+http:': { http: 'http:', port: '8123' },
  'clickhouse+https:': { http: 'https:', port: '8443' },
  'http:': { http: 'http:', port: '80' },
  'https:': { http: 'https:', port: '443' },
};

/** Parses and checks a store URL; throws an error that names the expected form (never the password). */
export function parseClickHouseUrl(url: string): ClickHouseTarget {
  const fail = (why: string): never => {
    throw new Error(`ClickHouse store URL ${JSON.stringify(redact(url))}: ${why}; expected ${URL_FORM}`);
  };
  if (typeof url !== 'string' || url.trim() === '') fail('empty');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('not a URL');
  }
  const scheme = SCHEMES[parsed.protocol];
  if (!scheme) return fail(`unknown scheme ${parsed.protocol}`);
  if (!parsed.hostname) fail('no host');
  if (parsed.search || parsed.hash) fail('it takes no query string or fragment');
  // `new URL` drops a scheme's default port (80 for http:); clickhouse:// defaults to the HTTP interface's 8123.
  const port = parsed.port || scheme.port;
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) fail(`bad port ${port}`);
  const decode = (text: string, what: string): string => {
    try {
      return decodeURIComponent(text);
    } catch {
      return fail(`malformed %-escape in the ${what}`);
    }
  };
  const [segment, ...moreSegments] = parsed.pathname.split('/').filter(Boolean);
  if (moreSegments.length > 0) fail('the path must be one database name');
  const database = segment === undefined ? DEFAULT_DATABASE : decode(segment, 'database name');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) fail(`database name ${JSON.stringify(database)} is not a plain identifier`);
  const host = parsed.hostname.includes(':') && !parsed.hostname.startsWith('[') ? `[${parsed.hostname}]` : parsed.hostname;
  return {
    httpUrl: `${scheme.http}//${host}:${port}`,
    database,
    ...(parsed.username ? { username: decode(parsed.username, 'user name') } : {}),
    ...(parsed.password ? { password: decode(parsed.password, 'password') } : {}),
  };
}

const redact = (url: unknown): string => (typeof url === 'string' ? url.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@') : String(url));
