import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadCatalog } from './catalog';
import { registerCollector } from './collector/registerCollector';
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
}

const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

/** The JSON error body every 4xx/5xx of the reference server uses. */
export const errorBody = (code: number, message: string) => ({ error: { code, message } });

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
}: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    trustProxy: true,
    // Malformed URLs (a bad escape, an over-long path segment) get the same JSON error shape as everything else.
    frameworkErrors: (error, _request, reply) => {
      const status = typeof (error as { statusCode?: number }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : 400;
      (reply as FastifyReply).code(status).send(errorBody(status, error.message));
    },
  });
  const catalog = loadCatalog(mediaDir);

  // The built pages are read once, on first use, so the server starts (and says what is wrong) without a build.
  let embedTemplate: EmbedTemplate | undefined;
  const pagePath = (name: string) => resolve(distDir, 'src', name, 'index.html');
  const notBuilt = (reply: import('fastify').FastifyReply) =>
    reply.code(503).type('text/plain').send('The pages are not built yet: run `npm run build` (or `npm start`, which builds first).\n');

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, `Nothing at ${request.method} ${request.url.split('?')[0]}`));
  });
  // Every error answers in the same JSON shape: the client's own mistakes (4xx) say what was wrong; a failure of
  // ours (5xx) is logged and answered without internals.
  app.setErrorHandler((error: { statusCode?: number; message?: string; headers?: Record<string, string> }, request, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error(error);
    // Headers an error carries stay (a 416 names the file's size in Content-Range).
    if (error.headers && typeof error.headers === 'object') reply.headers(error.headers);
    const message =
      status >= 500
        ? 'Internal server error.'
        : status === 415
          ? `Unsupported content type ${JSON.stringify(request.headers['content-type'] ?? '')}: send application/json.`
          : error.message || 'Bad request.';
    reply.code(status).send(errorBody(status, message));
  });

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
    const html = renderEmbedPage(embedTemplate, { videoId, query, playerResponse: playerResponseFor(catalog, videoId), trustedOrigins });
    // Framed by any site: no X-Frame-Options. The page carries per-request configuration: not cached.
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  };
  app.get<{ Params: { videoId: string }; Querystring: Record<string, unknown> }>('/embed/:videoId', (request, reply) =>
    sendEmbed(request.params.videoId, request.query, reply),
  );
  // An embed URL without an id still gets the page, which reports the invalid parameter to the host.
  app.get<{ Querystring: Record<string, unknown> }>('/embed/', (request, reply) => sendEmbed('', request.query, reply));

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

  // The collector: log_event / video_stats, the error endpoint, generate_204, with its embedded store.
  registerCollector(app, { dataDir, testHooks });
  registerIframeApiRoute(app, { distDir });

  app.get('/healthz', () => ({ ok: true, videos: catalog.videos.length }));
  return app;
}
