import type { FastifyInstance } from 'fastify';
import { PLATFORM_ENDPOINTS, type SubscriptionAnswer } from '../../streams/platform/payloads';
import { findChannel, isValidChannelId } from '../media/catalog';
import { HttpError } from '../http/errors';
import { badField, fieldsOf, requireOpaque, requireText } from './fields';
import { SUBSCRIBE_CHANNEL_IDS_MAX } from './limits';
import { type PlatformContext, requireAccount } from './platformContext';

/** The catalogue channels a subscribe or unsubscribe names: 400 for a malformed list or id, 404 for an unknown channel. */
export function channelIdsOf(fields: Record<string, unknown>, context: PlatformContext): string[] {
  const value = fields.channelIds;
  if (!Array.isArray(value) || value.length === 0 || value.length > SUBSCRIBE_CHANNEL_IDS_MAX) {
    throw badField('channelIds', `must be a non-empty list of at most ${SUBSCRIBE_CHANNEL_IDS_MAX} channel ids`);
  }
  value.forEach((id: unknown, i) => {
    if (!isValidChannelId(id)) throw badField(`channelIds[${i}]`, 'must be a channel id (UC and 22 characters of [A-Za-z0-9_-])');
    if (!findChannel(context.catalog.current(), id)) throw new HttpError(404, `channelIds[${i}]: no channel ${id}`);
  });
  return [...new Set(value as string[])];
}

/**
 * `POST /youtubei/v1/subscription/subscribe` and `…/unsubscribe` (spec §7): a signed-in account (401 otherwise)
 * subscribes to, or unsubscribes from, catalogue channels. Both are idempotent: subscribing again keeps the bell level,
 * unsubscribing from a channel one is not subscribed to changes nothing. A new subscription's bell is `personalized`.
 *
 * A subscribe needs a valid attestation response (`botguardResponse`, spec §4), checked last, just before the write:
 * missing or refused is a 403 with the reason. Unsubscribing needs none (leaving is never the abuse attestation guards).
 *
 * The answer is the state of the first channel named (the embed names one), and `channels` lists each channel's.
 */
export function registerSubscriptionRoutes(app: FastifyInstance, context: PlatformContext, bodyLimit: number): void {
  const answerFor = async (accountId: string, channelId: string): Promise<SubscriptionAnswer> => {
    const level = await context.store.subscription(accountId, channelId);
    return { channelId, subscribed: level !== undefined, ...(level !== undefined && { notificationLevel: level }) };
  };

  app.post(`/youtubei/v1/${PLATFORM_ENDPOINTS.subscribe}`, { bodyLimit }, async (request) => {
    const { viewer, responseContext } = await context.verify(request);
    const accountId = requireAccount(viewer, 'subscribe');
    const fields = fieldsOf(request.body);
    requireText(fields, 'siloName');
    requireOpaque(fields, 'params');
    if (fields.clientFeature !== undefined) requireText(fields, 'clientFeature');
    const channelIds = channelIdsOf(fields, context);
    if (fields.botguardResponse === undefined || fields.botguardResponse === '') {
      throw new HttpError(403, 'A subscribe needs the attestation response (botguardResponse); the embed gets it from the attestation program');
    }
    const attestation = await context.verifyAttestation(fields.botguardResponse);
    if (!attestation.ok) throw new HttpError(403, `The attestation response (botguardResponse) was refused: ${attestation.reason}`);
    await context.store.subscribe(accountId, channelIds);
    const channels = await Promise.all(channelIds.map((id) => answerFor(accountId, id)));
    return { responseContext, ...channels[0], channels };
  });

  app.post(`/youtubei/v1/${PLATFORM_ENDPOINTS.unsubscribe}`, { bodyLimit }, async (request) => {
    const { viewer, responseContext } = await context.verify(request);
    const accountId = requireAccount(viewer, 'unsubscribe');
    const fields = fieldsOf(request.body);
    requireText(fields, 'siloName');
    requireOpaque(fields, 'params');
    const channelIds = channelIdsOf(fields, context);
    await context.store.unsubscribe(accountId, channelIds);
    const channels = await Promise.all(channelIds.map((id) => answerFor(accountId, id)));
    return { responseContext, ...channels[0], channels };
  });
}
