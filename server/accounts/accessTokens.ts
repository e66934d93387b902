import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ACCESS_TOKEN_MAX_CHARS } from './limits';

/** How long an access token lives: 15 minutes. The embed asks `/accounts/token` for a new one before then. */
export const ACCESS_TOKEN_LIFETIME_MS = 15 * 60 * 1000;

/**
 * Short-lived access tokens for the API calls of a signed-in viewer (issue 13):
 *
 *   `vfat1.{base64url(JSON {"sub": accountId, "sid": sessionId, "ch"?: actingChannelId, "exp": expiry ms})}.{base64url HMAC-SHA256 of "vfat1.{payload}"}`
 *
 * The middle part is plain JSON on purpose: the client reads `sub` (who is signed in) from it without a key, and the
 * server trusts it only after checking the signature. A token names its session (`sid`), so `verifyAuthorization`
 * refuses it at once when that session is signed out, however long it has left.
 *
 * The key is a shared `secret` (several servers behind one load balancer, at least 32 characters) or 32 random bytes
 * generated into `keyFile` (`{dataDir}/secrets/access-token-key`, mode 0600) on the first start and read back on the
 * next. Replacing the key only makes live tokens fail; clients then ask for new ones with their session.
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
  /** Where the generated key is kept (mode 0600). */
  keyFile?: string;
  now?: () => number;
  lifetimeMs?: number;
}

const PREFIX = 'vfat1';
const TOKEN = /^vfat1\.([A-Za-z0-9_-]{8,})\.([A-Za-z0-9_-]{43})$/;

/**
 * The key in the key file, generated (atomically, 0600) when the file is absent. Also the platform's feedback-token
 * key (`server/platform/feedbackTokens.ts`), with its own file: `label` names the key in the error.
 */
export function loadOrCreateKey(keyFile: string, label = 'access-token'): Buffer {
  if (existsSync(keyFile)) {
    const key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64url');
    if (key.length !== 32) throw new Error(`The ${label} key file ${keyFile} does not hold a 32-byte key; restore it or delete it to generate a new one`);
    return key;
  }
  const key = randomBytes(32);
  mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
  const tmp = `${keyFile}.tmp`;
  writeFileSync(tmp, `${key.toString('base64url')}\n`, { mode: 0o600 });
  renameSync(tmp, keyFile); // a crash leaves no file or the whole file, never half of a key
  chmodSync(keyFile, 0o600);
  return key;
}

const isText = (value: unknown, max = 200): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;

export function createAccessTokens({ secret, keyFile, now = Date.now, lifetimeMs = ACCESS_TOKEN_LIFETIME_MS }: AccessTokenOptions): AccessTokens {
  let key: Buffer;
  if (secret !== undefined) {
    if (secret.length < 32) throw new Error('The access-token secret must be at least 32 characters');
    key = Buffer.from(secret, 'utf8');
  } else {
    if (!keyFile) throw new Error('createAccessTokens needs a key file or a secret');
    key = loadOrCreateKey(keyFile);
  }
  const sign = (body: string) => createHmac('sha256', key).update(body).digest('base64url');

  return {
    issue({ accountId, sessionId, actingChannelId, notAfterMs }) {
      const expiresAtMs = Math.min(now() + lifetimeMs, notAfterMs ?? Number.POSITIVE_INFINITY);
      const claims = { sub: accountId, sid: sessionId, ...(actingChannelId ? { ch: actingChannelId } : {}), exp: expiresAtMs };
      const body = `${PREFIX}.${Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url')}`;
      return { token: `${body}.${sign(body)}`, expiresAtMs };
    },
    verify(token) {
      const malformed = { ok: false, reason: 'The access token is malformed' } as const;
      if (typeof token !== 'string' || token.length > ACCESS_TOKEN_MAX_CHARS) return malformed;
      const match = TOKEN.exec(token);
      if (!match) return malformed;
      // Compared as text: base64url decoding ignores a last character's spare bits, so comparing decoded bytes would
      // accept several spellings of one signature.
      const expected = Buffer.from(sign(`${PREFIX}.${match[1]}`));
      const given = Buffer.from(match[2]);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'The access token signature is invalid' };
      let claims: { sub?: unknown; sid?: unknown; ch?: unknown; exp?: unknown };
      try {
        claims = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8'));
      } catch {
        return malformed;
      }
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
