import type { FastifyInstance } from 'fastify';
import { resolve } from 'node:path';
import type { AdsHostSettings } from './ads/adsHostSettings';
import { registerAccounts } from './accounts/registerAccounts';
import { createAdminGuard } from './admin/adminGuard';
import { loadOrCreateAdminToken } from './admin/adminToken';
import { registerApi } from './api/registerApi';
import { createApiRequestVerifier } from './api/verifyApiRequest';
import { registerAttestation } from './attestation/registerAttestation';
import { type ClusterState, registerCluster } from './cluster/registerCluster';
import { registerDashboard } from './collector/dashboard/registerDashboard';
import { openCollectorStore } from './collector/openCollectorStore';
import { registerCollector, type RateLimitSettings } from './collector/registerCollector';
import type { CollectorStore } from './collector/store';
import { openStateDatabase, type StateDatabase } from './db/openStateDatabase';
import type { StateDatabaseSetting } from './db/stateDatabaseSetting';
import { createMetrics } from './health/createMetrics';
import { registerHealth } from './health/registerHealth';
import { createHttpServer } from './http/createHttpServer';
import type { LoggerSetting } from './http/logging';
import { registerHttpBasics } from './http/registerHttpBasics';
import { type CatalogSource, createCatalogSource } from './media/catalogSource';
import { registerMedia } from './media/registerMedia';
import { builtPages } from './pages/builtPages';
import { registerPages } from './pages/registerPages';
import { registerPlatform, type VerifyAttestation } from './platform/registerPlatform';
import { createIdentityTokens, createStreamTokensFor } from './tokens/identityTokens';
import { keyFileOf, purposeSecret } from './tokens/keys';

