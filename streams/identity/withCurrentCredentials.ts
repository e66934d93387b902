import type { ApiRequest } from '../transport/buildApiRequest';
import { accessTokenSubject } from './accessTokenSubject';

/** The header of the logged-in flag (spec §6: sent only as a header). */
export const LOGGED_IN_HEADER = 'X-Youtube-Bootstrap-Logged-In';

/** The credentials of the page now. */
export interface CurrentCredentials {
  accessToken?: string;
  accountId?: string;
}

/**
 * A request as it should be sent now, with the credentials of now. A request may have been built long before it is
 * sent (the retry queue keeps log requests up to 30 days), and the access token it carries has expired by then, or
 * belongs to an account that is no longer signed in.
 *
 * - Without an `Authorization` header (an anonymous request): returned as it is.
 * - Its token's subject (see `accessTokenSubject`) is `current.accountId` and there is a current token: the header
 *   becomes `Bearer <current token>` and `X-Youtube-Bootstrap-Logged-In: true`.
 * - Otherwise (signed out, another account now, a token that cannot be read): `Authorization` is removed and the
 *   logged-in header is `false`. A request is never sent on behalf of someone else.
 *
 * Header names are matched case-insensitively. The input is never mutated: a changed request is a new object with a
 * new `options` and `headers`; the body is left untouched.
 */
export function withCurrentCredentials(request: ApiRequest, current: CurrentCredentials): ApiRequest {
  const entries = Object.entries(request.options.headers);
  const authorization = entries.find(([name]) => name.toLowerCase() === 'authorization');
  if (authorization === undefined) return request;
  const subject = accessTokenSubject(authorization[1]);
  const sameAccount = subject !== undefined && subject === current.accountId && !!current.accessToken;

  const headers: Record<string, string> = {};
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === LOGGED_IN_HEADER.toLowerCase()) continue;
    headers[name] = value;
  }
  if (sameAccount) headers.Authorization = `Bearer ${current.accessToken!.trim().replace(/^Bearer\s+/i, '')}`;
  headers[LOGGED_IN_HEADER] = sameAccount ? 'true' : 'false';
  return { ...request, options: { ...request.options, headers } };
}
