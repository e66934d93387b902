import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../http/errors';
import { CROSS_SITE_REFUSAL, type AccountsContext } from './accountsContext';
import type { Account, AccountStore } from './accountStore';
import { deviceSecretOf, setDeviceCookie } from './deviceCookie';
import { ACCOUNTS_FORM_BODY_MAX_BYTES, EMAIL_MAX_CHARS, PASSWORD_MAX_CHARS, SIGNIN_RATE_LIMIT_MAX } from './limits';
import { UNMATCHABLE_PASSWORD_HASH, verifyPassword } from './passwordHash';
import { clearSessionCookie, isSameOriginOrUnnamed, sessionOfRequest, setSessionCookie } from './sessionCookie';
import { renderSessionHandOverPage, renderSigninPage } from './signinPages';
import type { SigninThrottle } from './signinThrottle';
import { SIGNIN_STYLESHEET, SIGNIN_STYLESHEET_PATH } from './signinStylesheet';

/** The one message of a failed sign-in, whichever of the two was wrong: it must not tell which emails have accounts. */
export const WRONG_CREDENTIALS = 'Wrong email or password';

/**
 * The sign-in pages send no `Cross-Origin-Opener-Policy`: the pop-up is opened by the embed, itself framed by a page
 * of another site, and a COOP of `same-origin-allow-popups` here would put the pop-up in a new browsing-context group,
 * cutting `window.opener` before the session could be handed over. The rest of the CSP (nonces, `frame-ancestors
 * 'self'`) stays.
 */
const SIGNIN_HELMET: Omit<FastifyHelmetOptions, 'global'> = { crossOriginOpenerPolicy: false };
type SigninBody = { email: string; password: string; popup?: '0' | '1' };

/**
 * Sign-in attempts per client address (`request.ip`), counted in this server's memory (an LRU of addresses): guessing
 * costs a minute per ten tries. Checked once the body is parsed, so that a known device of the account the body names
 * is let through: a colleague behind an address others exhausted still signs in from the browser they always use.
 */
const signinRateLimit = (store: AccountStore, throttle: SigninThrottle): RateLimitOptions => ({
  max: SIGNIN_RATE_LIMIT_MAX,
  timeWindow: '1 minute',
  hook: 'preHandler',
  allowList: async (request: FastifyRequest) => {
    const account = await store.accountByEmail((request.body as SigninBody).email);
    return account !== undefined && (await throttle.isKnownDevice(account.id, deviceSecretOf(request)));
  },
});

/** What a refused attempt is told: how long to wait, rounded up to whole seconds or minutes. */
function waitMessage(retryAfterS: number): string {
  const minutes = Math.ceil(retryAfterS / 60);
  const wait = retryAfterS < 60 ? `${retryAfterS} second${retryAfterS === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many failed sign-ins for this email. Try again in ${wait}, or from a browser you signed in with before.`;
}

const popupQuery = {
  type: 'object',
  properties: { popup: { type: 'string', enum: ['0', '1'] } },
} as const;

