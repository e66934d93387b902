import { join } from 'node:path';
import { createStreamTokens, type StreamTokens } from '../collector/streamTokens';
import { STREAM_TOKEN_LIFETIME_MS } from '../collector/limits';
import { CONSISTENCY_JAR_EXPIRATION_S } from './responseContext';

/**
 * How long a visitor id (`visitorData`) verifies: 180 days, the platform's location-token lifetime (spec §9) and a
 * common lifetime of visitor cookies. An expired one is not refused: the server hands out a fresh one in
 * `responseContext.visitorData`, which the client adopts.
 */
export const VISITOR_DATA_LIFETIME_MS = 180 * 24 * 3600 * 1000;

/**
 * The anti-forgery token's lifetime: the stream token's (the retry queue's 30 days plus 7), so that a log request
 * resent from the retry queue weeks later still carries a token the server accepts.
 */
export const ANTI_FORGERY_TOKEN_LIFETIME_MS = STREAM_TOKEN_LIFETIME_MS;

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

/**
 * The anti-forgery and visitor-id token issuers. They are the stream token's signed, expiring, rotating format
 * (`server/collector/streamTokens.ts`) with their own keys: key files beside the stream keys, or, when several servers
 * share `VIDFRAME_STREAM_SECRET`, keys derived from it with a purpose suffix (so one token never passes as another).
 */
export function createIdentityTokens({
  secretsDir,
  sharedSecret,
  previousSharedSecret,
  now,
}: {
  secretsDir: string;
  sharedSecret?: string;
  previousSharedSecret?: string;
  now?: () => number;
}): IdentityTokens {
  const issuer = (purpose: string, label: string, carrier: string, lifetimeMs: number) =>
    createStreamTokens({
      ...(sharedSecret
        ? { secret: `${sharedSecret}#${purpose}`, previousSecret: previousSharedSecret ? `${previousSharedSecret}#${purpose}` : undefined }
        : { keyFile: join(secretsDir, `${purpose}-keys.json`) }),
      now,
      lifetimeMs,
      label,
      carrier,
    });
  return {
    antiForgery: issuer('anti-forgery', 'anti-forgery token', ANTI_FORGERY_FIELD, ANTI_FORGERY_TOKEN_LIFETIME_MS),
    visitor: issuer('visitor', 'visitor id', 'X-Goog-Visitor-Id', VISITOR_DATA_LIFETIME_MS),
    consistency: issuer('consistency', 'consistency token', 'context.request.consistencyTokenJars', CONSISTENCY_JAR_EXPIRATION_S * 1000),
  };
}
