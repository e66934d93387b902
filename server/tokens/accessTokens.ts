import { fixedKey, keyFileOf, sharedSecretKey } from './keys';
import { ACCESS_TOKEN_LIFETIME_MS, ACCESS_TOKEN_MAX_CHARS } from './limits';
import { readClaimsWithKeys, signClaims } from './signing';

/**
 * Short-lived access tokens for the API calls of a signed-in viewer:
 *
 *   `vfat1.{base64url(JSON {"sub": accountId, "sid": sessionId, "ch"?: actingChannelId, "exp": expiry ms})}.{base64url HMAC-SHA256 of "vfat1.{payload}"}`
 *
 * The middle part is plain JSON on purpose: the client reads `sub` (who is signed in) from it without a key, and the
 * server trusts it only after checking the signature. A token names its session (`sid`), so `verifyAuthorization`
 * refuses it at once when that session is signed out, however long it has left.
 *
 * The key is a shared `secret` (several servers behind one load balancer, at least 32 characters) or 32 random bytes
 * generated into `keyFile` (`{dataDir}/secrets/access-token-key`, mode 0600) on the first start and read back on the
 * next. A shared key's predecessor (`previousSecret`) keeps verifying what it signed; a key replaced otherwise only
 * makes live tokens fail, and clients then ask for new ones with their session.
 */
export interface AccessTokens {
  /** Signs a token for a session; it expires after the lifetime, or with the session if that comes first. */
  issue(claims: AccessTokenClaims & { notAfterMs?: number }): { token: string; expiresAtMs: number };
  /** What a token says once its signature and expiry are checked, or why it is refused. */
  verify(token: unknown): AccessTokenCheck;
}

export interface AccessTokenClaims {
  accountId: string;
  /** The public session id (`sessionIdOf`). */
  sessionId: string;
  /** The channel the session acts for; absent: the account itself. */
  actingChannelId?: string;
}

export type AccessTokenCheck = ({ ok: true; expiresAtMs: number } & AccessTokenClaims) | { ok: false; reason: AccessTokenRefusal };

/** Why a token is refused, in words a client can show. */
export type AccessTokenRefusal = 'The access token has expired; sign in again' | 'The access token is malformed' | 'The access token signature is invalid';

export interface AccessTokenOptions {
  /** A shared key (at least 32 characters); wins over `keyFile`. */
  secret?: string;
  /** The shared key `secret` replaced: tokens it signed still verify. */
  previousSecret?: string;
  /** Where the generated key is kept (mode 0600). */
  keyFile?: string;
  now?: () => number;
  lifetimeMs?: number;
}

const PREFIX = 'vfat1';

const isText = (value: unknown, max = 200): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;

export function createAccessTokens({
  secret,
  previousSecret,
  keyFile,
  now = Date.now,
  lifetimeMs = ACCESS_TOKEN_LIFETIME_MS,
}: AccessTokenOptions): AccessTokens {
  const key = fixedKey({ secret, keyFile }, 'access-token', 'createAccessTokens');
  const keys = secret !== undefined && previousSecret ? [key, sharedSecretKey(previousSecret, 'The previous access-token secret')] : [key];

  return {
    issue({ accountId, sessionId, actingChannelId, notAfterMs }) {
      const expiresAtMs = Math.min(now() + lifetimeMs, notAfterMs ?? Number.POSITIVE_INFINITY);
      const claims = { sub: accountId, sid: sessionId, ...(actingChannelId ? { ch: actingChannelId } : {}), exp: expiresAtMs };
      return { token: signClaims(key, PREFIX, claims), expiresAtMs };
    },
    verify(token) {
      const malformed = { ok: false, reason: 'The access token is malformed' } as const;
      const read = readClaimsWithKeys(keys, PREFIX, token, ACCESS_TOKEN_MAX_CHARS);
      if (!read.ok) return read.problem === 'signature' ? { ok: false, reason: 'The access token signature is invalid' } : malformed;
      const claims = read.claims as { sub?: unknown; sid?: unknown; ch?: unknown; exp?: unknown } | null;
      if (typeof claims !== 'object' || claims === null || !isText(claims.sub) || !isText(claims.sid) || !Number.isSafeInteger(claims.exp)) return malformed;
      if (claims.ch !== undefined && !isText(claims.ch)) return malformed;
      const expiresAtMs = claims.exp as number;
      if (now() >= expiresAtMs) return { ok: false, reason: 'The access token has expired; sign in again' };
      return {
        ok: true,
        accountId: claims.sub,
        sessionId: claims.sid,
        ...(claims.ch !== undefined ? { actingChannelId: claims.ch as string } : {}),
        expiresAtMs,
      };
    },
  };
}

/** The access tokens with their key (`keys.ts`): the shared access-token secret, else `secrets/access-token-key`. */
export const createAccessTokensFor = ({
  dataDir,
  secret,
  previousSecret,
  now,
}: {
  dataDir: string;
  secret?: string;
  previousSecret?: string;
  now?: () => number;
}): AccessTokens => createAccessTokens(secret !== undefined ? { secret, previousSecret, now } : { keyFile: keyFileOf(dataDir, 'access'), now });
