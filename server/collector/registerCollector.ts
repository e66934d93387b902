import { createHash } from 'node:crypto';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { HttpError } from '../http/errors';
import type { Metrics } from '../health/createMetrics';
import { registerAdminApi } from './admin/registerAdminApi';
import { registerErrorRoute } from './errors/registerErrorRoute';
import { registerPingRoutes } from './pings/registerPingRoutes';
import { type GlobalConfig, registerIngestRoutes } from './ingest/registerIngestRoutes';
import type { IdentityTokens } from '../tokens/identityTokens';
import type { VerifyApiRequest } from '../api/verifyApiRequest';
import { COLLECTOR_RATE_LIMIT_MAX, COLLECTOR_RATE_LIMIT_PER_STREAM_MAX, COLLECTOR_RATE_LIMIT_WINDOW_MS, ERROR_REPORT_RATE_LIMIT_MAX } from './limits';
import { importLegacyJsonl } from './importLegacyJsonl';
import { startRetention } from './retention';
import type { CollectorStore } from './store';
import type { StreamTokens } from '../tokens/streamTokens';
import { createFaultInjector } from './testHooks/faultInjector';

export type { GlobalConfig } from './ingest/registerIngestRoutes';

export interface RateLimitSettings {
  /** Log requests with a verified stream token per window per client address (and pings per address). */
  max: number;
  windowMs: number;
  /** Log requests with a verified stream token per window per stream ({@link COLLECTOR_RATE_LIMIT_PER_STREAM_MAX}). */
  perStreamMax?: number;
  /** Log requests without a valid stream token per window per address (by default `max`, in a bucket of their own). */
  unverifiedMax?: number;
  /** Error reports per window per address. */
  errorReportsMax?: number;
}

export interface CollectorOptions {
  store: CollectorStore;
  streamTokens: StreamTokens;
  metrics: Metrics;
  /** Guards the admin API (bearer token and Host check). */
  adminGuard: onRequestAsyncHookHandler;
  /** What `log_event` answers with; `false` for no `globalConfigGroup`. */
  globalConfig?: GlobalConfig | false;
  /** Write rate limits; `false` turns them off. */
  rateLimit?: RateLimitSettings | false;
  /** Events received more than this many days ago are deleted in the background; 0 keeps everything. */
  retentionDays?: number;
  /** Server clock (ms since the epoch). */
  now?: () => number;
  /** The data folder, where a JSONL store of an earlier version may wait to be imported (in the background). */
  dataDir?: string;
  /**
   * Whether the routes that change the collector from outside (`DELETE /collector/api/events`, `/collector/api/faults`)
   * exist. Off by default, so a deployed server cannot be wiped or broken by a request.
   */
  testHooks?: boolean;
  /** The API's request-validation step that log requests go through too (bearer, anti-forgery field, delegation). */
  verifyApiRequest: VerifyApiRequest;
  tokens: IdentityTokens;
}

const DEFAULT_GLOBAL_CONFIG: GlobalConfig = {
  hotConfig: { loggingHotConfig: { eventLoggingConfig: { enabled: true, logEventsPerRequestLimit: 100 } } },
  coldConfig: { configData: 'vidframe-reference-server', pageLoggingConfig: { compressionEnabled: true } },
};

const hashOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url');

/**
 * The collector, as an encapsulated Fastify plugin: its body parsing and error format apply to its own
 * routes only. It wires its parts, each in its folder: `ingest/` (log_event, video_stats), `errors/` (`/error_204`),
 * `pings/` (the ping beacons `/api/stats/playback|watchtime`), `admin/` (the admin API), `testHooks/`, and the retention job; the store is chosen by `openCollectorStore`.
 * `GET /generate_204` is the network probe (204, no body).
 */
export async function registerCollector(app: FastifyInstance, opts: CollectorOptions): Promise<void> {
  const {
    store,
    streamTokens,
    metrics,
    adminGuard,
    globalConfig = DEFAULT_GLOBAL_CONFIG,
    rateLimit = { max: COLLECTOR_RATE_LIMIT_MAX, windowMs: COLLECTOR_RATE_LIMIT_WINDOW_MS },
    retentionDays = 0,
    now = Date.now,
    testHooks = false,
    dataDir,
    verifyApiRequest,
    tokens,
  } = opts;
  const faults = createFaultInjector();

  // Field names as the client's config store (streams/storage/createConfigStore) reads them.
  const globalConfigGroup = globalConfig
    ? {
        hotConfigGroup: globalConfig.hotConfig,
        hotHashData: hashOf(globalConfig.hotConfig),
        coldConfigGroup: globalConfig.coldConfig,
        coldHashData: hashOf(globalConfig.coldConfig),
        rawColdConfigGroup: { configData: hashOf({ cold: globalConfig.coldConfig }) },
      }
    : undefined;

  const tooMany = (what: string) => (_request: unknown, context: { after: string; max: number }) => {
    metrics.collectorRequestsRefused.inc({ reason: 'rate' });
    return new HttpError(429, `Too many ${what} (${context.max} per window): retry after ${context.after}`);
  };
  // Log requests: unverified junk per address apart from verified viewers, who count per stream and per address
  // (`ingest/logRateLimits.ts`). Pings and error reports carry no stream token: they count per client address
  // (`request.ip`: the peer, or the address the trusted proxies name, see VIDFRAME_TRUST_PROXY), each in its bucket.
  const logRateLimit = rateLimit && {
    perStreamMax: rateLimit.perStreamMax ?? COLLECTOR_RATE_LIMIT_PER_STREAM_MAX,
    perAddressMax: rateLimit.max,
    unverifiedMax: rateLimit.unverifiedMax ?? rateLimit.max,
    windowMs: rateLimit.windowMs,
  };
  const pingRateLimit = rateLimit && {
    max: rateLimit.max,
    timeWindow: rateLimit.windowMs,
    errorResponseBuilder: tooMany('pings'),
  };
  const errorRateLimit = rateLimit && {
    max: rateLimit.errorReportsMax ?? ERROR_REPORT_RATE_LIMIT_MAX,
    timeWindow: rateLimit.windowMs,
    errorResponseBuilder: tooMany('error reports'),
  };

  await app.register(async (scope) => {
    // Every body arrives as raw bytes; the handlers decide what is acceptable (errors answer through the app's handler).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    registerIngestRoutes(scope, { store, streamTokens, metrics, faults, globalConfigGroup, rateLimit: logRateLimit, now, verifyApiRequest, tokens });
    registerErrorRoute(scope, { store, rateLimit: errorRateLimit, now });
    registerPingRoutes(scope, { store, rateLimit: pingRateLimit, now });
    registerAdminApi(scope, { store, guard: adminGuard, faults, testHooks, metrics });
    scope.get('/generate_204', async (_request, reply) => reply.code(204).header('cache-control', 'no-store').send());
  });

  const retention = retentionDays > 0 ? startRetention(store, { retentionDays, now, log: app.log }) : undefined;
  let stopping = false;
  const legacyImport =
    dataDir === undefined
      ? Promise.resolve()
      : importLegacyJsonl(store, dataDir, { log: app.log, shouldStop: () => stopping }).then(
          () => undefined,
          (error) => app.log.error({ err: error }, 'collector: importing the JSONL store of an earlier version failed; it is left in place'),
        );
  // Graceful stop: Fastify has finished the requests in flight when onClose runs; then the store commits and closes.
  app.addHook('onClose', async () => {
    stopping = true;
    retention?.stop();
    await legacyImport;
    await store.close();
  });
}
