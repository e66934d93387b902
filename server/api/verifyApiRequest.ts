import type { FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import { HttpError } from '../http/errors';
import { ANTI_FORGERY_FIELD, type IdentityTokens } from '../tokens/identityTokens';

/** What the account side answers about an `Authorization` header (implemented by `server/accounts/`). */
export interface AuthorizationVerifier {
  verifyAuthorization(
    header: string | undefined,
  ): Promise<{ kind: 'anonymous' } | { kind: 'account'; accountId: string; sessionId: string; actingChannelId?: string } | { kind: 'refused'; reason: string }>;
  canActFor(accountId: string, channelId: string): Promise<boolean>;
}

/** Who a verified API request comes from. */
export interface ApiViewer {
  /** The signed-in account (bearer access token), absent for anonymous viewers. */
  accountId?: string;
  /** The channel the account acts for (delegated session / page id of spec §6), checked against what it manages. */
  channelId?: string;
  /** The visitor id the request carried (verified), or a fresh one when it carried none or an expired one. */
  visitorId: string;
  /** The visitor id to hand back in `responseContext.visitorData` when it differs from what the client sent. */
  visitorDataToReturn?: string;
}

export interface ApiRequestVerifierOptions {
  accounts: AuthorizationVerifier;
  tokens: IdentityTokens;
  /** The API key of spec §7 (a query parameter only under the kill switch, or for logging without a bearer header). */
  apiKey: string;
}

const LOGGED_IN_HEADER = 'x-youtube-bootstrap-logged-in';
const VISITOR_HEADER = 'x-goog-visitor-id';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** A 401 that says which scheme the client should use (RFC 6750). */
const unauthorized = (message: string): HttpError => new HttpError(401, message, { 'www-authenticate': 'Bearer error="invalid_token"' });

/**
 * The one request-validation step of every `POST /youtubei/v1/…` call (spec §6, §7), run on the parsed body:
 *
 * 1. the `key` query parameter, when present, must be the API key (400 otherwise);
 * 2. `Authorization: Bearer …` must be a live access token of a live session: a bad, expired or signed-out token is a
 *    401 with the reason, never a silent anonymous success; no header means anonymous;
 * 3. the logged-in flag travels only as a header, and `true` without credentials is refused (401);
 * 4. the visitor id header, when present, must be one this server issued (a forged one is a 400); an expired one is
 *    replaced, and the replacement handed back in the response context;
 * 5. the anti-forgery field (`session_token`) must be present and valid in the body: otherwise 403;
 * 6. a delegated session (`context.user.delegatedSessionId` / `onBehalfOfUser`) needs an account that owns or manages
 *    that channel: 401 without an account, 403 for a channel it does not manage.
 *
 * Steps 1–3 read only the URL and the headers: `verifyCredentials` runs them alone, before the body is read or
 * validated ({@link apiCredentialsHook}), so a bad key or token is answered as such whatever the body; the whole step
 * then reuses that verdict.
 *
 * @throws HttpError with the status and a message that says what to fix.
 */
export function createApiRequestVerifier({ accounts, tokens, apiKey }: ApiRequestVerifierOptions) {
  const credentialsOf = new WeakMap<FastifyRequest, Credentials>();

  /** Steps 1–3: the key, the bearer token and the logged-in flag, checked once per request. */
  async function verifyCredentials(request: FastifyRequest): Promise<Credentials> {
    const known = credentialsOf.get(request);
    if (known) return known;
    const key = (request.query as Record<string, unknown> | undefined)?.key;
    if (key !== undefined && key !== apiKey) throw new HttpError(400, 'API key not valid. Please pass a valid API key.');

    const verdict = await accounts.verifyAuthorization(header(request, 'authorization'));
    if (verdict.kind === 'refused') throw unauthorized(verdict.reason);
    const loggedIn = header(request, LOGGED_IN_HEADER);
    if (loggedIn !== undefined && loggedIn.trim().toLowerCase() === 'true' && verdict.kind !== 'account') {
      throw unauthorized('The request says it is signed in (X-Youtube-Bootstrap-Logged-In: true) but carries no access token');
    }
    credentialsOf.set(request, verdict);
    return verdict;
  }

  async function verifyApiRequest(request: FastifyRequest, body: unknown): Promise<ApiViewer> {
    const verdict = await verifyCredentials(request);

    // No visitor id, or an expired one: a fresh one, handed back in the response context. A forged one is refused.
    const visitorHeader = header(request, VISITOR_HEADER);
    const visitor = visitorHeader ? tokens.visitor.verify(visitorHeader) : undefined;
    if (visitor && !visitor.ok && !visitor.expired) throw new HttpError(400, `${visitor.reason} (X-Goog-Visitor-Id)`);
    const fresh = visitor?.ok ? undefined : tokens.visitor.issue();
    const visitorId = visitor?.ok ? visitor.stream : fresh!.stream;
    const visitorDataToReturn = fresh?.token;

    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const antiForgery = tokens.antiForgery.verify(fields[ANTI_FORGERY_FIELD]);
    if (!antiForgery.ok) throw new HttpError(403, `${antiForgery.reason}: every POST carries the anti-forgery token the page was given`);

    const user = (fields.context as { user?: { delegatedSessionId?: unknown; onBehalfOfUser?: unknown } } | undefined)?.user;
    const delegated = [user?.delegatedSessionId, user?.onBehalfOfUser].find((v): v is string => typeof v === 'string' && v !== '');
    if (delegated !== undefined) {
      if (verdict.kind !== 'account') throw unauthorized(`Acting for channel ${delegated.slice(0, 64)} needs a signed-in account`);
      if (!(await accounts.canActFor(verdict.accountId, delegated))) {
        throw new HttpError(403, `This account cannot act for channel ${delegated.slice(0, 64)}`);
      }
    }
    return {
      ...(verdict.kind === 'account' && { accountId: verdict.accountId }),
      ...(delegated !== undefined && { channelId: delegated }),
      visitorId,
      ...(visitorDataToReturn !== undefined && { visitorDataToReturn }),
    };
  }
  return Object.assign(verifyApiRequest, { verifyCredentials });
}

/** An account's or an anonymous caller's credentials, as steps 1–3 accepted them. */
type Credentials = Exclude<Awaited<ReturnType<AuthorizationVerifier['verifyAuthorization']>>, { kind: 'refused' }>;

export type VerifyApiRequest = ReturnType<typeof createApiRequestVerifier>;

/**
 * The hook that runs steps 1–3 on a scope's API calls before their bodies are read (`preParsing`: after the rate
 * limits of `onRequest`, before decompression, JSON parsing and any schema), so authentication comes before
 * validation.
 */
export function apiCredentialsHook(verify: VerifyApiRequest): preParsingAsyncHookHandler {
  return async (request, _reply, payload) => {
    await verify.verifyCredentials(request);
    return payload;
  };
}
