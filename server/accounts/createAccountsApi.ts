import type { AccessTokens } from '../tokens/accessTokens';
import type { AccountStore } from './accountStore';

/**
 * What an `Authorization` header proves, for routes that serve anonymous and signed-in viewers alike:
 *
 * - `anonymous`: no header at all. The route answers as for nobody (it is not an error);
 * - `account`: a valid `Bearer vfat1…` token whose session is still signed in. `actingChannelId` is set when the
 *   session acts for a channel (one the account owns or manages, checked again now);
 * - `refused`: a header that proves nothing (malformed, forged, expired, signed out). Answer `status` with `reason`;
 *   never fall back to anonymous, or a client with a stale token would silently see someone else's (nobody's) data.
 *
 * `ok` is true for the first two, so `if (!auth.ok) return reply.code(auth.status)…` reads naturally.
 */
export type AuthorizationCheck =
  | { kind: 'anonymous'; ok: true }
  | { kind: 'account'; ok: true; accountId: string; sessionId: string; actingChannelId?: string; expiresAtMs: number }
  | { kind: 'refused'; ok: false; status: 401; reason: string };

/** What the rest of the server asks the accounts domain (returned by `registerAccounts`). */
export interface Accounts {
  /**
   * Checks an `Authorization` header value (`Bearer vfat1…`): the token's signature and expiry, and that its session
   * still exists, so signing out kills the session's tokens at once rather than at their expiry.
   */
  verifyAuthorization(header: string | undefined): Promise<AuthorizationCheck>;
  /** True when the account owns the channel or is one of its managers. */
  canActFor(accountId: string, channelId: string): Promise<boolean>;
  displayNameOf(accountId: string): Promise<string | undefined>;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The {@link Accounts} calls over a store and a token signer. */
export function createAccountsApi({ store, tokens }: { store: AccountStore; tokens: AccessTokens }): Accounts {
  const refused = (reason: string): AuthorizationCheck => ({ kind: 'refused', ok: false, status: 401, reason });
  return {
    async verifyAuthorization(header) {
      if (header === undefined) return { kind: 'anonymous', ok: true };
      const match = BEARER.exec(header);
      if (!match) return refused('The Authorization header must be "Bearer <access token>"');
      const token = tokens.verify(match[1]);
      if (!token.ok) return refused(token.reason);
      const session = await store.sessionById(token.sessionId);
      if (!session || session.accountId !== token.accountId) return refused('The session of this access token has ended; sign in again');
      if (token.actingChannelId !== undefined && !(await store.canActFor(token.accountId, token.actingChannelId))) {
        return refused(`The account can no longer act for channel ${token.actingChannelId}; ask for a new access token`);
      }
      return {
        kind: 'account',
        ok: true,
        accountId: token.accountId,
        sessionId: token.sessionId,
        ...(token.actingChannelId !== undefined ? { actingChannelId: token.actingChannelId } : {}),
        expiresAtMs: token.expiresAtMs,
      };
    },
    canActFor: (accountId, channelId) => store.canActFor(accountId, channelId),
    displayNameOf: async (accountId) => (await store.accountById(accountId))?.displayName,
  };
}
