import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { PageName, PageSource } from '../pages/builtPages';
import { errorBody } from '../http/errors';
import { allowOriginInCsp } from '../security/securityHeaders';

export interface ViteDevOptions {
  /** The project folder: `vite.config.ts`, `vite.iframe-api.config.ts`, `src/`, `streams/`. */
  rootDir: string;
}

export interface ViteDev {
  /** The pages from `src/{name}/index.html` through Vite (its client, the React refresh preamble, the reply's nonces). */
  pages: PageSource;
  /** The `/iframe_api` script built from source on first use, built again after a change under `src/` or `streams/`. */
  iframeApi(): Promise<string>;
}

/**
 * Vite writes it into the pages' `<script>`/`<style>` tags and its `csp-nonce` meta tag (`html.cspNonce`); each reply
 * replaces it with that reply's own CSP nonces, so the dev pages keep the production policy (no `'unsafe-inline'`).
 */
const NONCE_PLACEHOLDER = 'vidframe-dev-nonce-placeholder';

/**
 * `npm run dev` (`server/main.ts --dev` or `VIDFRAME_DEV=1`): Vite's dev server in middleware mode inside this Fastify
 * server, so one process and one port (`PORT`) serve everything, as `npm start` does, but from source with hot
 * reload:
 *
 * - the pages (embed, demo host page, dashboard) are their `src/…/index.html` through `vite.transformIndexHtml`; the
 *   embed page still gets its player configuration inlined by the server (`server/pages/embedPage.ts`);
 * - every request no route of the server answers goes to Vite's middlewares (`/@vite/client`, `/src/…`,
 *   `/streams/…`, the pre-bundled dependencies); what Vite does not serve either is the server's JSON 404;
 * - the HMR websocket is attached to this server's own HTTP server (same origin as the pages), and the pages' CSP
 *   lets them connect to it;
 * - `/iframe_api` is built from source on demand (`vite.iframe-api.config.ts`, not minified).
 *
 * The API, media, collector, sign-in and attestation are the same routes as in production. Vite is a development
 * dependency: it is imported only here, and only in dev.
 */
/** URL paths the pages load from Vite in dev: its client and helpers (`/@vite/…`, `/@fs/…`, `/@id/…`, `/@react-refresh`), modules, dependencies and their pre-bundled cache. */
const VITE_PATH_PREFIXES = ['/@', '/src/', '/streams/', '/node_modules/', '/.vite/'];

