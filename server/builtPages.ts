import type { FastifyReply } from 'fastify';
import { resolve } from 'node:path';

/** Where Vite writes a page of the multi-page build (`embed`, `host`, `dashboard`). */
export const builtPagePath = (distDir: string, name: string) => resolve(distDir, 'src', name, 'index.html');

/** The answer for a page that is not built yet: 503, and how to build it. */
export const replyNotBuilt = (reply: FastifyReply) =>
  reply
    .code(503)
    .type('text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .send('The pages are not built yet: run `npm run build` (or `npm start`, which builds first).\n');
