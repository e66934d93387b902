/**
 * The accounts domain's numbers, one line each, named after their unit. Route limits (body size, rate) are stated
 * next to each route and read from here.
 */

/** How long a sign-in lasts (cookie `Max-Age` and `sessions.expires_at_ms`): 14 days. */
export const SESSION_LIFETIME_MS = 14 * 24 * 3600 * 1000;
/** Sign-in attempts per client address per minute (`POST /signin`): enough for typos, too few for guessing. */
export const SIGNIN_RATE_LIMIT_MAX = 10;
/** Longest email accepted (RFC 5321's path limit). */
export const EMAIL_MAX_CHARS = 254;
/** Longest password accepted: every character is hashed, so an unbounded one would be a cheap way to burn CPU. */
export const PASSWORD_MAX_CHARS = 1024;
/** Largest form body of the sign-in routes, in bytes. */
export const ACCOUNTS_FORM_BODY_MAX_BYTES = 4096;
/** Largest JSON body of the `/accounts/*` routes, in bytes. */
export const ACCOUNTS_JSON_BODY_MAX_BYTES = 1024;
