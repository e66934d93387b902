import type { CookieSerializeOptions } from '@fastify/cookie';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The cookie that carries the anonymous id on the ads host's origin. */
export const ADS_ID_COOKIE = 'vf_ads_id';
/** Its lifetime: one year. */
export const ADS_ID_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** An id as {@link newAdsId} makes it: 16 bytes, base64url, 22 characters. */
const ADS_ID = /^[A-Za-z0-9_-]{22}$/;

/** A new anonymous id: 16 random bytes, base64url. */
export const newAdsId = (): string => randomBytes(16).toString('base64url');

/**
 * The id of the request's cookie (parsed by `@fastify/cookie`), when it holds a well-formed one (anything else is as
 * good as none and is replaced). A value in double quotes counts as the value inside them.
 */
export function adsIdOfRequest(request: FastifyRequest): string | undefined {
  const value = request.cookies[ADS_ID_COOKIE]?.replace(/^"(.*)"$/, '$1');
  return value !== undefined && ADS_ID.test(value) ? value : undefined;
}

/**
 * The cookie's attributes: HttpOnly, whole origin, one year; `SameSite=None; Secure` when the ads host is reached over
 * https (a cross-site embed then still sends it), else `SameSite=Lax` (plain http: an ads host on another port of the
 * embed's host name is the same site, so a credentialed fetch carries it).
 */
const adsIdCookieOptions = (secure: boolean): CookieSerializeOptions => ({
  maxAge: ADS_ID_COOKIE_MAX_AGE_SECONDS,
  path: '/',
  httpOnly: true,
  ...(secure ? { sameSite: 'none', secure: true } : { sameSite: 'lax', secure: false }),
});

/** Sets the id cookie on the reply. */
export function setAdsIdCookie(reply: FastifyReply, id: string, secure: boolean): void {
  reply.setCookie(ADS_ID_COOKIE, id, adsIdCookieOptions(secure));
}
