import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The one signature of every server-signed token: HMAC-SHA256 of the token's body under its key, base64url (43
 * characters). A key given as text signs as its UTF-8 bytes.
 */
export const signBody = (key: string | Buffer, body: string): string => createHmac('sha256', key).update(body).digest('base64url');

/**
 * Whether `signature` is the signature of `body` under `key`, compared in constant time. Compared as text: base64url
 * decoding ignores a last character's spare bits, so comparing decoded bytes would accept several spellings of one
 * signature.
 */
export function signatureMatches(key: string | Buffer, body: string, signature: string): boolean {
  const expected = Buffer.from(signBody(key, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A token that carries its claims as readable JSON: `{prefix}.{base64url(JSON claims)}.{signature of "{prefix}.{payload}"}`.
 * Signed, not encrypted: a client may read the claims without a key; the server trusts them only after the signature.
 */
export function signClaims(key: string | Buffer, prefix: string, claims: Record<string, unknown>): string {
  const body = `${prefix}.${Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url')}`;
  return `${body}.${signBody(key, body)}`;
}

/** What {@link readClaims} finds: the claims once the signature holds, or which check failed. */
export type ClaimsCheck = { ok: true; claims: unknown } | { ok: false; problem: 'malformed' | 'signature' };

/**
 * The claims of a {@link signClaims} token, in this order of checks: text of at most `maxChars` of the token's shape
 * (else malformed), its signature (else signature), JSON inside (else malformed). What the claims mean is the
 * caller's to check.
 */
export function readClaims(key: string | Buffer, prefix: string, token: unknown, maxChars: number): ClaimsCheck {
  if (typeof token !== 'string' || token.length > maxChars) return { ok: false, problem: 'malformed' };
  const [, payload, signature] = new RegExp(`^${prefix}\\.([A-Za-z0-9_-]{8,})\\.([A-Za-z0-9_-]{43})$`).exec(token) ?? [];
  if (payload === undefined || signature === undefined) return { ok: false, problem: 'malformed' };
  if (!signatureMatches(key, `${prefix}.${payload}`, signature)) return { ok: false, problem: 'signature' };
  try {
    return { ok: true, claims: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) };
  } catch {
    return { ok: false, problem: 'malformed' };
  }
}

/**
 * {@link readClaims} under the current key, then under the one it replaced: a token signed before a rotation of the
 * shared secret keeps verifying, on every server, until the next rotation.
 */
export function readClaimsWithKeys(keys: readonly (string | Buffer)[], prefix: string, token: unknown, maxChars: number): ClaimsCheck {
  let read: ClaimsCheck = { ok: false, problem: 'malformed' };
  for (const key of keys) {
    read = readClaims(key, prefix, token, maxChars);
    if (read.ok || read.problem !== 'signature') return read;
  }
  return read;
}