const html = (reply: FastifyReply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
const publicAccount = ({ id, email, displayName }: Account): Account => ({ id, email, displayName });

/**
 * `GET /signin`, `POST /signin`, `POST /signout` and the pages' stylesheet: signing in on the server's own origin,
 * in a tab (303 back to `/signin`) or in a pop-up (`popup=1`: the last page hands the session to the embed that
 * opened it). Cookie-carrying POSTs from other sites are refused (403) whatever their `SameSite`. `POST /signin` is
 * throttled per email (`signinThrottle.ts`: 429 with `Retry-After` and the form) and per address (429); a known device
 * of the account passes both, and a successful sign-in makes the browser one (the `vf_device` cookie).
 */
export function registerSigninRoutes(scope: FastifyInstance, { store, sessionLifetimeMs, secureCookies, throttle, demoAccounts }: AccountsContext): void {
  scope.get(SIGNIN_STYLESHEET_PATH, (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(SIGNIN_STYLESHEET),
  );

  scope.get<{ Querystring: { popup?: '0' | '1' } }>('/signin', { helmet: SIGNIN_HELMET, schema: { querystring: popupQuery } }, async (request, reply) => {
    const popup = request.query.popup === '1';
    const current = await sessionOfRequest(request, store);
    const account = current && (await store.accountById(current.session.accountId));
    if (!current || !account) return html(reply).send(renderSigninPage({ kind: 'form', popup, demoAccounts }));
    // Already signed in on this origin: a pop-up hands the session over at once.
    if (popup) return html(reply).send(renderSessionHandOverPage({ account, secret: current.secret, nonce: reply.cspNonce.script }));
    return html(reply).send(
      renderSigninPage({ kind: 'signedIn', popup, account, channels: await store.channelsOf(account.id), actingChannelId: current.session.actingChannelId }),
    );
  });

  scope.post<{ Body: SigninBody }>(
    '/signin',
    {
      helmet: SIGNIN_HELMET,
      bodyLimit: ACCOUNTS_FORM_BODY_MAX_BYTES,
      config: { rateLimit: signinRateLimit(store, throttle) },
      schema: {
        body: {
          type: 'object',
          required: ['email', 'password'],
          properties: {
            email: { type: 'string', minLength: 1, maxLength: EMAIL_MAX_CHARS },
            password: { type: 'string', minLength: 1, maxLength: PASSWORD_MAX_CHARS },
            popup: { type: 'string', enum: ['0', '1'] },
          },
        },
      },
    },
    async (request, reply) => {
      if (!isSameOriginOrUnnamed(request)) return reply.code(403).send(errorBody(403, CROSS_SITE_REFUSAL));
      const { email, password } = request.body;
      const popup = request.body.popup === '1';
      const found = await store.accountByEmail(email);
      const deviceSecret = deviceSecretOf(request);
      const form = (error: string) => renderSigninPage({ kind: 'form', popup, demoAccounts, email, error });
      const admission = await throttle.admit(email, { accountId: found?.id, deviceSecret });
      if (!admission.ok) {
        const retryAfterS = Math.ceil(admission.retryAfterMs / 1000);
        return html(reply)
          .code(429)
          .header('retry-after', String(retryAfterS))
          .send(form(waitMessage(retryAfterS)));
      }
      // An unknown email is checked against a hash no password matches: one scrypt either way, so no timing oracle.
      const matches = await verifyPassword(password, found?.passwordHash ?? UNMATCHABLE_PASSWORD_HASH);
      if (!found || !matches) return html(reply).code(401).send(form(WRONG_CREDENTIALS));
      setDeviceCookie(reply, await throttle.succeeded(email, found.id, deviceSecret), { secureCookies });
      const account = publicAccount(found);
      // Signing in again replaces the session this browser had.
      const previous = await sessionOfRequest(request, store);
      if (previous) await store.deleteSession(previous.session.idHash);
      const { secret } = await store.createSession(account.id, sessionLifetimeMs);
      setSessionCookie(reply, secret, { secureCookies, maxAgeMs: sessionLifetimeMs });
      if (popup) return html(reply).send(renderSessionHandOverPage({ account, secret, nonce: reply.cspNonce.script }));
      return reply.code(303).header('location', '/signin').header('cache-control', 'no-store').send();
    },
  );

  scope.post<{ Body: { popup?: '0' | '1' } }>(
    '/signout',
    {
      bodyLimit: ACCOUNTS_FORM_BODY_MAX_BYTES,
      // A form with nothing but its button may come without a body.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: { body: { type: 'object', properties: { popup: { type: 'string', enum: ['0', '1'] } } } },
    },
    async (request, reply) => {
      if (!isSameOriginOrUnnamed(request)) return reply.code(403).send(errorBody(403, CROSS_SITE_REFUSAL));
      const current = await sessionOfRequest(request, store);
      if (current) await store.deleteSession(current.session.idHash);
      clearSessionCookie(reply, { secureCookies });
      return reply
        .code(303)
        .header('location', request.body.popup === '1' ? '/signin?popup=1' : '/signin')
        .header('cache-control', 'no-store')
        .send();
    },
  );
}
