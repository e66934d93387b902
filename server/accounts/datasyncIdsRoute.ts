import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http/errors';
import type { Accounts } from './createAccountsApi';

/** What starts every answer of `/getDatasyncIdsEndpoint`, as on YouTube: a JSON-hijacking guard the client strips. */
export const DATASYNC_IDS_PREFIX = ")]}'\n";

/**
 * The datasync id of a verified viewer: `"{actingChannelId}||{accountId}"` when the session acts for a channel,
 * `"{accountId}||"` otherwise. The client keys its per-user storage (IndexedDB names) by it.
 */
export const datasyncIdOf = (accountId: string, actingChannelId?: string): string => (actingChannelId ? `${actingChannelId}||${accountId}` : `${accountId}||`);

/**
 * `GET /getDatasyncIdsEndpoint`: who the client's storage belongs to. With `Authorization: Bearer vfat1…` the one id
 * of the token's account (or the channel it acts for); without the header, no id (`[]`, the signed-out viewer); a
 * header that proves nothing (malformed, forged, expired, signed out) is 401 with the reason, never a silent `[]`.
 * Never cached: the answer changes with who is signed in.
 */
export function registerDatasyncIdsRoute(scope: FastifyInstance, accounts: Pick<Accounts, 'verifyAuthorization'>): void {
  scope.get('/getDatasyncIdsEndpoint', async (request, reply) => {
    reply.header('cache-control', 'no-store').header('vary', 'authorization');
    const auth = await accounts.verifyAuthorization(request.headers.authorization);
    if (auth.kind === 'refused') {
      return reply.code(auth.status).header('www-authenticate', 'Bearer error="invalid_token"').send(errorBody(auth.status, auth.reason));
    }
    const datasyncIds = auth.kind === 'account' ? [datasyncIdOf(auth.accountId, auth.actingChannelId)] : [];
    return reply.type('application/json; charset=utf-8').send(`${DATASYNC_IDS_PREFIX}${JSON.stringify({ responseContext: {}, datasyncIds })}`);
  });
}
