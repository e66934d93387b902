import type { FastifyInstance } from 'fastify';
import { PLATFORM_ENDPOINTS, WATCH_LATER_PLAYLIST_ID, type EditPlaylistAnswer } from '../../streams/platform/payloads';
import { findPlaylist, findVideo, isValidVideoId } from '../media/catalog';
import { HttpError } from '../http/errors';
import { badField, fieldsOf, isRecord, requireOpaque, requireText } from './fields';
import { EDIT_PLAYLIST_ACTIONS_MAX, WATCH_LATER_MAX_VIDEOS } from './limits';
import { type PlatformContext, requireAccount } from './platformContext';
import { WatchLaterFull } from './platformStore';

/**
 * `POST /youtubei/v1/browse/edit_playlist` (spec §7): the signed-in account's watch later (`WL`, each account its
 * own). Actions add or remove by video id and apply in order, all or none: every action is checked before any is
 * applied (400 naming `actions[i]…`, 404 naming an unknown video), and a list that would pass
 * {@link WATCH_LATER_MAX_VIDEOS} rolls the whole request back (400). A duplicate add and the remove of an absent
 * video are no-ops, so a retried request is harmless. Catalogue playlists are the catalogue's: 403, not editable.
 *
 * Answers the list after the actions, oldest addition first.
 */
export function registerEditPlaylistRoute(app: FastifyInstance, context: PlatformContext, bodyLimit: number): void {
  app.post(`/youtubei/v1/${PLATFORM_ENDPOINTS.editPlaylist}`, { bodyLimit }, async (request) => {
    const { viewer, responseContext } = await context.verify(request);
    const accountId = requireAccount(viewer, 'edit your watch later');
    const fields = fieldsOf(request.body);
    requireOpaque(fields, 'params');
    const playlistId = requireText(fields, 'playlistId');
    if (playlistId !== WATCH_LATER_PLAYLIST_ID) {
      if (findPlaylist(context.catalog.current(), playlistId))
        throw new HttpError(403, `playlistId: ${playlistId} is a catalogue playlist; only watch later (WL) is editable`);
      throw new HttpError(404, `playlistId: no playlist ${playlistId.slice(0, 64)} (only watch later, WL, is editable)`);
    }
    const { actions } = fields;
    if (!Array.isArray(actions) || actions.length === 0) throw badField('actions', 'must be a non-empty list of playlist actions');
    if (actions.length > EDIT_PLAYLIST_ACTIONS_MAX) {
      throw new HttpError(413, `actions holds ${actions.length} actions; at most ${EDIT_PLAYLIST_ACTIONS_MAX} per request`);
    }
    const edits: ({ add: string } | { remove: string })[] = [];
    for (const [i, action] of (actions as unknown[]).entries()) {
      if (!isRecord(action)) throw badField(`actions[${i}]`, 'must be an object');
      const [field, kind] =
        action.action === 'ACTION_ADD_VIDEO'
          ? (['addedVideoId', 'add'] as const)
          : action.action === 'ACTION_REMOVE_VIDEO_BY_VIDEO_ID'
            ? (['removedVideoId', 'remove'] as const)
            : [undefined, undefined];
      if (!field) throw badField(`actions[${i}].action`, 'must be ACTION_ADD_VIDEO or ACTION_REMOVE_VIDEO_BY_VIDEO_ID');
      const videoId = action[field];
      if (!isValidVideoId(videoId)) throw badField(`actions[${i}].${field}`, 'must be a video id (11 characters of [A-Za-z0-9_-])');
      // An unknown video is a 404, except that one the catalogue no longer holds may still be removed from the list.
      const known =
        findVideo(context.catalog.current(videoId), videoId) !== undefined || (kind === 'remove' && (await context.store.isInWatchLater(accountId, videoId)));
      if (!known) throw new HttpError(404, `actions[${i}].${field}: no video ${videoId}`);
      edits.push(kind === 'add' ? { add: videoId } : { remove: videoId });
    }
    try {
      const answer: EditPlaylistAnswer = { playlistId, videoIds: await context.store.editWatchLater(accountId, edits, WATCH_LATER_MAX_VIDEOS) };
      return { responseContext, ...answer };
    } catch (error) {
      if (error instanceof WatchLaterFull) throw new HttpError(400, error.message);
      throw error;
    }
  });
}
