import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyRateLimit from '@fastify/rate-limit';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createAdminGuard } from './admin/adminGuard';
import { loadOrCreateAdminToken } from './admin/adminToken';
import { builtPagePath, replyNotBuilt } from './builtPages';
import { loadCatalog } from './catalog';
import { registerDashboard } from './collector/dashboard/registerDashboard';
import { openCollectorStore } from './collector/openCollectorStore';
import { registerCollector, type RateLimitSettings } from './collector/registerCollector';
import type { CollectorStore } from './collector/store';
import { createStreamTokens } from './collector/streamTokens';
import { errorBody, replyWithError } from './errors';
import { createMetrics } from './metrics/createMetrics';
import { registerMetrics } from './metrics/registerMetrics';
import { embedHelmet, registerSecurityHeaders } from './security/securityHeaders';
import { registerIframeApiRoute } from './iframeApiRoute';
import { renderEmbedPage, readEmbedTemplate, type EmbedTemplate } from './embedPage';
import { playerResponseFor } from './playerResponse';
import { registerPlaylistRoute } from './playlistRoute';

export interface AppOptions {
  /** The project folder the defaults below are relative to (`npm start` passes it; the default is the working folder). */
  rootDir?: string;
  /** The Vite build output (`npm run build`). */
  distDir?: string;
  /** The sample media and its `catalog.json`. */
  mediaDir?: string;
  /** Where the collector keeps what it receives. */
  dataDir?: string;
  logger?: boolean;
  /** Turn on the collector's test routes (wipe, fault injection): for tests and `VIDFRAME_TEST_HOOKS=1`. */
  testHooks?: boolean;
  /**
   * Host origins (exact `scheme://host:port`) that get the privileged host methods (issue 4); `npm start` reads them
   * from `VIDFRAME_TRUSTED_ORIGINS` (comma-separated). Default: none.
   */
  trustedOrigins?: readonly string[];
  /** The collector's store: a `VIDFRAME_STORE` value (`sqlite`, `sqlite:/file`, `clickhouse://…`) or a store. */
  store?: string | CollectorStore;
  /** The admin token; generated into `{dataDir}/secrets/admin-token` when absent. */
  adminToken?: string;
  /** Host names the admin routes answer to. */
  adminHosts?: readonly string[];
  /** A stream-token key shared by several collectors; otherwise a key file in the data folder. */
  streamSecret?: string;
  /** The shared key `streamSecret` replaced: still verifies the tokens it signed. */
  streamSecretPrevious?: string;
  /** Write rate limits of the collector; `false` for none. */
  rateLimit?: RateLimitSettings | false;
  /** Delete events older than this many days in the background; 0 (the default here) keeps everything. */
  retentionDays?: number;
  /**
   * Which proxies' `X-Forwarded-For` names the client (rate limits are per client address): `false` (the default:
   * the peer is the client), `true` (any), a hop count, or comma-separated addresses / CIDRs (`VIDFRAME_TRUST_PROXY`).
   */
  trustProxy?: boolean | number | string;
  /** The collector's clock (ms since the epoch); tests fix it. */
  now?: () => number;
}

/** The app, and what `npm start` prints or a test reads. */
export type VidFrameApp = FastifyInstance & { vidframe: { adminToken: string; adminTokenSource: 'env' | 'file' | 'generated'; store: CollectorStore } };

const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

export { errorBody };

/**
 * The reference server: the embed page with its configuration inlined, the demo host page, the sample media with
 * range requests, and the reference API endpoints. Every URL it writes into a page is root-relative, so it works
 * unchanged behind a TLS-terminating proxy or a CDN under another host name.
 */
