import { randomBytes } from 'node:crypto';

/** The cookie that carries the anonymous id on the ads host's origin. */
export const ADS_ID_COOKIE = 'vf_ads_id';
/** Its lifetime: one year. */
export const ADS_ID_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** An id as {@link newAdsId} makes it: 16 bytes, base64url, 22 characters. */
const ADS_ID = /^[A-Za-z0-9_-]{22}$/;

/** A new anonymous id: 16 random bytes, base64url. */
export const newAdsId = (): string => randomBytes(16).toString('base64url');

/**
 * The id in a request's `Cookie` header, when it holds a well-formed one (anything else is as good as none and is
 * replaced).
 */
export function adsIdFromCookieHeader(header: string | undefined): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1 || pair.slice(0, eq).trim() !== ADS_ID_COOKIE) continue;
    const value = pair
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (ADS_ID.test(value)) return value;
  }
  return undefined;
}

/**
 * The `Set-Cookie` value for an id: HttpOnly, whole origin, one year; `SameSite=None; Secure` when the ads host is
 * reached over https (a cross-site embed then still sends it), else `SameSite=Lax` (plain http: an ads host on another
 * port of the embed's host name is the same site, so a credentialed fetch carries it).
 */
export const adsIdSetCookie = (id: string, secure: boolean): string =>
  `${ADS_ID_COOKIE}=${id}; Max-Age=${ADS_ID_COOKIE_MAX_AGE_SECONDS}; Path=/; HttpOnly; ${secure ? 'SameSite=None; Secure' : 'SameSite=Lax'}`;
