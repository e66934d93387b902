import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyRateLimit from '@fastify/rate-limit';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createAdminGuard } from './admin/adminGuard';
import { loadOrCreateAdminToken } from './admin/adminToken';
import { builtPages, replyNotBuilt, type PageSource } from './builtPages';
import { loadCatalog } from './catalog';
import { registerDashboard } from './collector/dashboard/registerDashboard';
import { openCollectorStore } from './collector/openCollectorStore';
import { registerCollector, type RateLimitSettings } from './collector/registerCollector';
import type { CollectorStore } from './collector/store';
import { createStreamTokens } from './collector/streamTokens';
import { errorBody, replyWithError } from './errors';
import { createMetrics } from './metrics/createMetrics';
import { registerMetrics } from './metrics/registerMetrics';
import { allowOriginInCsp, embedHelmet, registerSecurityHeaders } from './security/securityHeaders';
import { registerIframeApiRoute } from './iframeApiRoute';
import { registerPosters } from './media/registerPosters';
import { renderEmbedPage, readEmbedTemplate, type EmbedTemplate } from './embedPage';
import { playerResponseFor } from './playerResponse';
import { registerAccounts } from './accounts/registerAccounts';
import type { AdsHostSettings } from './ads/adsHostSettings';
import { adsOriginFor } from './ads/adsOriginFor';
import { AD_STATUS_SCRIPT_PATH } from './ads/createAdsHost';
import { registerAttestation } from './attestation/registerAttestation';
import { createIdentityTokens } from './api/identityTokens';
import { registerApi } from './api/registerApi';
import { createApiRequestVerifier } from './api/verifyApiRequest';
import { registerPlatform, type VerifyAttestation } from './platform/registerPlatform';
import type { EmbedMode } from '../streams/config/playerConfig';

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
  /** The collector's, the sessions' and the tokens' clock (ms since the epoch); tests fix it. */
  now?: () => number;
  /** The API key of spec §7 (`VIDFRAME_API_KEY`): handed to the embed, checked when a request names one. */
  apiKey?: string;
  /** The ads host (the anonymous id's second origin) and the privacy-enhanced host names (`readConfig().ads`). */
  ads?: Pick<AdsHostSettings, 'port' | 'origin' | 'privateEmbedHosts'>;
  /** Host names that serve the education embed (`VIDFRAME_EDUCATION_EMBED_HOSTS`): no anonymous id there (spec §5). */
  educationEmbedHosts?: readonly string[];
  /** Create the demo accounts (README) when missing; `VIDFRAME_DEMO_ACCOUNTS=0` turns it off. Default true. */
  seedDemoAccounts?: boolean;
  /** `SameSite=None; Secure` session cookies, for https deployments where the embed is framed by other sites. */
  secureCookies?: boolean;
  /** An access-token key shared by several servers (`VIDFRAME_ACCESS_TOKEN_SECRET`); otherwise a key file. */
  accessTokenSecret?: string;
  /**
   * Checks the attestation (botguard) response a subscribe carries (spec §4). By default the server's own attestation
   * plugin's verifier (`server/attestation/`: signed, fresh, single-use proof-of-work tokens); tests may pass another.
   */
  verifyAttestation?: VerifyAttestation;
  /**
   * Development (`npm run dev`: `server/main.ts --dev` or `VIDFRAME_DEV=1`): the pages and their scripts come from
   * source through Vite's dev server in middleware mode, with hot reload (`server/dev/`), instead of `distDir`.
   * Needs the development dependencies (Vite). Default false.
   */
  dev?: boolean;
}

