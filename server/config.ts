import type { AppOptions } from './app';
import { DEFAULT_ADMIN_HOSTS } from './admin/adminGuard';
import { COLLECTOR_DEFAULT_RETENTION_DAYS, COLLECTOR_RATE_LIMIT_MAX, COLLECTOR_RATE_LIMIT_WINDOW_MS } from './collector/limits';
import { readAdsHostSettings } from './ads/readAdsHostSettings';
import type { AdsHostSettings } from './ads/adsHostSettings';
import { parseStateDatabaseSetting } from './db/stateDatabaseSetting';

/** A configuration mistake: `npm start` prints it and exits 2. */
export class ConfigError extends Error {}

/** An API key as it may appear in a page and a query string. */
function apiKeyOf(value: string | undefined): string | undefined {
  const key = value?.trim();
  if (!key) return undefined;
  if (!/^[A-Za-z0-9._-]{8,200}$/.test(key)) throw new ConfigError('VIDFRAME_API_KEY must be 8 to 200 letters, digits, dots, dashes or underscores.');
  return key;
}

/** A shared secret of at least 32 characters, or undefined when unset. */
function secretOf(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < 32) throw new ConfigError(`${name} must be at least 32 characters.`);
  return value;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * Every environment variable the server reads, parsed and validated once (README, "Configuration"):
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | `PORT`, `HOST` | where to listen | `8080`, `localhost` |
 * | `VIDFRAME_DATA_DIR` | the data folder (database, secrets) | `.data` |
 * | `VIDFRAME_LIBRARY_DIR` | the library of ingested videos (`entries/`, `videos/`), watched while the server runs | `<data folder>/library` |
 * | `VIDFRAME_STORE` | `sqlite`, `sqlite:/file`, `clickhouse://host:8123/db` | `sqlite` |
 * | `VIDFRAME_DB` | accounts, sessions, throttles, platform state: `sqlite` or `postgres://user:pass@host:5432/db` | `sqlite` |
 * | `VIDFRAME_ADMIN_TOKEN` | the admin token (≥ 16 chars) | on PostgreSQL one kept in the database; else generated into the data folder |
 * | `VIDFRAME_ADMIN_HOSTS` | host names the admin routes answer to | `localhost,127.0.0.1,[::1]` + `HOST` |
 * | `VIDFRAME_STREAM_SECRET` | the secret every token key derives from, shared by several servers (≥ 32 chars) | on PostgreSQL one kept in the database; else key files in the data folder |
 * | `VIDFRAME_STREAM_SECRET_PREVIOUS` | the shared key it replaced, kept verifying its live tokens | none |
 * | `VIDFRAME_RATE_LIMIT` | `max/windowMs` for log requests per client address, or `off` (counted across servers on PostgreSQL) | `1200/60000` |
 * | `VIDFRAME_TRUST_PROXY` | whose `X-Forwarded-For` to believe: `true`, a hop count, or addresses/CIDRs | none |
 * | `VIDFRAME_RETENTION_DAYS` | delete events older than this; `0` keeps all | `90` |
 * | `VIDFRAME_TRUSTED_ORIGINS` | host origins given the privileged host methods | none |
 * | `VIDFRAME_TEST_HOOKS` | `1` turns on the collector's wipe and fault routes (and the ads host's scripted answers) | off |
 * | `VIDFRAME_ADS_PORT` | the ads host's port (the anonymous id's second origin); `0` = a free port | `PORT` + 1 |
 * | `VIDFRAME_ADS_ORIGIN` | the ads host's origin as the embed must call it (behind a proxy) | the embed's host name on the ads port |
 * | `VIDFRAME_ADS_ALLOWED_ORIGINS` | embed origins the ads host answers besides the main server's own (behind a proxy) | none |
 * | `VIDFRAME_PRIVATE_EMBED_HOSTS` | host names serving the privacy-enhanced embed (no anonymous id) | none |
 * | `VIDFRAME_EDUCATION_EMBED_HOSTS` | host names serving the education embed (no anonymous id) | none |
 * | `VIDFRAME_API_KEY` | the API key handed to the embed and checked when a request names one | `vidframe-reference-api-key` |
 * | `VIDFRAME_DEMO_ACCOUNTS` | `0` does not create the demo accounts (Ada, Grace) | created |
 * | `VIDFRAME_SECURE_COOKIES` | `1`: session cookies `SameSite=None; Secure` (https, framed by other sites) | off |
 * | `VIDFRAME_ACCESS_TOKEN_SECRET` | an access-token key shared by several servers (≥ 32 chars) | derived from the shared secret, else a key file |
 * | `VIDFRAME_ACCESS_TOKEN_SECRET_PREVIOUS` | the access-token key it replaced, still verifying (≥ 32 chars) | none |
 * | `VIDFRAME_DEV` | `1`: development, the pages from source through Vite with hot reload (`npm run dev` passes `--dev`) | off |
 * | `LOG` | `0` turns off the access log (a JSON line per request and reply); start, stop and errors are logged either way | on |
 */
