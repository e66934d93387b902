import { createHash, randomBytes } from 'node:crypto';

/**
 * A session is named three ways, each for one reader:
 *
 * - the **secret** (32 random bytes, base64url: 43 characters) is what the browser holds, in the `vf_session` cookie
 *   or, after a pop-up sign-in, in the embed's memory. It is never stored;
 * - the **id hash** (SHA-256 of the secret, hex) is the `sessions` row's key, so a copy of the database cannot be
 *   turned back into a working session;
 * - the **session id** (the id hash's first 32 hex characters, 128 bits) is what access tokens carry (`sid`), so a
 *   token names its session, and dies with it, without carrying the row's key.
 */
export const SESSION_SECRET_PATTERN = '^[A-Za-z0-9_-]{43}$';

/** A new session secret: 32 bytes from the CSPRNG, base64url. */
export const newSessionSecret = (): string => randomBytes(32).toString('base64url');

/** The `sessions.id_hash` of a secret. */
export const sessionIdHashOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** The public session id (token `sid`) of a session's id hash. */
export const sessionIdOf = (idHash: string): string => idHash.slice(0, 32);
