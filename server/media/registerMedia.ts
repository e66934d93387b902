import { mkdirSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { LIBRARY_FILES_FOLDER } from './catalogLibrary';
import type { CatalogSource } from './catalogSource';
import { MEDIA_MAX_AGE_MS } from './limits';
import { registerPosters } from './registerPosters';

export interface MediaOptions {
  catalog: CatalogSource;
  /** The sample media and its `catalog.json`. */
  mediaDir: string;
  /** The library of ingested videos (`VIDFRAME_LIBRARY_DIR`). */
  libraryDir: string;
}

/**
 * The types of the streaming files, which players check: a manifest or a segment under a generic type is refused by
 * some of them (and a browser sniffs nothing here: `X-Content-Type-Options: nosniff`).
 */
const STREAMING_TYPES: Record<string, string> = {
  '.mpd': 'application/dash+xml',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
  '.m4a': 'audio/mp4',
  '.webm': 'video/webm',
  '.jpg': 'image/jpeg',
};

/**
 * Headers of every media and library file: its streaming type, and `Access-Control-Allow-Origin: *`, because players
 * on other origins (hls.js, shaka-player, dash.js, a site's own) fetch the manifests and segments with `fetch`/XHR.
 * Nothing here is private (no cookie decides what a file holds), so any origin may read it.
 */
function setMediaHeaders(reply: FastifyReply, path: string): void {
  const type = STREAMING_TYPES[extname(path).toLowerCase()];
  if (type) reply.header('content-type', type);
  reply.header('access-control-allow-origin', '*');
}

/**
 * The media domain's routes: the files of the media folder under `/media/` and the library's files under
 * `/library/videos/`, with range requests (the player seeks and the browser streams through them), each video's
 * poster at a URL built from its id alone (`/vi/{id}/poster`, which the React binding's lazy facade shows), and the
 * library's watcher, which stops when the server closes. Only `videos/` of the library is served: its entries are
 * the server's business.
 */
export async function registerMedia(app: FastifyInstance, { catalog, mediaDir, libraryDir }: MediaOptions): Promise<void> {
  const libraryFiles = resolve(libraryDir, LIBRARY_FILES_FOLDER);
  try {
    mkdirSync(libraryFiles, { recursive: true });
  } catch (error) {
    app.log.warn(`Library: cannot create ${libraryFiles} (${(error as Error).message})`);
  }
  const common = { decorateReply: false, acceptRanges: true, maxAge: MEDIA_MAX_AGE_MS, dotfiles: 'deny', index: false, setHeaders: setMediaHeaders } as const;
  await app.register(fastifyStatic, { ...common, root: mediaDir, prefix: '/media/' });
  // A library file sits in a version folder that never changes once an entry names it.
  await app.register(fastifyStatic, { ...common, immutable: true, root: libraryFiles, prefix: `/library/${LIBRARY_FILES_FOLDER}/` });
  const stopWatching = catalog.watch();
  app.addHook('onClose', async () => stopWatching());
  registerPosters(app, { catalog });
}
