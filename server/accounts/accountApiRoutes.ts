import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../http/errors';
import { CROSS_SITE_REFUSAL, type AccountsContext } from './accountsContext';
import type { ChannelAccess, Session } from './accountStore';
import { ACCOUNTS_FORM_BODY_MAX_BYTES, ACCOUNTS_JSON_BODY_MAX_BYTES } from './limits';
import { clearSessionCookie, isSameOriginOrUnnamed, sessionOfRequest, type RequestSession } from './sessionCookie';
import { SESSION_SECRET_PATTERN } from './sessionSecrets';

/** The answer of `POST /accounts/token` and `POST /accounts/act_as`: a fresh access token and who it speaks for. */
export interface AccessTokenAnswer {
  signedIn: true;
  accessToken: string;
  expiresAtMs: number;
  account: { id: string; displayName: string; email: string };
  /** The channel the session acts for; null: the account itself. */
  actingChannel: { id: string; title: string } | null;
  /** Every channel the account may act for, owned first. */
  channels: ChannelAccess[];
}

/**
 * `POST /accounts/token` without a live session: being signed out is an answer, not an error, so a signed-out embed
 * asking at start records no failed request in the browser. A client that only tells sessions by their `accessToken`
 * reads it as signed out too.
 */
export const SIGNED_OUT_ANSWER = { signedIn: false } as const;
export const NOT_SIGNED_IN = 'Not signed in';
const CHANNEL_ID_PATTERN = '^UC[A-Za-z0-9_-]{22}$';
const sessionProperty = { type: 'string', pattern: SESSION_SECRET_PATTERN } as const;
/** Routes whose whole body is optional (the cookie may be all a request carries) see `{}` for no body. */
const emptyBodyIsEmptyObject = async (request: FastifyRequest) => {
  request.body ??= {};
};

/**
 * The JSON calls of the embed and the SDK, each answered `cache-control: no-store`:
 *
 * - `POST /accounts/token` `{ session? }` → {@link AccessTokenAnswer}, or {@link SIGNED_OUT_ANSWER} (200) without a
 *   live session;
 * - `POST /accounts/act_as` `{ session?, channelId | null }` → the same answer for the new acting channel, 403 for a
 *   channel the account neither owns nor manages; the sign-in page's picker posts it as a form (then 303 to `/signin`);
 * - `POST /accounts/signout` `{ session? }` → `{ signedOut }`, the session deleted and the cookie cleared.
 *
 * The session is the body's `session` secret (handed over by the sign-in pop-up) or else the `vf_session` cookie; a
 * cookie-carrying request from another site is refused (403).
 */
export function registerAccountApiRoutes(scope: FastifyInstance, { store, tokens, secureCookies }: AccountsContext): void {
  const answerFor = async (session: Session): Promise<AccessTokenAnswer | undefined> => {
    const account = await store.accountById(session.accountId);
    if (!account) return undefined;
    let acting = session.actingChannelId;
    // Delegation withdrawn since the session chose the channel: the session falls back to the account itself.
    if (acting !== null && !(await store.canActFor(account.id, acting))) {
      await store.setActingChannel(session.idHash, null);
      acting = null;
    }
    const { token, expiresAtMs } = tokens.issue({
      accountId: account.id,
      sessionId: session.sessionId,
      ...(acting !== null ? { actingChannelId: acting } : {}),
      notAfterMs: session.expiresAtMs,
    });
    return {
      signedIn: true,
      accessToken: token,
      expiresAtMs,
      account: { id: account.id, displayName: account.displayName, email: account.email },
      actingChannel: acting !== null ? { id: acting, title: (await store.channelTitle(acting)) ?? acting } : null,
      channels: await store.channelsOf(account.id),
    };
  };
  /** The request's session, or why it is refused. */
  const sessionFor = async (
    request: FastifyRequest,
    bodySecret: string | undefined,
  ): Promise<{ ok: true; current: RequestSession } | { ok: false; status: 401 | 403; message: string }> => {
    const current = await sessionOfRequest(request, store, bodySecret);
    if (current?.source === 'cookie' && !isSameOriginOrUnnamed(request)) return { ok: false, status: 403, message: CROSS_SITE_REFUSAL };
    if (!current) return { ok: false, status: 401, message: NOT_SIGNED_IN };
    return { ok: true, current };
  };
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');
  /** The options of the routes whose JSON body carries at most the session (the pop-up hand-over). */
  const sessionOnlyBody = {
    bodyLimit: ACCOUNTS_JSON_BODY_MAX_BYTES,
    preValidation: emptyBodyIsEmptyObject,
    schema: { body: { type: 'object', properties: { session: sessionProperty }, additionalProperties: false } },
  };

  scope.post<{ Body: { session?: string } }>('/accounts/token', sessionOnlyBody, async (request, reply) => {
    noStore(reply);
    const found = await sessionFor(request, request.body.session);
    if (!found.ok && found.status === 401) return SIGNED_OUT_ANSWER;
    if (!found.ok) return reply.code(found.status).send(errorBody(found.status, found.message));
    return (await answerFor(found.current.session)) ?? SIGNED_OUT_ANSWER;
  });

  scope.post<{ Body: { session?: string; channelId: string | null } }>(
    '/accounts/act_as',
    {
      bodyLimit: Math.max(ACCOUNTS_JSON_BODY_MAX_BYTES, ACCOUNTS_FORM_BODY_MAX_BYTES),
      schema: {
        body: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['channelId'],
                properties: { session: sessionProperty, channelId: { type: ['string', 'null'], pattern: CHANNEL_ID_PATTERN } },
                additionalProperties: false,
              },
            },
            // The sign-in page's picker: '' is "yourself".
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                required: ['channelId'],
                properties: { channelId: { type: 'string', anyOf: [{ const: '' }, { pattern: CHANNEL_ID_PATTERN }] } },
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const fromForm = request.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded') ?? false;
      const found = await sessionFor(request, request.body.session);
      if (!found.ok) return reply.code(found.status).send(errorBody(found.status, found.message));
      const { session } = found.current;
      if (fromForm && !isSameOriginOrUnnamed(request)) return reply.code(403).send(errorBody(403, CROSS_SITE_REFUSAL));
      const channelId = request.body.channelId === '' ? null : request.body.channelId;
      if (channelId !== null && !(await store.canActFor(session.accountId, channelId))) {
        return reply.code(403).send(errorBody(403, `You cannot act for channel ${channelId}`));
      }
      await store.setActingChannel(session.idHash, channelId);
      if (fromForm) return reply.code(303).header('location', '/signin').send();
      return (await answerFor({ ...session, actingChannelId: channelId })) ?? reply.code(401).send(errorBody(401, NOT_SIGNED_IN));
    },
  );

  scope.post<{ Body: { session?: string } }>('/accounts/signout', sessionOnlyBody, async (request, reply) => {
    noStore(reply);
    const current = await sessionOfRequest(request, store, request.body.session);
    if (current?.source === 'cookie' && !isSameOriginOrUnnamed(request)) return reply.code(403).send(errorBody(403, CROSS_SITE_REFUSAL));
    const signedOut = current !== undefined && (await store.deleteSession(current.session.idHash));
    clearSessionCookie(reply, { secureCookies });
    return { signedOut };
  });
}
