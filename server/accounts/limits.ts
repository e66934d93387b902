/**
 * The accounts domain's numbers, one line each, named after their unit. Route limits (body size, rate) are stated
 * next to each route and read from here.
 */

/** How long a sign-in lasts (cookie `Max-Age` and `sessions.expires_at_ms`): 14 days. */
export const SESSION_LIFETIME_MS = 14 * 24 * 3600 * 1000;
/**
 * Sign-in attempts per client address per minute (`POST /signin`): enough for typos, too few for guessing. A known
 * device of the account an attempt names is not counted (`signinThrottle.ts`).
 */
export const SIGNIN_RATE_LIMIT_MAX = 10;
/** Longest email accepted (RFC 5321's path limit). */
export const EMAIL_MAX_CHARS = 254;
/** Longest password accepted: every character is hashed, so an unbounded one would be a cheap way to burn CPU. */
export const PASSWORD_MAX_CHARS = 1024;
/** Largest form body of the sign-in routes, in bytes. */
export const ACCOUNTS_FORM_BODY_MAX_BYTES = 4096;
/** Largest JSON body of the `/accounts/*` routes, in bytes. */
export const ACCOUNTS_JSON_BODY_MAX_BYTES = 1024;

/**
 * Failed sign-ins an email may have before each further attempt must wait (`POST /signin` answers 429 with
 * `Retry-After` until then). Counted per email, whether or not it has an account, so the answers tell nothing.
 */
export const SIGNIN_FREE_FAILURES = 5;
/** The first wait after the free failures; each further failure doubles it (1 s, 2 s, 4 s, 8 s, 16 s). */
export const SIGNIN_FIRST_DELAY_MS = 1000;
/** Failed sign-ins after which the email is locked for {@link SIGNIN_LOCK_MS}, and again after every further one. */
export const SIGNIN_LOCK_FAILURES = 10;
/** How long a lock lasts: 15 minutes. A browser that signed in to the account before is not locked out. */
export const SIGNIN_LOCK_MS = 15 * 60 * 1000;
/** An email's failures are forgotten a day after its last one (a success forgets them at once). */
export const SIGNIN_FAILURES_KEPT_MS = 24 * 3600 * 1000;
/** Most emails with failures kept at once; beyond it the oldest are forgotten, those without an account first. */
export const SIGNIN_FAILURE_ROWS_MAX = 100_000;
/** How long a browser stays a known device of an account after its last sign-in there (the `vf_device` cookie): 90 days. */
export const KNOWN_DEVICE_LIFETIME_MS = 90 * 24 * 3600 * 1000;
/** Most known devices kept per account; a new one replaces the one that signed in longest ago. */
export const KNOWN_DEVICES_PER_ACCOUNT_MAX = 20;
/** Wrong passwords a known device may send before it is treated as unknown until its next successful sign-in. */
export const KNOWN_DEVICE_FAILURES_MAX = 5;
