import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { resolve } from 'node:path';
import type { PageSource } from './builtPages';
import { registerEmbedRoutes, type EmbedRouteOptions } from './embedRoutes';
import { registerHostPageRoute } from './hostPageRoute';
import { registerIconRoutes } from './iconRoutes';
import { registerIframeApiRoute } from './iframeApiRoute';

export interface PagesOptions extends Omit<EmbedRouteOptions, 'pages'> {
  /** The Vite build output: the pages, `assets/`, `iframe_api/` and the icons. */
  distDir: string;
  /** Where the pages' HTML comes from: the build in `distDir`, or Vite's dev server (`npm run dev`). */
  pages: PageSource;
  /** The folder of the icons: `distDir`, or `public/` in development. */
  iconDir: string;
  /** `npm run dev`: the `/iframe_api` script built from source on demand instead of the file in `distDir`. */
  iframeApiFromSource?: () => Promise<string>;
}

/** Vite names every asset after its content hash: they never change under the same name. */
const ASSET_MAX_AGE_MS = 365 * 24 * 3600 * 1000;

/**
 * The pages domain: the embed page with its inlined configuration (`embedRoutes.ts`), the demo host page, the icons,
 * the host SDK script (`/iframe_api`), and the pages' scripts and styles under `/assets/`, as the build wrote them
 * (`npm run build` writes `.br` and `.gz` next to every asset: sent by Accept-Encoding, with `Vary`). Every URL a page
 * is given is root-relative, so it works unchanged behind a TLS-terminating proxy or a CDN under another host name.
 */
export async function registerPages(app: FastifyInstance, options: PagesOptions): Promise<void> {
  const { distDir, pages, iconDir, iframeApiFromSource } = options;
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: resolve(distDir, 'assets'),
      prefix: '/assets/',
      maxAge: ASSET_MAX_AGE_MS,
      immutable: true,
      dotfiles: 'deny',
      index: false,
      preCompressed: true,
    });
    registerEmbedRoutes(scope, options);
    registerHostPageRoute(scope, { pages });
    registerIconRoutes(scope, { iconDir });
    registerIframeApiRoute(scope, { distDir, fromSource: iframeApiFromSource });
  });
}
