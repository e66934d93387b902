import { keyFileOf, purposeSecret, type KeyKind } from './keys';
import { ANTI_FORGERY_TOKEN_LIFETIME_MS, CONSISTENCY_JAR_EXPIRATION_S, VISITOR_DATA_LIFETIME_MS } from './limits';
import { createStreamTokens, type StreamTokens } from './streamTokens';

/** The body field that carries the anti-forgery token (spec §7 "POSTs carry an anti-forgery token field"). */
export const ANTI_FORGERY_FIELD = 'session_token';

/** The server-signed tokens that say who a request comes from, besides the account's access token. */
export interface IdentityTokens {
  /** The anti-forgery token of spec §7: issued into each embed page's configuration, checked in every POST body. */
  antiForgery: StreamTokens;
  /** The visitor id of spec §6/§7 (`visitorData`, header `X-Goog-Visitor-Id`): issued by the server, kept by the client. */
  visitor: StreamTokens;
  /** Consistency token jars handed to signed-in viewers (`responseContext.consistencyTokenJar`), sent back by them. */
  consistency: StreamTokens;
}

export interface TokenKeySource {
  /** The data folder, whose `secrets/` holds the key files when no shared secret is given. */
  dataDir: string;
  /** `VIDFRAME_STREAM_SECRET`: every kind's key derived from it with a purpose suffix. */
  sharedSecret?: string;
  /** `VIDFRAME_STREAM_SECRET_PREVIOUS`: the shared secret it replaced, still verifying. */
  previousSharedSecret?: string;
  now?: () => number;
}

/**
 * The `v1` tokens of one kind with that kind's keys (`keys.ts`): its key file, or the shared secret with the kind's
 * purpose suffix (the stream tokens use the shared secret itself).
 */
function rotatingTokensOf(
  kind: KeyKind,
  purpose: string | undefined,
  { dataDir, sharedSecret, previousSharedSecret, now }: TokenKeySource,
  naming: { label?: string; carrier?: string; lifetimeMs?: number } = {},
): StreamTokens {
  const derive = (secret: string) => (purpose === undefined ? secret : purposeSecret(secret, purpose));
  return createStreamTokens({
    ...(sharedSecret
      ? { secret: derive(sharedSecret), previousSecret: previousSharedSecret ? derive(previousSharedSecret) : undefined }
      : { keyFile: keyFileOf(dataDir, kind) }),
    now,
    ...naming,
  });
}

/** The stream tokens every embed page view gets (the shared secret itself, or `secrets/stream-keys.json`). */
export const createStreamTokensFor = (source: TokenKeySource): StreamTokens => rotatingTokensOf('stream', undefined, source);

/**
 * The anti-forgery, visitor-id and consistency token issuers: the `v1` format (`streamTokens.ts`), each with its own
 * keys, so one token never passes as another.
 */
export function createIdentityTokens(source: TokenKeySource): IdentityTokens {
  return {
    antiForgery: rotatingTokensOf('antiForgery', 'anti-forgery', source, {
      label: 'anti-forgery token',
      carrier: ANTI_FORGERY_FIELD,
      lifetimeMs: ANTI_FORGERY_TOKEN_LIFETIME_MS,
    }),
    visitor: rotatingTokensOf('visitor', 'visitor', source, { label: 'visitor id', carrier: 'X-Goog-Visitor-Id', lifetimeMs: VISITOR_DATA_LIFETIME_MS }),
    consistency: rotatingTokensOf('consistency', 'consistency', source, {
      label: 'consistency token',
      carrier: 'context.request.consistencyTokenJars',
      lifetimeMs: CONSISTENCY_JAR_EXPIRATION_S * 1000,
    }),
  };
}