export async function buildApp({
  rootDir = process.cwd(),
  distDir = resolve(rootDir, 'dist'),
  mediaDir = resolve(rootDir, 'media'),
  dataDir = resolve(rootDir, '.data'),
  logger = false,
  testHooks = false,
  trustedOrigins = [],
  store: storeOption,
  adminToken: adminTokenOption,
  adminHosts,
  streamSecret,
  streamSecretPrevious,
  rateLimit,
  retentionDays = 0,
  trustProxy = false,
  now,
}: AppOptions = {}): Promise<VidFrameApp> {
  const app = Fastify({
    logger,
    // A hop count is valid at run time (Fastify passes it to proxy-addr) though its types leave numbers out.
    trustProxy: trustProxy as boolean | string,
    // Graceful stop: requests in flight finish, idle keep-alive connections close, new requests get 503.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // Malformed URLs (a bad escape, an over-long path segment) get the same JSON error shape as everything else.
    frameworkErrors: (error, _request, reply) => {
      const status = typeof (error as { statusCode?: number }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : 400;
      (reply as FastifyReply).code(status).send(errorBody(status, error.message));
    },
  });
  const catalog = loadCatalog(mediaDir);
  const secretsDir = join(dataDir, 'secrets');
  const admin = loadOrCreateAdminToken(join(secretsDir, 'admin-token'), adminTokenOption);
  const adminGuard = createAdminGuard({ token: admin.token, allowedHosts: adminHosts });
  const streamTokens = createStreamTokens(streamSecret ? { secret: streamSecret, previousSecret: streamSecretPrevious, now } : { keyFile: join(secretsDir, 'stream-keys.json'), now });
  const store = typeof storeOption === 'object' ? storeOption : await openCollectorStore(storeOption, dataDir);
  const metrics = createMetrics();

  // The built pages are read once, on first use, so the server starts (and says what is wrong) without a build.
  let embedTemplate: EmbedTemplate | undefined;
  const pagePath = (name: string) => builtPagePath(distDir, name);
  const notBuilt = replyNotBuilt;

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, `Nothing at ${request.method} ${request.url.split('?')[0]}`));
  });
  app.setErrorHandler(replyWithError);

  // Graceful stop: a reply sent while the server is closing also closes its keep-alive connection, so the stop
  // waits for the requests in flight and not for their clients' idle connections.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  await registerSecurityHeaders(app);
  await app.register(fastifyRateLimit, { global: false });
  registerMetrics(app, { metrics, guard: adminGuard });

  await app.register(fastifyStatic, {
    root: resolve(distDir, 'assets'),
    prefix: '/assets/',
    // Vite names every asset after its content hash: they never change under the same name.
    maxAge: ONE_YEAR_MS,
    immutable: true,
    dotfiles: 'deny',
    index: false,
  });
  await app.register(fastifyStatic, {
    root: mediaDir,
    prefix: '/media/',
    decorateReply: false,
    acceptRanges: true,
    maxAge: ONE_YEAR_MS,
    dotfiles: 'deny',
    index: false,
  });

  const sendEmbed = (videoId: string, query: Record<string, unknown>, reply: import('fastify').FastifyReply) => {
    if (!embedTemplate) {
      if (!existsSync(pagePath('embed'))) return notBuilt(reply);
      embedTemplate = readEmbedTemplate(readFileSync(pagePath('embed'), 'utf8'));
    }
    const html = renderEmbedPage(embedTemplate, {
      videoId,
      query,
      playerResponse: playerResponseFor(catalog, videoId),
      trustedOrigins,
      streamToken: streamTokens.issue().token,
      nonce: reply.cspNonce.script,
    });
    // Framed by any site (its CSP says frame-ancestors *). The page carries per-request configuration: not cached.
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  };
  app.get<{ Params: { videoId: string }; Querystring: Record<string, unknown> }>('/embed/:videoId', { helmet: embedHelmet }, (request, reply) =>
    sendEmbed(request.params.videoId, request.query, reply),
  );
  // An embed URL without an id still gets the page, which reports the invalid parameter to the host.
  app.get<{ Querystring: Record<string, unknown> }>('/embed/', { helmet: embedHelmet }, (request, reply) => sendEmbed('', request.query, reply));

  app.get('/', (_request, reply) => {
    if (!existsSync(pagePath('host'))) return notBuilt(reply);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(readFileSync(pagePath('host'), 'utf8'));
  });

  // The reference player endpoint: what the embed asks when a host loads another video.
  app.post<{ Body: unknown }>('/youtubei/v1/player', (request, reply) => {
    const body = request.body as { videoId?: unknown } | undefined;
    if (!body || typeof body !== 'object' || !('videoId' in body)) {
      return reply.code(400).send(errorBody(400, 'The request body must be a JSON object with a videoId.'));
    }
    return playerResponseFor(catalog, body.videoId);
  });

  registerPlaylistRoute(app, catalog);

  // The collector: log_event / video_stats, the error endpoint, generate_204, the admin API, with its store.
  await registerCollector(app, { store, streamTokens, metrics, adminGuard, testHooks, rateLimit, retentionDays, now, dataDir });
  await registerDashboard(app, { distDir });
  registerIframeApiRoute(app, { distDir });

  // Liveness (the process answers) and readiness (the store answers too: a load balancer sends traffic only then).
  app.get('/healthz', () => ({ ok: true, videos: catalog.videos.length }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await store.ping();
      return { ready: true, store: store.kind };
    } catch {
      return reply.code(503).send({ ready: false, store: store.kind, error: errorBody(503, 'The collector store does not answer').error });
    }
  });
  const vidframe: VidFrameApp['vidframe'] = { adminToken: admin.token, adminTokenSource: admin.source, store };
  return Object.assign(app, { vidframe }) as VidFrameApp;
}
