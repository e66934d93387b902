import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { findVideo } from './catalog';
import type { CatalogSource } from './catalogSource';
import { errorBody } from '../http/errors';

export interface PosterRouteOptions {
  /** The catalogue, and the folder each video's `poster` path is relative to. */
  catalog: Pick<CatalogSource, 'current' | 'folderOf'>;
}

/** `GET /vi/{videoId}/poster`: the path a host page builds from a video id alone (the React facade does). */
export const posterPath = (videoId: string): string => `/vi/${encodeURIComponent(videoId)}/poster`;

/** A day: posters change only when `npm run media` regenerates them, and the ETag revalidates after that. */
const CACHE_CONTROL = 'public, max-age=86400';

const IMAGE_TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp' };

/**
 * The poster (thumbnail) of a catalogue video under a URL a host page can build from the video id, as
 * `/vi/{id}/hqdefault.jpg` is for YouTube's: the lazy facade of the React binding shows it before any
 * iframe exists. The catalogue's own path (`/media/videos/…/poster.jpg`) is the server's business, not the host's.
 *
 * Root-relative, served to any site (`Cross-Origin-Resource-Policy: cross-origin`, the server's default). A malformed
 * id is a 400, an unknown video or one without a poster a 404. Each file is read once, on first use (a library entry
 * that changes names a new version folder, so a new file); its ETag is its content hash, so a regenerated poster is
 * fetched again after the day of caching.
 */
export function registerPosters(app: FastifyInstance, { catalog }: PosterRouteOptions): void {
  const loaded = new Map<string, { body: Buffer; type: string; etag: string }>();
  app.get<{ Params: { videoId: string } }>(
    '/vi/:videoId/poster',
    { schema: { params: { type: 'object', required: ['videoId'], properties: { videoId: { type: 'string', pattern: '^[A-Za-z0-9_-]{11}$' } } } } },
    (request, reply) => {
      const { videoId } = request.params;
      const video = findVideo(catalog.current(videoId), videoId);
      if (!video) return reply.code(404).send(errorBody(404, `No video ${videoId} in the catalogue`));
      if (!video.poster) return reply.code(404).send(errorBody(404, `The video ${videoId} has no poster`));
      const path = resolve(catalog.folderOf(video), video.poster);
      let poster = loaded.get(path);
      if (!poster) {
        // The catalogue checked that the file exists inside the video's folder; a library's file may go since.
        let body: Buffer;
        try {
          body = readFileSync(path);
        } catch {
          return reply.code(404).send(errorBody(404, `The poster of ${videoId} is gone`));
        }
        const type = IMAGE_TYPES[extname(video.poster).toLowerCase()] ?? 'application/octet-stream';
        poster = { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
        loaded.set(path, poster);
      }
      reply.header('cache-control', CACHE_CONTROL).header('etag', poster.etag);
      if (request.headers['if-none-match'] === poster.etag) return reply.code(304).send();
      return reply.type(poster.type).send(poster.body);
    },
  );
}