/** The reference server's API key when none is configured: an identifier, not a secret (it is in every page). */
export const DEFAULT_API_KEY = 'vidframe-reference-api-key';

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
  apiKey = DEFAULT_API_KEY,
  ads,
  educationEmbedHosts = [],
  seedDemoAccounts = true,
  secureCookies = false,
  accessTokenSecret,
  verifyAttestation,
  dev = false,
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
  const streamTokens = createStreamTokens(
    streamSecret ? { secret: streamSecret, previousSecret: streamSecretPrevious, now } : { keyFile: join(secretsDir, 'stream-keys.json'), now },
  );
  const identityTokens = createIdentityTokens({ secretsDir, sharedSecret: streamSecret, previousSharedSecret: streamSecretPrevious, now });
  const store = typeof storeOption === 'object' ? storeOption : await openCollectorStore(storeOption, dataDir);
  const metrics = createMetrics();

  app.setErrorHandler(replyWithError);
  // In development, Vite (in this process, on this port) serves the pages from source and answers what no route does.
  const viteDev = dev ? await (await import('./dev/registerViteDev')).registerViteDev(app, { rootDir }) : undefined;
  if (!viteDev) {
    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send(errorBody(404, `Nothing at ${request.method} ${request.url.split('?')[0]}`));
    });
  }
  const pages: PageSource = viteDev?.pages ?? builtPages(distDir);
  // The built embed page is read once, on first use, so the server starts (and says what is wrong) without a build;
  // from Vite (dev) it is transformed again for every request, so an edit of its HTML shows at once.
  let builtEmbedTemplate: EmbedTemplate | undefined;
  const embedTemplateFor = async (reply: FastifyReply): Promise<EmbedTemplate | undefined> => {
    if (builtEmbedTemplate) return builtEmbedTemplate;
    const html = await pages.html('embed', reply);
    const template = html === undefined ? undefined : readEmbedTemplate(html);
    if (pages.kind === 'built') builtEmbedTemplate = template;
    return template;
  };
  const notBuilt = replyNotBuilt;

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
    // `npm run build` writes `.br` and `.gz` next to every asset: sent by Accept-Encoding, with `Vary`.
    preCompressed: true,
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
  // Each video's poster at a URL built from its id alone (`/vi/{id}/poster`): the React binding's lazy facade shows it.
  registerPosters(app, { catalog, mediaDir });

  /** Spec §5: the privacy-enhanced and education embeds are told so, and never fetch the anonymous id. */
  const embedModeOf = (request: FastifyRequest): EmbedMode => {
    const name = request.hostname.toLowerCase(); // without the port
    if (ads?.privateEmbedHosts.some((h) => h.toLowerCase() === name)) return 'private';
    if (educationEmbedHosts.some((h) => h.toLowerCase() === name)) return 'education';
    return 'standard';
  };
  const adsOriginOf = (request: FastifyRequest) => (ads ? adsOriginFor(request.headers.host ?? '', request.protocol, ads) : undefined);

  const sendEmbed = async (videoId: string, query: Record<string, unknown>, request: FastifyRequest, reply: FastifyReply) => {
    const embedTemplate = await embedTemplateFor(reply);
    if (!embedTemplate) return notBuilt(reply);
    const adsOrigin = adsOriginOf(request);
    if (adsOrigin) {
      // The anonymous id and the ad-status script come from the ads host, another origin (spec §7): this page, and
      // only it, may connect there and run that one origin's scripts.
      allowOriginInCsp(reply, 'connect-src', adsOrigin);
      allowOriginInCsp(reply, 'script-src', adsOrigin);
    }
    const html = renderEmbedPage(embedTemplate, {
      videoId,
      query,
      playerResponse: playerResponseFor(catalog, videoId),
      trustedOrigins,
      streamToken: streamTokens.issue().token,
      identity: {
        visitorData: identityTokens.visitor.issue().token,
        antiForgeryToken: identityTokens.antiForgery.issue().token,
        apiKey,
        anonymousIdUrl: adsOrigin && `${adsOrigin}/pagead/id`,
        adStatusUrl: adsOrigin && `${adsOrigin}${AD_STATUS_SCRIPT_PATH}`,
        attestationProgramUrl: attestation.programUrlFor(query),
        embedMode: embedModeOf(request),
      },
      nonce: reply.cspNonce.script,
    });
    // Framed by any site (its CSP says frame-ancestors *). The page carries per-request configuration: not cached.
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  };
  app.get<{ Params: { videoId: string }; Querystring: Record<string, unknown> }>('/embed/:videoId', { helmet: embedHelmet }, (request, reply) =>
    sendEmbed(request.params.videoId, request.query, request, reply),
  );
  // An embed URL without an id still gets the page, which reports the invalid parameter to the host.
  app.get<{ Querystring: Record<string, unknown> }>('/embed/', { helmet: embedHelmet }, (request, reply) => sendEmbed('', request.query, request, reply));

  app.get<{ Querystring: { host?: unknown } }>('/', async (request, reply) => {
    const html = await pages.html('host', reply);
    if (html === undefined) return notBuilt(reply);
    // The demo page frames the embed of another origin with `?host=` (as the browser tests do): its player facades
    // show that origin's posters too. Only a bare http(s) origin is added (allowOriginInCsp refuses anything else).
    if (typeof request.query.host === 'string' && /^https?:\/\//.test(request.query.host)) {
      try {
        allowOriginInCsp(reply, 'img-src', new URL(request.query.host).origin);
      } catch {
        // not a URL: the page falls back to its own origin, and so does its CSP
      }
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });

  // The pages' icon (issue 17 item 7), root-relative for the demo page, the embed and the dashboard: Vite copies
  // public/ into dist/ (in development they come from public/ itself). The SVG is what the pages link first; the ICO
  // answers agents that ask /favicon.ico.
  const iconDir = viteDev ? resolve(rootDir, 'public') : distDir;
  const favicons = { '/favicon.ico': 'image/x-icon', '/favicon.svg': 'image/svg+xml' } as const;
  for (const [path, type] of Object.entries(favicons)) {
    app.get(path, (_request, reply) => {
      const file = resolve(iconDir, path.slice(1));
      if (!existsSync(file)) return notBuilt(reply);
      return reply.type(type).header('cache-control', 'public, max-age=86400').send(readFileSync(file));
    });
  }

  // Attestation (issue 14): the program and its challenges; `attestation.verify` checks a subscribe's botguardResponse.
  const attestation = await registerAttestation(app, { rootDir, secret: streamSecret ? `${streamSecret}#attestation` : undefined, now, testHooks });

  // Accounts (sign-in, sessions, access tokens, delegation) and the API calls, all behind one request-validation step.
  const accounts = await registerAccounts(app, { dataDir, now, seedDemoAccounts, secureCookies, accessTokenSecret });
  const verifyApiRequest = createApiRequestVerifier({ accounts, tokens: identityTokens, apiKey });
  // The platform calls (subscriptions, bells, watch later, feedback, sharing); `next {videoId}` reads its viewer state.
  const platform = await registerPlatform(app, {
    dataDir,
    catalog,
    verifyApiRequest,
    tokens: identityTokens,
    verifyAttestation: verifyAttestation ?? attestation.verify,
    sharedSecret: streamSecret,
    now,
  });
  await registerApi(app, { catalog, verifyApiRequest, tokens: identityTokens, videoViewerState: platform.videoViewerState });

  // The collector: log_event / video_stats, the error endpoint, generate_204, the admin API, with its store.
  await registerCollector(app, {
    store,
    streamTokens,
    metrics,
    adminGuard,
    testHooks,
    rateLimit,
    retentionDays,
    now,
    dataDir,
    verifyApiRequest,
    tokens: identityTokens,
  });
  await registerDashboard(app, { distDir, pages });
  registerIframeApiRoute(app, { distDir, fromSource: viteDev?.iframeApi });

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
