import { RETRY_QUEUE_EXPIRY_MS, STREAM_TOKEN_MAX_CHARS } from '../../streams/timing';

/**
 * The server-signed tokens' lifetimes and lengths, one line each, named after their unit. The numbers that come from
 * the client's contract are imported from `streams/timing.ts`, never copied.
 */

/** How long a stream token is accepted: the retry queue's 30-day expiry plus 7 days for a page kept open that long. */
export const STREAM_TOKEN_LIFETIME_MS = RETRY_QUEUE_EXPIRY_MS + 7 * 24 * 3600 * 1000;
/** Longest stream token (and visitor id, anti-forgery token, consistency token): the client's own bound. */
export { STREAM_TOKEN_MAX_CHARS };
/** A stream key older than this is replaced at start-up; the replaced key verifies old tokens for their lifetime. */
export const STREAM_KEY_ROTATION_MS = 90 * 24 * 3600 * 1000;
/** A token issued this far in the future (clock skew between collectors) is still accepted. */
export const STREAM_TOKEN_CLOCK_SKEW_MS = 5 * 60 * 1000;

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
/** How long a consistency token jar is good for, in seconds (it only has to outlive a read-after-write). */
export const CONSISTENCY_JAR_EXPIRATION_S = 600;

/** How long an access token lives: 15 minutes. The embed asks `/accounts/token` for a new one before then. */
export const ACCESS_TOKEN_LIFETIME_MS = 15 * 60 * 1000;
/** Longest access token looked at; anything longer is malformed without being parsed. */
export const ACCESS_TOKEN_MAX_CHARS = 1024;

/** Longest feedback token looked at; anything longer is refused without being parsed. */
export const FEEDBACK_TOKEN_MAX_CHARS = 512;
/**
 * How long a feedback token verifies: 37 days, the anti-forgery token's lifetime, so a feedback sent from the client's
 * retry queue (30 days) is still accepted.
 */
export const FEEDBACK_TOKEN_LIFETIME_MS = 37 * 24 * 3600 * 1000;
