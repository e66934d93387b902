import type { FastifyInstance } from 'fastify';
import { PLATFORM_ENDPOINTS, type SharePanel } from '../../streams/platform/payloads';
import { type CatalogPlaylist, type CatalogVideo, findPlaylist, findVideo, isValidVideoId } from '../media/catalog';
import type { CurrentCatalog } from '../media/catalogSource';
import { HttpError } from '../http/errors';
import { badField, fieldsOf, isRecord, requireBoolean, requireOpaque } from './fields';
import { SHARE_START_TIME_MAX_SECONDS } from './limits';
import type { PlatformContext } from './platformContext';

const PLAYLIST_ID = /^[A-Za-z0-9_-]{2,64}$/;
/** `t` of a watch link: whole seconds, with or without the `s` the share panel writes. */
const WATCH_TIME = /^(\d{1,6})s?$/;

/** A catalogue video and, optionally, a catalogue playlist: 400 for a malformed id (naming `field`), 404 for an unknown one. */
function sharedOf(
  catalog: CurrentCatalog,
  videoId: unknown,
  playlistId: unknown,
  fields: { video: string; playlist: string },
): { video: CatalogVideo; playlist?: CatalogPlaylist } {
  if (!isValidVideoId(videoId)) throw badField(fields.video, 'must be a video id (11 characters of [A-Za-z0-9_-])');
  const video = findVideo(catalog.current(videoId), videoId);
  if (!video) throw new HttpError(404, `${fields.video}: no video ${videoId}`);
  if (playlistId === undefined) return { video };
  if (typeof playlistId !== 'string' || !PLAYLIST_ID.test(playlistId))
    throw badField(fields.playlist, 'must be a playlist id (2 to 64 characters of [A-Za-z0-9_-])');
  const playlist = findPlaylist(catalog.current(), playlistId);
  if (!playlist) throw new HttpError(404, `${fields.playlist}: no playlist ${playlistId}`);
  return { video, playlist };
}

/** The panel's links, root-relative (the page makes them absolute with its own origin, behind whatever proxy). */
function panelFor(video: CatalogVideo, playlist: CatalogPlaylist | undefined, startSeconds: number): SharePanel {
  const watch = `/watch?v=${video.id}`;
  return {
    title: video.title,
    videoUrl: watch,
    ...(startSeconds > 0 && { videoUrlAtTime: `${watch}&t=${startSeconds}s` }),
    ...(playlist && { playlistUrl: `${watch}&list=${playlist.id}` }),
    embedUrl: `/embed/${video.id}${playlist ? `?list=${playlist.id}` : ''}`,
  };
}

/**
 * The two share calls of spec §7 and the page their links open. Anonymous viewers may share (the request is still
 * verified: anti-forgery field, visitor id).
 *
 * - `share/get_share_panel {serializedSharedEntity, clientParams: {startTimeSeconds?}}`: the video's links, with a
 *   link at the start time when it is more than 0 (whole seconds), and the playlist's when the entity names one.
 * - `share/get_web_player_share_panel {serializedSharedEntity, includeListId}`: the same, the playlist only when
 *   `includeListId` is true.
 * - `GET /watch?v=ID&t=Ns&list=LIST`: a shared link opens the embed page (302 to `/embed/ID?start=N&list=LIST`);
 *   a malformed parameter is a 400 naming it, an unknown video or playlist a 404.
 */
export function registerShareRoutes(app: FastifyInstance, context: PlatformContext, bodyLimit: number): void {
  const entityOf = (fields: Record<string, unknown>) => {
    const entity = requireOpaque(fields, 'serializedSharedEntity');
    return sharedOf(context.catalog, entity.videoId, entity.playlistId, {
      video: 'serializedSharedEntity.videoId',
      playlist: 'serializedSharedEntity.playlistId',
    });
  };

  app.post(`/youtubei/v1/${PLATFORM_ENDPOINTS.sharePanel}`, { bodyLimit }, async (request) => {
    const { responseContext } = await context.verify(request);
    const fields = fieldsOf(request.body);
    const { video, playlist } = entityOf(fields);
    const { clientParams } = fields;
    if (clientParams !== undefined && !isRecord(clientParams)) throw badField('clientParams', 'must be an object');
    const start = clientParams?.startTimeSeconds;
    if (start !== undefined && (typeof start !== 'number' || !Number.isFinite(start) || start < 0 || start > SHARE_START_TIME_MAX_SECONDS)) {
      throw badField('clientParams.startTimeSeconds', `must be a number of seconds from 0 to ${SHARE_START_TIME_MAX_SECONDS}`);
    }
    return { responseContext, ...panelFor(video, playlist, Math.floor((start as number | undefined) ?? 0)) };
  });

  app.post(`/youtubei/v1/${PLATFORM_ENDPOINTS.webPlayerSharePanel}`, { bodyLimit }, async (request) => {
    const { responseContext } = await context.verify(request);
    const fields = fieldsOf(request.body);
    const { video, playlist } = entityOf(fields);
    const includeListId = requireBoolean(fields, 'includeListId');
    return { responseContext, ...panelFor(video, includeListId ? playlist : undefined, 0) };
  });

  app.get<{ Querystring: Record<string, unknown> }>('/watch', (request, reply) => {
    const { v, t, list } = request.query;
    const { video, playlist } = sharedOf(context.catalog, v, list, { video: 'v', playlist: 'list' });
    let start = 0;
    if (t !== undefined) {
      const match = typeof t === 'string' ? WATCH_TIME.exec(t) : null;
      if (!match) throw badField('t', 'must be whole seconds, like 42s');
      start = Number(match[1]);
    }
    const query = new URLSearchParams({ ...(start > 0 && { start: String(start) }), ...(playlist && { list: playlist.id }) }).toString();
    return reply
      .code(302)
      .header('location', `/embed/${video.id}${query ? `?${query}` : ''}`)
      .send();
  });
}
