import type { FastifyInstance } from 'fastify';
import { NOTIFICATION_LEVELS, PLATFORM_ENDPOINTS, type ChannelPreferenceAnswer, type NotificationLevel } from '../../streams/platform/payloads';
import { findChannel, isValidChannelId } from '../media/catalog';
import { HttpError } from '../http/errors';
import { badField, fieldsOf, requireOpaque } from './fields';
import { type PlatformContext, requireAccount } from './platformContext';

/**
 * `POST /youtubei/v1/notification/modify_channel_preference` (spec §7): the bell level of a channel the signed-in
 * account is subscribed to. `params` is `encodeChannelPreferenceParams({channelId, level})`, `secondaryParams` where it
 * was changed. 400 names the bad field (`params.channelId`, `params.level`), 404 an unknown channel.
 *
 * Not subscribed is a 409 (Conflict), not a 400: the request is well formed, the account's state does not allow it
 * yet, and the client's fix is to subscribe first (the embed only shows the bell while subscribed).
 */
export function registerChannelPreferenceRoute(app: FastifyInstance, context: PlatformContext, bodyLimit: number): void {
  app.post(`/youtubei/v1/${PLATFORM_ENDPOINTS.modifyChannelPreference}`, { bodyLimit }, async (request) => {
    const { viewer, responseContext } = await context.verify(request);
    const accountId = requireAccount(viewer, 'change the notifications of a channel');
    const fields = fieldsOf(request.body);
    const params = requireOpaque(fields, 'params');
    requireOpaque(fields, 'secondaryParams');
    const { channelId, level } = params;
    if (!isValidChannelId(channelId)) throw badField('params.channelId', 'must be a channel id (UC and 22 characters of [A-Za-z0-9_-])');
    if (!(NOTIFICATION_LEVELS as readonly unknown[]).includes(level)) throw badField('params.level', `must be one of ${NOTIFICATION_LEVELS.join(', ')}`);
    if (!findChannel(context.catalog.current(), channelId)) throw new HttpError(404, `params.channelId: no channel ${channelId}`);
    if (!(await context.store.setNotificationLevel(accountId, channelId, level as NotificationLevel))) {
      throw new HttpError(409, `Subscribe to channel ${channelId} before changing its notifications`);
    }
    const answer: ChannelPreferenceAnswer = { channelId, notificationLevel: level as NotificationLevel };
    return { responseContext, ...answer };
  });
}
