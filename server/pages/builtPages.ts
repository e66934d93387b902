import type { FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/** The pages Vite builds into `dist/` (`vite.config.ts`: the embed, then the demo host page and the collector dashboard). */
export type PageName = 'embed' | 'host' | 'dashboard';

/**
 * Where the server gets a page's HTML. `built`: the Vite build in `dist/` (`npm start`, `npm run serve`); `vite`: the
 * page's source `src/{name}/index.html` passed through Vite's dev server on every request (`npm run dev`,
 * `server/dev/`), its scripts served by Vite with hot reload.
 */
export interface PageSource {
  kind: 'built' | 'vite';
  /** The page's HTML for this reply (the dev pages carry the reply's CSP nonces), or undefined when it is not built. */
  html(name: PageName, reply: FastifyReply): Promise<string | undefined>;
}

/** Where Vite writes a page (`embed`, `host`, `dashboard`) in `dist/`. */
export const builtPagePath = (distDir: string, name: string) => resolve(distDir, 'src', name, 'index.html');

/** The built pages in `distDir`, read on each request (small files, and a rebuild shows at once). */
export function builtPages(distDir: string): PageSource {
  return {
    kind: 'built',
    html: async (name) => {
      const path = builtPagePath(distDir, name);
      return existsSync(path) ? readFile(path, 'utf8') : undefined;
    },
  };
}

/** The answer for a page that is not built yet: 503, and how to build it. */
export const replyNotBuilt = (reply: FastifyReply) =>
  reply
    .code(503)
    .type('text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .send('The pages are not built yet: run `npm run build` (or `npm start`, which builds first), or `npm run dev` to serve them from source.\n');
