import { randomBytes } from 'node:crypto';
import { createKeyRing } from './keyRing';
import { STREAM_KEY_ROTATION_MS, STREAM_TOKEN_CLOCK_SKEW_MS, STREAM_TOKEN_LIFETIME_MS, STREAM_TOKEN_MAX_CHARS } from './limits';
import { signatureMatches, signBody } from './signing';

/**
 * The rotating `v1` token: an id the server makes up, signed, expiring, with rotating keys.
 *
 *   `v1.{keyId}.{id}.{issuedAt base36}.{HMAC-SHA256 base64url}`
 *
 * It serves four kinds, each with its own keys (`identityTokens.ts`): the stream token of each embed page view (log
 * requests carry it in `X-VidFrame-Stream-Token`; the collector scopes de-duplication to (stream, event id), so a
 * client cannot claim another stream's ids, and a forged or expired token is refused before anything is stored), the
 * visitor id, the anti-forgery token and the consistency token jar.
 *
 * Keys (`keyRing.ts`) live in a key file (`{dataDir}/secrets/stream-keys.json`, mode 0600), newest first, replaced
 * after {@link STREAM_KEY_ROTATION_MS} (a replaced key keeps verifying the tokens it signed for
 * {@link STREAM_TOKEN_LIFETIME_MS}, which covers the retry queue's 30-day expiry); or they come from a shared secret
 * (`VIDFRAME_STREAM_SECRET`, with `VIDFRAME_STREAM_SECRET_PREVIOUS` verifying during a change of secret).
 */
export interface StreamTokens {
  /** A new id and its token. */
  issue(): { stream: string; token: string };
  /** The id a token names, or why it is refused. */
  verify(token: unknown): { ok: true; stream: string } | { ok: false; reason: string; expired?: true };
  /** Starts signing with a new key; earlier keys keep verifying for the token lifetime. */
  rotate(): void;
  /** Key ids, newest first (for tests and diagnostics; never the secrets). */
  keyIds(): string[];
}

export interface StreamTokenOptions {
  /** The key file (`{dataDir}/secrets/stream-keys.json`); ignored when `secret` is given. */
  keyFile?: string;
  /** A shared secret (`VIDFRAME_STREAM_SECRET`), at least 32 characters. */
  secret?: string;
  /** The shared secret it replaced (`VIDFRAME_STREAM_SECRET_PREVIOUS`): verifies its live tokens, signs nothing. */
  previousSecret?: string;
  now?: () => number;
  lifetimeMs?: number;
  rotationMs?: number;
  /** What the token is called in refusal messages (`anti-forgery token`, `visitor id`). */
  label?: string;
  /** The header or field that carries it, named in the "carries no token" message. */
  carrier?: string;
}

const TOKEN = /^v1\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{16,64})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

export function createStreamTokens({
  keyFile,
  secret,
  previousSecret,
  now = Date.now,
  lifetimeMs = STREAM_TOKEN_LIFETIME_MS,
  rotationMs = STREAM_KEY_ROTATION_MS,
  label = 'stream token',
  carrier = 'X-VidFrame-Stream-Token',
}: StreamTokenOptions): StreamTokens {
  const ring = createKeyRing({ keyFile, secret, previousSecret, now, lifetimeMs, rotationMs });

  return {
    issue() {
      const key = ring.signingKey();
      const stream = randomBytes(16).toString('base64url');
      const body = `v1.${key.id}.${stream}.${now().toString(36)}`;
      return { stream, token: `${body}.${signBody(key.secret, body)}` };
    },
    verify(token) {
      if (typeof token !== 'string' || token === '') return { ok: false, reason: `The request carries no ${label} (${carrier})` };
      if (token.length > STREAM_TOKEN_MAX_CHARS) return { ok: false, reason: `The ${label} is too long` };
      const [, keyId, stream, issued, signature] = TOKEN.exec(token) ?? [];
      if (keyId === undefined || stream === undefined || issued === undefined || signature === undefined) {
        return { ok: false, reason: `The ${label} is malformed` };
      }
      const key = ring.find(keyId);
      if (!key) return { ok: false, reason: `The ${label} was signed with an unknown or retired key` };
      if (!signatureMatches(key.secret, `v1.${keyId}.${stream}.${issued}`, signature)) return { ok: false, reason: `The ${label} signature is wrong` };
      const issuedAtMs = parseInt(issued, 36);
      if (issuedAtMs > now() + STREAM_TOKEN_CLOCK_SKEW_MS) return { ok: false, reason: `The ${label} is issued in the future` };
      if (now() - issuedAtMs > lifetimeMs) return { ok: false, reason: `The ${label} has expired`, expired: true };
      return { ok: true, stream };
    },
    rotate: () => ring.rotate(),
    keyIds: () => ring.ids(),
  };
}
