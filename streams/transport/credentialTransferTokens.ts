import { CREDENTIAL_TRANSFER_TOKEN_MAX_CHARS, CREDENTIAL_TRANSFER_TOKENS_MAX } from '../timing';
import { numberText } from '../shared/numberText';

/**
 * One credential transfer token of `log_event` (spec §7 "optionally credentialTransferTokens"): an object whose
 * values are all strings (a token and what it is for). It is a credential: the collector checks its shape and never
 * stores it.
 */
export type CredentialTransferToken = Record<string, string>;

/** The body field that carries them (spec §7). */
export const CREDENTIAL_TRANSFER_TOKENS_FIELD = 'credentialTransferTokens';

/**
 * Why a `credentialTransferTokens` value is not an array of at most {@link CREDENTIAL_TRANSFER_TOKENS_MAX} objects of
 * strings (each at most {@link CREDENTIAL_TRANSFER_TOKEN_MAX_CHARS} serialised), naming the field; `undefined` when it
 * is one. Shared by the client (which leaves a bad value out rather than have its log requests refused) and the
 * collector (which answers 400 with this text). Pure; never throws.
 */
export function credentialTransferTokensProblem(
  value: unknown,
  { maxTokens = CREDENTIAL_TRANSFER_TOKENS_MAX, maxTokenChars = CREDENTIAL_TRANSFER_TOKEN_MAX_CHARS } = {},
): string | undefined {
  const field = `"${CREDENTIAL_TRANSFER_TOKENS_FIELD}"`;
  if (!Array.isArray(value)) return `${field} must be an array of objects of strings`;
  if (value.length > maxTokens) return `${field} carries at most ${numberText(maxTokens)} tokens, not ${numberText(value.length)}`;
  for (let i = 0; i < value.length; i++) {
    const token: unknown = value[i];
    if (token === null || typeof token !== 'object' || Array.isArray(token)) return `${field}[${numberText(i)}] must be an object of strings`;
    const entries = Object.entries(token);
    if (entries.length === 0) return `${field}[${numberText(i)}] must not be empty`;
    const bad = entries.find(([, v]) => typeof v !== 'string');
    if (bad) return `${field}[${numberText(i)}].${bad[0].slice(0, 64)} must be a string`;
    if (JSON.stringify(token).length > maxTokenChars) return `${field}[${numberText(i)}] is longer than ${numberText(maxTokenChars)} characters`;
  }
  return undefined;
}

/** True when `value` is a valid `credentialTransferTokens` (see {@link credentialTransferTokensProblem}). */
export const isCredentialTransferTokens = (value: unknown): value is CredentialTransferToken[] => credentialTransferTokensProblem(value) === undefined;

/**
 * The request without its credential transfer tokens, for the retry queue: a stored log request lives up to 30 days
 * in IndexedDB, and a credential is not kept that long on the viewer's disk (a resend goes without them — they are
 * optional). A request that has none, or whose body is not JSON, is returned as it is. Pure; never throws.
 */
export function withoutCredentialTransferTokens<R extends { options: { body: string } }>(request: R): R {
  if (!request.options.body.includes(`"${CREDENTIAL_TRANSFER_TOKENS_FIELD}"`)) return request;
  try {
    const body: unknown = JSON.parse(request.options.body);
    if (body === null || typeof body !== 'object' || Array.isArray(body) || !(CREDENTIAL_TRANSFER_TOKENS_FIELD in body)) return request;
    const { [CREDENTIAL_TRANSFER_TOKENS_FIELD]: _tokens, ...rest } = body as Record<string, unknown>;
    return { ...request, options: { ...request.options, body: JSON.stringify(rest) } };
  } catch {
    return request;
  }
}
