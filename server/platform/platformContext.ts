import type { FastifyRequest } from 'fastify';
import type { CurrentCatalog } from '../media/catalogSource';
import { HttpError } from '../http/errors';
import type { ApiViewer } from '../api/verifyApiRequest';
import type { FeedbackTokens } from '../tokens/feedbackTokens';
import type { PlatformStore } from './platformStore';

/**
 * Checks the attestation (botguard) response a subscribe carries (spec §4): the real one lives in `server/attestation/`;
 * tests pass a fake. The reason of a refusal is shown to the client in the 403.
 */
type AttestationVerdict = { ok: true } | { ok: false; reason: string };
export type VerifyAttestation = (response: unknown) => AttestationVerdict | Promise<AttestationVerdict>;

/** What every platform route reads: the catalogue, the store, the feedback tokens, the attestation check. */
export interface PlatformContext {
  /** Asked per request: the library's entries come and go while the server runs. */
  catalog: CurrentCatalog;
  store: PlatformStore;
  feedbackTokens: FeedbackTokens;
  verifyAttestation: VerifyAttestation;
  /**
   * The one request-validation step (`server/api/verifyApiRequest.ts`: key, bearer token, logged-in flag, visitor id,
   * anti-forgery field, delegation) on the parsed body, and the `responseContext` the answer carries.
   */
  verify(request: FastifyRequest): Promise<{ viewer: ApiViewer; responseContext: Record<string, unknown> }>;
}

/**
 * The signed-in account a write needs. The shared verifier already refuses a bad token (401) and lets a request
 * without one through as anonymous; a write that belongs to an account says so here, with what to do.
 *
 * A delegated request (acting for a channel, `viewer.channelId`) still reads and writes the account's own state: the
 * subscriptions, bells and watch later of this product belong to the person signed in, not to the channel they manage.
 */
export function requireAccount(viewer: ApiViewer, toDo: string): string {
  if (viewer.accountId === undefined)
    throw new HttpError(401, `Sign in to ${toDo}: this call needs a signed-in account (Authorization: Bearer …)`, { 'www-authenticate': 'Bearer' });
  return viewer.accountId;
}
