import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Catalog, findPlaylist, findVideo } from '../catalog';

/**
 * `POST /youtubei/v1/next {playlistId}`: a catalogue playlist's ids and titles, for the embed's playlist panel and
 * `loadPlaylist({list})`. A playlist id given as 16 characters without its `PL` prefix is accepted (spec §5).
 * 400 for a body without a string `playlistId`, 404 for an unknown list.
 */
export function registerNextRoute(app: FastifyInstance, catalog: Catalog, respond: (request: FastifyRequest) => Record<string, unknown>): void {
  app.post<{ Body: unknown }>('/youtubei/v1/next', (request, reply) => {
    const responseContext = respond(request);
    const body = request.body as { playlistId?: unknown } | undefined;
    const raw = body && typeof body === 'object' ? body.playlistId : undefined;
    if (typeof raw !== 'string' || raw.length === 0 || raw.length > 200) {
      return reply.code(400).send({ error: { code: 400, message: 'The request body must be a JSON object with a playlistId.' } });
    }
    const id = raw.length === 16 && !raw.startsWith('PL') ? `PL${raw}` : raw;
    const playlist = findPlaylist(catalog, id);
    if (!playlist) return reply.code(404).send({ error: { code: 404, message: 'Playlist not found.' } });
    return {
      responseContext,
      playlistId: playlist.id,
      title: playlist.title,
      videos: playlist.videoIds.map((videoId) => ({ videoId, title: findVideo(catalog, videoId)?.title ?? videoId })),
    };
  });
}
