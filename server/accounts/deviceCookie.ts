import type { FastifyReply, FastifyRequest } from 'fastify';
import { KNOWN_DEVICE_LIFETIME_MS } from './limits';

/** The cookie that makes a browser a known device of the accounts it signed in to (`signinThrottle.ts`). */
export const DEVICE_COOKIE_NAME = 'vf_device';

/**
 * Read by `POST /signin` only, so it goes to `/signin` only: `HttpOnly`, `SameSite=Strict` (the sign-in form posts
 * from our own origin, tab or pop-up), `Secure` with `secureCookies`. It lives as long as a known device is kept.
 */
export function setDeviceCookie(reply: FastifyReply, secret: string, { secureCookies }: { secureCookies: boolean }): void {
  reply.setCookie(DEVICE_COOKIE_NAME, secret, {
    httpOnly: true,
    path: '/signin',
    sameSite: 'strict',
    secure: secureCookies,
    maxAge: Math.floor(KNOWN_DEVICE_LIFETIME_MS / 1000),
  });
}

/** The device secret a request carries, if any (checked by the throttle). */
export const deviceSecretOf = (request: FastifyRequest): string | undefined => request.cookies[DEVICE_COOKIE_NAME];