export function readConfig(env: NodeJS.ProcessEnv): { port: number; host: string; app: Omit<AppOptions, 'rootDir'>; ads: AdsHostSettings } {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a whole number from 0 to 65535, not "${env.PORT}".`);
  const host = env.HOST ?? 'localhost';

  let rateLimit: AppOptions['rateLimit'] = { max: COLLECTOR_RATE_LIMIT_MAX, windowMs: COLLECTOR_RATE_LIMIT_WINDOW_MS };
  const rate = env.VIDFRAME_RATE_LIMIT?.trim();
  if (rate === 'off') rateLimit = false;
  else if (rate) {
    const match = /^(\d+)\/(\d+)$/.exec(rate);
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1)
      throw new ConfigError(`VIDFRAME_RATE_LIMIT must be max/windowMs (e.g. 300/60000) or off, not "${rate}".`);
    rateLimit = { max: Number(match[1]), windowMs: Number(match[2]) };
  }

  const retentionText = env.VIDFRAME_RETENTION_DAYS?.trim();
  const retentionDays = retentionText ? Number(retentionText) : COLLECTOR_DEFAULT_RETENTION_DAYS;
  if (!Number.isInteger(retentionDays) || retentionDays < 0)
    throw new ConfigError(`VIDFRAME_RETENTION_DAYS must be a whole number of days ≥ 0, not "${retentionText}".`);

  // The listening host as a Host header names it: an IPv6 address in brackets.
  const hostName = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const adminHosts = env.VIDFRAME_ADMIN_HOSTS
    ? list(env.VIDFRAME_ADMIN_HOSTS)
    : [...DEFAULT_ADMIN_HOSTS, ...(DEFAULT_ADMIN_HOSTS.includes(hostName as never) ? [] : [hostName])];

  const trust = env.VIDFRAME_TRUST_PROXY?.trim();
  const trustProxy = !trust || trust === 'false' ? false : trust === 'true' ? true : /^\d+$/.test(trust) ? Number(trust) : trust;
  if (typeof trustProxy === 'string' && !/^[0-9a-fA-F:./, ]+$/.test(trustProxy)) {
    throw new ConfigError(`VIDFRAME_TRUST_PROXY must be true, a hop count or comma-separated addresses/CIDRs, not "${trust}".`);
  }

  const devText = env.VIDFRAME_DEV?.trim();
  if (devText && devText !== '0' && devText !== '1')
    throw new ConfigError(`VIDFRAME_DEV must be 1 (development: pages from source, hot reload) or 0, not "${devText}".`);

  const log = env.LOG?.trim();
  if (log && log !== '0' && log !== '1') throw new ConfigError(`LOG must be 1 (the access log, the default) or 0 (no access log), not "${log}".`);

  return {
    port,
    host,
    ads: readAdsHostSettings(env, port, (message) => new ConfigError(message)),
    app: {
      logger: true,
      logRequests: log !== '0',
      dev: devText === '1',
      apiKey: apiKeyOf(env.VIDFRAME_API_KEY),
      educationEmbedHosts: list(env.VIDFRAME_EDUCATION_EMBED_HOSTS),
      seedDemoAccounts: env.VIDFRAME_DEMO_ACCOUNTS?.trim() !== '0',
      secureCookies: env.VIDFRAME_SECURE_COOKIES?.trim() === '1',
      accessTokenSecret: secretOf('VIDFRAME_ACCESS_TOKEN_SECRET', env.VIDFRAME_ACCESS_TOKEN_SECRET),
      accessTokenSecretPrevious: secretOf('VIDFRAME_ACCESS_TOKEN_SECRET_PREVIOUS', env.VIDFRAME_ACCESS_TOKEN_SECRET_PREVIOUS),
      dataDir: env.VIDFRAME_DATA_DIR,
      libraryDir: env.VIDFRAME_LIBRARY_DIR?.trim() || undefined,
      testHooks: env.VIDFRAME_TEST_HOOKS === '1',
      trustedOrigins: list(env.VIDFRAME_TRUSTED_ORIGINS),
      store: env.VIDFRAME_STORE,
      database: parseStateDatabaseSetting(env.VIDFRAME_DB, (message) => new ConfigError(message)),
      adminToken: env.VIDFRAME_ADMIN_TOKEN,
      adminHosts,
      streamSecret: env.VIDFRAME_STREAM_SECRET,
      streamSecretPrevious: env.VIDFRAME_STREAM_SECRET_PREVIOUS,
      rateLimit,
      retentionDays,
      trustProxy,
    },
  };
}