export interface AppOptions {
  /** The project folder the defaults below are relative to (`npm start` passes it; the default is the working folder). */
  rootDir?: string;
  /** The Vite build output (`npm run build`). */
  distDir?: string;
  /** The sample media and its `catalog.json`. */
  mediaDir?: string;
  /** Where the collector keeps what it receives. */
  dataDir?: string;
  /**
   * The library of ingested videos (`VIDFRAME_LIBRARY_DIR`): `entries/<id>.json` and their files under `videos/`,
   * watched while the server runs. Default `{dataDir}/library`.
   */
  libraryDir?: string;
  /** JSON log lines (`http/logging.ts`): off (the default here), on stdout (`npm start`), or to a given stream. */
  logger?: LoggerSetting;
  /** With a logger, a line per request and per reply (`LOG=0` turns it off); errors are logged either way. Default true. */
  logRequests?: boolean;
  /** Turn on the collector's test routes (wipe, fault injection): for tests and `VIDFRAME_TEST_HOOKS=1`. */
  testHooks?: boolean;
  /**
   * Host origins (exact `scheme://host:port`) that get the privileged host methods; `npm start` reads them
   * from `VIDFRAME_TRUSTED_ORIGINS` (comma-separated). Default: none.
   */
  trustedOrigins?: readonly string[];
  /** The collector's store: a `VIDFRAME_STORE` value (`sqlite`, `sqlite:/file`, `clickhouse://…`) or a store. */
  store?: string | CollectorStore;
  /**
   * Where accounts, sessions, sign-in throttles and platform state live (`VIDFRAME_DB`): the data folder's SQLite file
   * (the default) or a PostgreSQL database shared by several servers.
   */
  database?: StateDatabaseSetting;
  /**
   * The admin token; when absent, kept in the PostgreSQL state database for every server (`npm run secrets --
   * admin-token` prints it), else generated into `{dataDir}/secrets/admin-token`.
   */
  adminToken?: string;
  /** Host names the admin routes answer to. */
  adminHosts?: readonly string[];
  /**
   * The secret every token key derives from, shared by several servers (`VIDFRAME_STREAM_SECRET`); otherwise, on
   * PostgreSQL, one kept in the database for all servers, and on SQLite a key file per kind in the data folder.
   */
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
  /**
   * An access-token key shared by several servers (`VIDFRAME_ACCESS_TOKEN_SECRET`); otherwise derived from the shared
   * secret when there is one, else a key file.
   */
  accessTokenSecret?: string;
  /** The access-token key `accessTokenSecret` replaced (`VIDFRAME_ACCESS_TOKEN_SECRET_PREVIOUS`): still verifies. */
  accessTokenSecretPrevious?: string;
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
export type VidFrameApp = FastifyInstance & {
  vidframe: {
    adminToken: string;
    /** Where the admin token comes from: configured, the data folder's file (found or generated), or the state database. */
    adminTokenSource: 'env' | 'file' | 'generated' | 'database';
    /** Where the admin token is kept when it is not given (`{dataDir}/secrets/admin-token`): what `npm start` names. */
    adminTokenFile: string;
    store: CollectorStore;
    catalog: CatalogSource;
  };
};

/** The options with their defaults. */
type Settings = Required<
  Pick<AppOptions, 'rootDir' | 'distDir' | 'mediaDir' | 'dataDir' | 'libraryDir' | 'trustedOrigins' | 'apiKey' | 'educationEmbedHosts'>
> &
  AppOptions;

const settingsOf = (options: AppOptions): Settings => {
  const rootDir = options.rootDir ?? process.cwd();
  const dataDir = options.dataDir ?? resolve(rootDir, '.data');
  return {
    ...options,
    rootDir,
    distDir: options.distDir ?? resolve(rootDir, 'dist'),
    mediaDir: options.mediaDir ?? resolve(rootDir, 'media'),
    dataDir,
    libraryDir: options.libraryDir ?? resolve(dataDir, 'library'),
    trustedOrigins: options.trustedOrigins ?? [],
    apiKey: options.apiKey ?? DEFAULT_API_KEY,
    educationEmbedHosts: options.educationEmbedHosts ?? [],
  };
};

/**
 * The reference server, one plugin per domain, each in its folder: the shared HTTP behaviour (`http/`), health and
 * metrics (`health/`), the media (`media/`), attestation, accounts, the platform calls, the API calls, the collector
 * and the pages. The signed tokens and their keys come from `tokens/`; what several servers on one PostgreSQL database
 * share beyond their tables (rate-limit counts, the token keys' secret) from `cluster/`.
 */
export async function buildApp(options: AppOptions = {}): Promise<VidFrameApp> {
  const o = settingsOf(options);
  const app = createHttpServer({ logger: o.logger ?? false, logRequests: o.logRequests, trustProxy: o.trustProxy ?? false });
  // One state database for the accounts, the platform and the cluster, closed with the app (or at once if they fail to start).
  const database = await openStateDatabase(o.database ?? { engine: 'sqlite' }, o.dataDir);
  app.addHook('onClose', () => database.close());
  try {
    const cluster = await registerCluster(app, {
      state: database,
      configured: { secret: o.streamSecret, previous: o.streamSecretPrevious, adminToken: o.adminToken },
      now: o.now ?? Date.now,
    });
    return await registerDomains(app, o, database, cluster);
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** The access tokens' key and its predecessor: configured, or derived from the shared secret and its predecessor. */
function accessTokenSecrets(o: Settings, { sharedSecret, previousSharedSecret }: ClusterState) {
  if (o.accessTokenSecret) return { accessTokenSecret: o.accessTokenSecret, accessTokenSecretPrevious: o.accessTokenSecretPrevious };
  const derived = (secret: string | undefined) => secret && purposeSecret(secret, 'access');
  return { accessTokenSecret: derived(sharedSecret), accessTokenSecretPrevious: derived(previousSharedSecret) };
}

async function registerDomains(app: FastifyInstance, o: Settings, database: StateDatabase, cluster: ClusterState): Promise<VidFrameApp> {
  const { rootDir, distDir, dataDir, now, testHooks = false } = o;
  const sharedSecret = cluster.sharedSecret;
  // The catalogue is read now (a bad one stops the server); the library's entries are read with it and again as they change.
  const catalog = createCatalogSource({ mediaDir: o.mediaDir, libraryDir: o.libraryDir, log: app.log, now });
  const adminTokenFile = keyFileOf(dataDir, 'admin');
  const admin = cluster.adminToken ? { token: cluster.adminToken, source: 'database' as const } : loadOrCreateAdminToken(adminTokenFile, o.adminToken);
  const adminGuard = createAdminGuard({ token: admin.token, allowedHosts: o.adminHosts });
  const keySource = { dataDir, sharedSecret, previousSharedSecret: cluster.previousSharedSecret, now };
  const streamTokens = createStreamTokensFor(keySource);
  const identityTokens = createIdentityTokens(keySource);
  const store = typeof o.store === 'object' ? o.store : await openCollectorStore(o.store, dataDir);
  const metrics = createMetrics();

  // In development, Vite (in this process, on this port) serves the pages from source and answers what no route does.
  const viteDev = o.dev ? await (await import('./dev/registerViteDev')).registerViteDev(app, { rootDir }) : undefined;
  const pages = viteDev?.pages ?? builtPages(distDir);
  await registerHttpBasics(app, { notFound: !viteDev, rateLimitStore: cluster.rateLimitStore });
  registerHealth(app, { catalog, store, state: { kind: database.engine, ping: database.ping }, metrics, guard: adminGuard });
  await registerMedia(app, { catalog, mediaDir: o.mediaDir, libraryDir: o.libraryDir });
  const attestation = await registerAttestation(app, {
    rootDir,
    secret: sharedSecret ? purposeSecret(sharedSecret, 'attestation') : undefined,
    now,
    testHooks,
    usedNonces: cluster.usedNonces,
  });
  const accounts = await registerAccounts(app, {
    dataDir,
    database,
    now,
    seedDemoAccounts: o.seedDemoAccounts,
    secureCookies: o.secureCookies,
    ...accessTokenSecrets(o, cluster),
  });
  const verifyApiRequest = createApiRequestVerifier({ accounts, tokens: identityTokens, apiKey: o.apiKey });
  const platform = await registerPlatform(app, {
    dataDir,
    database,
    catalog,
    verifyApiRequest,
    tokens: identityTokens,
    verifyAttestation: o.verifyAttestation ?? attestation.verify,
    sharedSecret,
    previousSharedSecret: cluster.previousSharedSecret,
    now,
  });
  await registerApi(app, {
    catalog,
    verifyApiRequest,
    tokens: identityTokens,
    videoViewerState: platform.videoViewerState,
    heartbeatSecret: sharedSecret ? purposeSecret(sharedSecret, 'heartbeat') : undefined,
    now,
  });
  await registerCollector(app, {
    store,
    streamTokens,
    metrics,
    adminGuard,
    testHooks,
    rateLimit: o.rateLimit,
    retentionDays: o.retentionDays ?? 0,
    now,
    dataDir,
    verifyApiRequest,
    tokens: identityTokens,
  });
  await registerDashboard(app, { distDir, pages });
  await registerPages(app, {
    distDir,
    pages,
    iconDir: viteDev ? resolve(rootDir, 'public') : distDir,
    iframeApiFromSource: viteDev?.iframeApi,
    catalog,
    trustedOrigins: o.trustedOrigins,
    streamTokens,
    identityTokens,
    apiKey: o.apiKey,
    ads: o.ads,
    educationEmbedHosts: o.educationEmbedHosts,
    attestation,
  });
  const vidframe: VidFrameApp['vidframe'] = { adminToken: admin.token, adminTokenSource: admin.source, adminTokenFile, store, catalog };
  return Object.assign(app, { vidframe }) as VidFrameApp;
}
