import { decodeBase64Url } from './base64url';

/** The scheme tag of the server's access tokens: `vfat1.<base64url JSON>.<signature>`. */
export const ACCESS_TOKEN_PREFIX = 'vfat1';

/**
 * The account an access token was issued to (its `sub`), read without verifying the signature: the client only uses
 * it to tell whether a stored request was made by the account signed in now. The server verifies every token.
 *
 * Takes the token alone or a whole `Authorization` value (`Bearer vfat1.…`; the scheme is case-insensitive).
 * Undefined for anything else: another scheme or token format, a payload that is not base64url JSON, a missing or
 * empty `sub`, an empty signature.
 *
 * ```
 * 'Bearer vfat1.eyJzdWIiOiJhY2MtMSJ9.sig'  →  'acc-1'
 * ```
 */
export function accessTokenSubject(tokenOrHeader: string | undefined): string | undefined {
  if (typeof tokenOrHeader !== 'string') return undefined;
  const token = tokenOrHeader.trim().replace(/^Bearer\s+/i, '');
  const [prefix, body, signature, ...more] = token.split('.');
  if (prefix !== ACCESS_TOKEN_PREFIX || body === undefined || signature === undefined || more.length > 0) return undefined;
  if (!/^[A-Za-z0-9_-]+$/.test(signature)) return undefined;
  const json = decodeBase64Url(body);
  if (json === undefined) return undefined;
  try {
    const payload: unknown = JSON.parse(json);
    const sub = payload !== null && typeof payload === 'object' ? (payload as { sub?: unknown }).sub : undefined;
    return typeof sub === 'string' && sub.length > 0 ? sub : undefined;
  } catch {
    return undefined;
  }
}
