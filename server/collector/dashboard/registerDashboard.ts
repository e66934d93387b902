import type { FastifyInstance, FastifyReply } from 'fastify';
import { builtPages, replyNotBuilt, type PageSource } from '../../pages/builtPages';

export interface DashboardRouteOptions {
  /** The Vite build output: the page is `dist/src/dashboard/index.html` (its scripts and styles under `/assets/`). */
  distDir: string;
  /** Where the page comes from: the build in `distDir` (the default), or Vite's dev server (`npm run dev`). */
  pages?: PageSource;
}

/**
 * `GET /collector` (and `/collector/`): the collector dashboard. The page itself holds nothing secret —
 * it reads everything from the admin API with the reader's token — so it needs no token to load; without one it
 * asks for it. It is read on every request (a small file, and a rebuild shows at once) and answered with:
 *
 * - `Cache-Control: no-cache`: the page names hashed assets that change with each build;
 * - `Referrer-Policy: no-referrer`: the sign-in link carries the token in the address until the page removes it;
 * - `X-Robots-Tag: noindex, nofollow`.
 *
 * Without a build it answers 503 with a plain-text hint, as the other pages do.
 */
export async function registerDashboard(app: FastifyInstance, { distDir, pages = builtPages(distDir) }: DashboardRouteOptions): Promise<void> {
  const sendPage = async (reply: FastifyReply) => {
    const html = await pages.html('dashboard', reply);
    if (html === undefined) return replyNotBuilt(reply);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex, nofollow')
      .send(html);
  };
  app.get('/collector', (_request, reply) => sendPage(reply));
  app.get('/collector/', (_request, reply) => sendPage(reply));
}