/** Whether a request is for something Vite serves to the pages (see {@link VITE_PATH_PREFIXES}), or a file of public/. */
export function isViteRequest(url: string, publicDir: string): boolean {
  let path: string;
  try {
    path = decodeURIComponent(url.replace(/[?#].*/s, ''));
  } catch {
    return false;
  }
  if (path.includes('\0') || path.split('/').includes('..')) return false;
  if (VITE_PATH_PREFIXES.some((prefix) => path.startsWith(prefix))) return true;
  const file = resolve(publicDir, `.${path}`);
  return file.startsWith(publicDir + sep) && existsSync(file);
}

export async function registerViteDev(app: FastifyInstance, { rootDir }: ViteDevOptions): Promise<ViteDev> {
  const { build, createServer, searchForWorkspaceRoot } = await import('vite');
  // A shared or symlinked node_modules (workspaces, pnpm) lives outside the project: Vite may serve files from it.
  const nodeModules = resolve(rootDir, 'node_modules');
  const publicDir = resolve(rootDir, 'public');
  const vite = await createServer({
    configFile: resolve(rootDir, 'vite.config.ts'),
    root: rootDir,
    appType: 'custom',
    // In the project, not in node_modules: node_modules may be shared or read-only; `.vite/` is ignored by git.
    cacheDir: resolve(rootDir, '.vite'),
    html: { cspNonce: NONCE_PLACEHOLDER },
    server: {
      middlewareMode: true,
      hmr: { server: app.server },
      fs: { allow: [searchForWorkspaceRoot(rootDir), ...(existsSync(nodeModules) ? [realpathSync(nodeModules)] : [])] },
      // Transform the pages' entries (and find their dependencies) before the first page asks for them.
      warmup: { clientFiles: ['./src/embed/page/main.ts', './src/embed/page/ui.tsx', './src/host/main.tsx'] },
    },
  });
  app.addHook('preClose', async () => {
    await vite.close();
  });

  app.setNotFoundHandler((request, reply) => {
    // Vite would serve (and transform) any file under the project root: the server's sources, package.json, and the
    // data folder with its secrets and database when it lies in the project (the default `.data/`). Only what the
    // pages load goes to Vite: its own paths, the modules under src/ and streams/, dependencies, its dependency cache,
    // and the files of public/.
    if (!isViteRequest(request.url, publicDir)) {
      const path = request.url.split('?')[0];
      return reply
        .code(404)
        .type('application/json; charset=utf-8')
        .send(errorBody(404, `Nothing at ${request.method} ${path}`));
    }
    reply.hijack();
    const raw = reply.raw;
    vite.middlewares(request.raw, raw, (error?: unknown) => {
      if (raw.headersSent) {
        raw.end();
        return;
      }
      const status = error ? 500 : 404;
      const message = error
        ? `Vite could not serve ${request.url}: ${error instanceof Error ? error.message : String(error)}`
        : `Nothing at ${request.method} ${request.url.split('?')[0]}`;
      raw.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(errorBody(status, message)));
    });
  });

  const pages: PageSource = {
    kind: 'vite',
    html: async (name: PageName, reply: FastifyReply) => {
      const source = await readFile(resolve(rootDir, 'src', name, 'index.html'), 'utf8');
      // The pages are served at other paths than their source (`/`, `/embed/{id}`, `/collector`): their relative
      // URLs (`./main.tsx`) become root-relative to their folder first, as the build makes them.
      const rooted = source.replace(/\b(src|href)="\.\//g, `$1="/src/${name}/`);
      const html = await vite.transformIndexHtml(`/src/${name}/index.html`, rooted);
      // The HMR websocket is on this page's own host and port.
      const host = reply.request.headers.host;
      if (host) allowOriginInCsp(reply, 'connect-src', `${reply.request.protocol === 'https' ? 'wss' : 'ws'}://${host}`);
      return withNonces(html, reply.cspNonce);
    },
  };

  const srcDirs = [resolve(rootDir, 'src') + sep, resolve(rootDir, 'streams') + sep];
  let iframeApi: Promise<string> | undefined;
  const invalidate = (file: string) => {
    if (srcDirs.some((dir) => file.startsWith(dir))) iframeApi = undefined;
  };
  vite.watcher.on('change', invalidate).on('add', invalidate).on('unlink', invalidate);
  const buildIframeApi = async () => {
    const result = await build({
      configFile: resolve(rootDir, 'vite.iframe-api.config.ts'),
      root: rootDir,
      logLevel: 'warn',
      build: { write: false, emptyOutDir: false, minify: false, sourcemap: 'inline' },
    });
    for (const output of Array.isArray(result) ? result : [result]) {
      if (!('output' in output)) continue;
      const chunk = output.output.find((c) => c.type === 'chunk' && c.fileName === 'iframe_api.js');
      if (chunk?.type === 'chunk') return chunk.code;
    }
    throw new Error('The /iframe_api build produced no iframe_api.js');
  };

  return {
    pages,
    iframeApi: () => {
      if (!iframeApi) {
        const building = buildIframeApi();
        iframeApi = building;
        building.catch(() => {
          if (iframeApi === building) iframeApi = undefined;
        });
      }
      return iframeApi;
    },
  };
}

/** The reply's nonces in place of the placeholder: the script nonce on scripts, the style nonce on the rest. */
export function withNonces(html: string, nonces: { script: string; style: string }): string {
  return html.replace(/<(script|style|link|meta)\b[^>]*>/gi, (tag, name: string) => {
    const isScript = name.toLowerCase() === 'script' || /\brel="modulepreload"/i.test(tag);
    return tag.replaceAll(`nonce="${NONCE_PLACEHOLDER}"`, `nonce="${isScript ? nonces.script : nonces.style}"`);
  });
}
