import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { replyNotBuilt } from './builtPages';

const ICONS = { '/favicon.ico': 'image/x-icon', '/favicon.svg': 'image/svg+xml' } as const;

/**
 * The pages' icon, root-relative for the demo page, the embed and the dashboard: Vite copies `public/` into `dist/`
 * (in development they come from `public/` itself, `iconDir`). The SVG is what the pages link first; the ICO answers
 * agents that ask `/favicon.ico`.
 */
export function registerIconRoutes(app: FastifyInstance, { iconDir }: { iconDir: string }): void {
  for (const [path, type] of Object.entries(ICONS)) {
    app.get(path, (_request, reply) => {
      const file = resolve(iconDir, path.slice(1));
      if (!existsSync(file)) return replyNotBuilt(reply);
      return reply.type(type).header('cache-control', 'public, max-age=86400').send(readFileSync(file));
    });
  }
}
