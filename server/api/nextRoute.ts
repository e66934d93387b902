import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { VideoViewerState } from '../../streams/platform/payloads';
import { PLAYLIST_LIST_MAX_CHARS } from '../../streams/timing';
import { type Catalog, findVideo } from '../media/catalog';
import type { CurrentCatalog } from '../media/catalogSource';
import { type CatalogList, channelUploads, findList, searchCatalog } from '../media/catalogLists';
import { endScreenOverlays } from './endScreenResults';
import type { ApiViewer } from './verifyApiRequest';
import { playerViewerOf } from './playerViewer';

/**
 * A video's state for a viewer, which `next {videoId}` answers; the platform domain provides it. Throws a 400 for a
 * malformed id and a 404 for an unknown video.
 */
export type VideoViewerStateOf = (viewer: ApiViewer, videoId: unknown) => Promise<VideoViewerState>;

/** What `next` answers for a list: the list, or a status and why. */
type ListAnswer = { list: CatalogList } | { status: 400 | 404; message: string };

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '' && v.length <= PLAYLIST_LIST_MAX_CHARS;

/** The list a `next` body names: `{playlistId}`, or `{listType: 'user_uploads' | 'search' | 'playlist', list}`. */
function listAnswer(catalog: Catalog, listType: unknown, list: unknown): ListAnswer {
  if (listType !== 'playlist' && listType !== 'user_uploads' && listType !== 'search') {
    return { status: 400, message: 'listType must be playlist, user_uploads or search.' };
  }
  if (!isText(list)) return { status: 400, message: `list must be a text of 1 to ${PLAYLIST_LIST_MAX_CHARS} characters.` };
  if (listType === 'user_uploads') {
    const uploads = channelUploads(catalog, list);
    return uploads ? { list: uploads } : { status: 404, message: 'Channel not found.' };
  }
  if (listType === 'search') {
    const found = searchCatalog(catalog, list);
    return found ? { list: found } : { status: 404, message: 'No video matches the search.' };
  }
  // A playlist id given as 16 characters without its `PL` prefix is that playlist (spec §5).
  const id = list.length === 16 && !list.startsWith('PL') ? `PL${list}` : list;
  const playlist = findList(catalog, id);
  return playlist ? { list: playlist } : { status: 404, message: 'Playlist not found.' };
}

/**
 * `POST /youtubei/v1/next`, two questions in one call:
 *
 * - a list, for the embed's playlist panel and `loadPlaylist`: `{playlistId}` (a catalogue playlist, or a channel's
 *   uploads list `UU…`; 16 characters without the `PL` prefix are accepted, spec §5), or `{listType, list}` with
 *   `listType` `user_uploads` (`list`: a channel id or its author's name) or `search` (`list`: a query, every word of
 *   which a title must have). The answer: `{playlistId, title, videos: [{videoId, title}]}`, `playlistId` null for a
 *   search. 404 when the list names no video.
 * - `{videoId}`: the video's state for the verified viewer (channel, subscription, watch later, feedback tokens), which
 *   the platform domain answers (`videoViewerState`); the embed asks it after load and after sign-in or sign-out.
 *   With it, YouTube's `playerOverlays` end screen: the videos to suggest at the end and on pause
 *   ({@link endScreenOverlays}; `sameChannelOnly: true`, the player's `rel=0`, keeps the video's channel only).
 *
 * 400 for a body with neither a `playlistId`, a `listType` nor a `videoId`, and for a list that is not a text of 1 to
 * {@link PLAYLIST_LIST_MAX_CHARS} characters.
 */
export function registerNextRoute(
  app: FastifyInstance,
  catalog: CurrentCatalog,
  verify: (request: FastifyRequest) => Promise<{ viewer: ApiViewer; responseContext: Record<string, unknown> }>,
  videoViewerState?: VideoViewerStateOf,
): void {
  app.post<{ Body: unknown }>('/youtubei/v1/next', async (request, reply) => {
    const { viewer, responseContext } = await verify(request);
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as { playlistId?: unknown; listType?: unknown; list?: unknown };
    const byList = body.playlistId === undefined && 'listType' in body;
    if (body.playlistId === undefined && !byList && videoViewerState && 'videoId' in body) {
      const { videoId, sameChannelOnly } = body as { videoId?: unknown; sameChannelOnly?: unknown };
      const state = await videoViewerState(viewer, videoId);
      const video = findVideo(catalog.current(), state.videoId);
      const playerOverlays = video ? endScreenOverlays(catalog.current(), video, sameChannelOnly === true, playerViewerOf(viewer, body)) : undefined;
      return { responseContext, ...state, playerOverlays };
    }
    if (!byList && typeof body.playlistId !== 'string') {
      const what = videoViewerState ? 'a playlistId or a videoId' : 'a playlistId';
      return reply.code(400).send({ error: { code: 400, message: `The request body must be a JSON object with ${what}.` } });
    }
    const current = catalog.current();
    const answer = byList ? listAnswer(current, body.listType, body.list) : listAnswer(current, 'playlist', body.playlistId);
    if ('status' in answer) return reply.code(answer.status).send({ error: { code: answer.status, message: answer.message } });
    const { list } = answer;
    return {
      responseContext,
      playlistId: list.id,
      title: list.title,
      videos: list.videoIds.map((videoId) => ({ videoId, title: findVideo(current, videoId)?.title ?? videoId })),
    };
  });
}
