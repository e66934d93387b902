import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { negotiateEncoding, type ContentEncoding } from '../static/negotiateEncoding';

export interface IframeApiRouteOptions {
  /** The build output: the script is `dist/iframe_api/iframe_api.js` (built by `vite.iframe-api.config.ts`). */
  distDir: string;
  /**
   * `npm run dev`: the script built from source on demand (`server/dev/`), instead of the file in `distDir`; sent
   * uncompressed and not cached, so a change to the SDK's source shows on the next load.
   */
  fromSource?: () => Promise<string>;
}

/** Short, so a fixed SDK reaches host pages quickly; hosts include the script by this fixed URL (not hashed). */
const CACHE_CONTROL = 'public, max-age=300';

/**
 * `GET /iframe_api`: the host SDK as one classic script defining the global `YT` (`YT.Player`, `YT.PlayerState`,
 * `YT.ready`) and calling `onYouTubeIframeAPIReady`. It is included cross-origin by third-party pages, so it is
 * served with a JavaScript content type, CORS open and a short cache. The file is read once, on first use.
 */
export function registerIframeApiRoute(app: FastifyInstance, { distDir, fromSource }: IframeApiRouteOptions): void {
  if (fromSource) {
    app.get('/iframe_api', async (_request, reply) => {
      const script = await fromSource();
      return reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('access-control-allow-origin', '*')
        .header('x-content-type-options', 'nosniff')
        .send(script);
    });
    return;
  }
  const scriptPath = resolve(distDir, 'iframe_api', 'iframe_api.js');
  // The plain script and its build-time `.br` / `.gz` variants (`npm run build` writes them), read once, on first use.
  let variants: { plain: Buffer; br?: Buffer; gzip?: Buffer } | undefined;
  const readVariant = (suffix: string) => (existsSync(scriptPath + suffix) ? readFileSync(scriptPath + suffix) : undefined);
  app.get('/iframe_api', (request, reply) => {
    if (variants === undefined) {
      if (!existsSync(scriptPath)) {
        return reply
          .code(503)
          .type('text/javascript; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(
            '/* The /iframe_api script is not built yet: run `npm run build`. */\nconsole.error("VidFrame: /iframe_api is not built yet (npm run build).");\n',
          );
      }
      variants = { plain: readFileSync(scriptPath), br: readVariant('.br'), gzip: readVariant('.gz') };
    }
    const available = (['br', 'gzip'] as const).filter((e): e is ContentEncoding => variants?.[e] !== undefined);
    const encoding = negotiateEncoding(request.headers['accept-encoding'], available);
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', CACHE_CONTROL)
      .header('access-control-allow-origin', '*')
      .header('x-content-type-options', 'nosniff')
      .header('vary', 'accept-encoding');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(encoding ? variants[encoding] : variants.plain);
  });
  // Its source map, for host developers debugging the SDK (the script names it relative to /iframe_api).
  const mapPath = `${scriptPath}.map`;
  app.get('/iframe_api.js.map', (_request, reply) => {
    if (!existsSync(mapPath)) return reply.code(404).send({ error: { code: 404, message: 'No source map: run `npm run build`.' } });
    return reply
      .type('application/json; charset=utf-8')
      .header('cache-control', CACHE_CONTROL)
      .header('access-control-allow-origin', '*')
      .send(readFileSync(mapPath, 'utf8'));
  });
}
