import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { AccountStore, Session } from './accountStore';
import { SESSION_SECRET_PATTERN } from './sessionSecrets';

const SESSION_SECRET = new RegExp(SESSION_SECRET_PATTERN);
/** A `Host` value: a name or a bracketed IPv6 address, and an optional port. */
const HOST = /^(\[[0-9a-f:.]+\]|[^:\s[\]]+)(?::(\d{1,5}))?$/;

/** The cookie that holds the session secret on the server's own origin. */
export const SESSION_COOKIE_NAME = 'vf_session';

/**
 * The session cookie's attributes. Always `HttpOnly` (no script reads it) and `Path=/`. `SameSite=Lax` by default; with
 * `secureCookies` (a deployment on https), `SameSite=None; Secure`, so the cookie also reaches the embed when a
 * third-party page frames it (browsers that block third-party cookies still refuse it: the pop-up hand-over covers
 * them).
 */
export function sessionCookieOptions({ secureCookies, maxAgeMs }: { secureCookies: boolean; maxAgeMs?: number }): CookieSerializeOptions {
  return {
    httpOnly: true,
    path: '/',
    ...(secureCookies ? { sameSite: 'none', secure: true } : { sameSite: 'lax', secure: false }),
    ...(maxAgeMs !== undefined ? { maxAge: Math.floor(maxAgeMs / 1000) } : {}),
  };
}

export function setSessionCookie(reply: FastifyReply, secret: string, options: { secureCookies: boolean; maxAgeMs: number }): void {
  reply.setCookie(SESSION_COOKIE_NAME, secret, sessionCookieOptions(options));
}

export function clearSessionCookie(reply: FastifyReply, options: { secureCookies: boolean }): void {
  reply.clearCookie(SESSION_COOKIE_NAME, sessionCookieOptions(options));
}

/**
 * Whether a request that uses the session cookie may change something: a browser names the page that sent a POST in
 * `Origin`, and a cookie-carrying POST from another site (possible with `SameSite=None`; a login-CSRF form even with
 * `Lax`) is refused. A request without `Origin` (curl, a test, an old browser's same-origin form) passes; `null` (an
 * opaque origin: a sandboxed frame, a `data:` page) does not.
 */
export function isSameOriginOrUnnamed(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const host = HOST.exec(request.host.toLowerCase());
  if (!host) return false;
  try {
    const url = new URL(origin);
    // `Origin` leaves a scheme's default port out; `Host` may name it (`localhost:80`) or, behind a proxy, leave it out.
    const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
    return url.hostname === host[1] && (host[2] === undefined || host[2] === port);
  } catch {
    return false;
  }
}

/** Where a request's session came from: the JSON body (the pop-up hand-over) or the cookie. */
export interface RequestSession {
  session: Session;
  /** The secret that opened it (for the pop-up hand-over of a session the cookie already holds). */
  secret: string;
  source: 'body' | 'cookie';
}

/**
 * The live session a request names: the `session` secret of its body when it carries one (the embed after a pop-up
 * sign-in, where third-party frames get no cookie), else the `vf_session` cookie. A secret given in the body is used
 * alone: a wrong one is not rescued by a cookie.
 */
export async function sessionOfRequest(request: FastifyRequest, store: AccountStore, bodySecret?: string): Promise<RequestSession | undefined> {
  if (bodySecret !== undefined) {
    const session = await store.sessionBySecret(bodySecret);
    return session && { session, secret: bodySecret, source: 'body' };
  }
  const cookie = request.cookies[SESSION_COOKIE_NAME];
  if (!cookie || !SESSION_SECRET.test(cookie)) return undefined;
  const session = await store.sessionBySecret(cookie);
  return session && { session, secret: cookie, source: 'cookie' };
}
