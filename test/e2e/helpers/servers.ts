import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../../server/app';
import { createAdsHost } from '../../../server/ads/createAdsHost';

export interface RunningServer {
  /** e.g. `http://127.0.0.1:41234` */
  origin: string;
  app: FastifyInstance;
  dataDir: string;
  /** The admin token the collector's admin API and dashboard need (`Authorization: Bearer …`). */
  adminToken: string;
  /** The ads host (the anonymous id's second origin, another port), when started with `{ adsHost: true }`. */
  ads?: { origin: string; app: FastifyInstance };
  close(): Promise<void>;
}

export interface StartServerOptions extends Pick<AppOptions, 'educationEmbedHosts'> {
  /** Also start the ads host on another loopback port, with its test hooks (scripted answers, request log). */
  adsHost?: boolean;
  /** Host names of the privacy-enhanced embed (the ads host's settings). */
  privateEmbedHosts?: string[];
}

/** The real reference server (built pages, real media, real collector) on a free loopback port, with its own data dir. */
export async function startServer({ adsHost = false, privateEmbedHosts = [], educationEmbedHosts }: StartServerOptions = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vidframe-e2e-'));
  // Live settings, as `npm start` keeps them: the ads port is known once the ads host listens.
  const ads = { port: 0, privateEmbedHosts };
  const app = await buildApp({ dataDir, testHooks: true, ads: adsHost ? ads : undefined, educationEmbedHosts });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('the server has no address');
  const origin = `http://127.0.0.1:${address.port}`;
  let adsApp: FastifyInstance | undefined;
  if (adsHost) {
    adsApp = await createAdsHost({ allowedOrigin: (o) => o === origin, testHooks: true });
    await adsApp.listen({ port: 0, host: '127.0.0.1' });
    ads.port = (adsApp.server.address() as { port: number }).port;
  }
  return {
    origin,
    app,
    dataDir,
    adminToken: app.vidframe.adminToken,
    ...(adsApp && { ads: { origin: `http://127.0.0.1:${ads.port}`, app: adsApp } }),
    close: async () => {
      await adsApp?.close();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface HostServer {
  /** e.g. `http://localhost:41235`: another host name and port than the embed, so another origin. */
  origin: string;
  /** Serves `html` at `path` from now on. */
  page(path: string, html: string): string;
  close(): Promise<void>;
}

/** A bare third-party host: serves the pages a test gives it, nothing of ours, on another origin than the embed. */
export async function startHostServer(): Promise<HostServer> {
  const pages = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    const html = pages.get((request.url ?? '/').split('?')[0]);
    if (html === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the host server has no address');
  const origin = `http://localhost:${address.port}`;
  return {
    origin,
    page: (path, html) => {
      pages.set(path, html);
      return origin + path;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A host page that frames one embed URL, as a third-party site would. */
export const framingPage = (embedUrl: string, { width = 640, height = 360 } = {}) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Third-party host</title></head>
<body style="margin:0;background:#fafafa">
<iframe id="player" width="${width}" height="${height}" src="${embedUrl}" allow="autoplay; fullscreen" frameborder="0"></iframe>
</body></html>`;
