import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { VideoViewerState } from '../../streams/platform/payloads';
import { type Catalog, findPlaylist, findVideo } from '../media/catalog';
import type { ApiViewer } from './verifyApiRequest';

/**
 * A video's state for a viewer, which `next {videoId}` answers; the platform domain provides it. Throws a 400 for a
 * malformed id and a 404 for an unknown video.
 */
export type VideoViewerStateOf = (viewer: ApiViewer, videoId: unknown) => VideoViewerState;

/**
 * `POST /youtubei/v1/next`, two questions in one call:
 *
 * - `{playlistId}`: a catalogue playlist's ids and titles, for the embed's playlist panel and `loadPlaylist({list})`.
 *   A playlist id given as 16 characters without its `PL` prefix is accepted (spec §5). 404 for an unknown list.
 * - `{videoId}`: the video's state for the verified viewer (channel, subscription, watch later, feedback tokens), which
 *   the platform domain answers (`videoViewerState`); the embed asks it after load and after sign-in or sign-out.
 *
 * 400 for a body with neither a string `playlistId` nor a `videoId`.
 */
export function registerNextRoute(
  app: FastifyInstance,
  catalog: Catalog,
  verify: (request: FastifyRequest) => { viewer: ApiViewer; responseContext: Record<string, unknown> },
  videoViewerState?: VideoViewerStateOf,
): void {
  app.post<{ Body: unknown }>('/youtubei/v1/next', (request, reply) => {
    const { viewer, responseContext } = verify(request);
    const body = request.body as { playlistId?: unknown; videoId?: unknown } | undefined;
    const raw = body && typeof body === 'object' ? body.playlistId : undefined;
    if (raw === undefined && videoViewerState && body && typeof body === 'object' && 'videoId' in body) {
      return { responseContext, ...videoViewerState(viewer, body.videoId) };
    }
    if (typeof raw !== 'string' || raw.length === 0 || raw.length > 200) {
      const what = videoViewerState ? 'a playlistId or a videoId' : 'a playlistId';
      return reply.code(400).send({ error: { code: 400, message: `The request body must be a JSON object with ${what}.` } });
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
