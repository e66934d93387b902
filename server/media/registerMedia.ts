import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Catalog } from './catalog';
import { registerPosters } from './registerPosters';

export interface MediaOptions {
  catalog: Catalog;
  /** The sample media and its `catalog.json`. */
  mediaDir: string;
}

/** A media file never changes under its name (`npm run media` writes new names): cached for a year. */
const MEDIA_MAX_AGE_MS = 365 * 24 * 3600 * 1000;

/**
 * The media domain's routes: the files of the media folder under `/media/` with range requests (the player seeks
 * and the browser streams through them), and each video's poster at a URL built from its id alone
 * (`/vi/{id}/poster`, which the React binding's lazy facade shows).
 */
export async function registerMedia(app: FastifyInstance, { catalog, mediaDir }: MediaOptions): Promise<void> {
  await app.register(fastifyStatic, {
    root: mediaDir,
    prefix: '/media/',
    decorateReply: false,
    acceptRanges: true,
    maxAge: MEDIA_MAX_AGE_MS,
    dotfiles: 'deny',
    index: false,
  });
  registerPosters(app, { catalog, mediaDir });
}
