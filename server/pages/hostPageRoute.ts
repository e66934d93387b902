import type { FastifyInstance } from 'fastify';
import { allowOriginInCsp } from '../security/securityHeaders';
import { replyNotBuilt, type PageSource } from './builtPages';

/**
 * `GET /`: the demo host page. It frames the embed of another origin with `?host=` (as the browser tests do), and its
 * player facades show that origin's posters too, so that origin joins its `img-src`. Only a bare http(s) origin is
 * added (`allowOriginInCsp` refuses anything else).
 */
export function registerHostPageRoute(app: FastifyInstance, { pages }: { pages: PageSource }): void {
  app.get<{ Querystring: { host?: unknown } }>('/', async (request, reply) => {
    const html = await pages.html('host', reply);
    if (html === undefined) return replyNotBuilt(reply);
    if (typeof request.query.host === 'string' && /^https?:\/\//.test(request.query.host)) {
      try {
        allowOriginInCsp(reply, 'img-src', new URL(request.query.host).origin);
      } catch {
        // not a URL: the page falls back to its own origin, and so does its CSP
      }
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
}
