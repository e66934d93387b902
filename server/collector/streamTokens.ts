import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { STREAM_KEY_ROTATION_MS, STREAM_TOKEN_CLOCK_SKEW_MS, STREAM_TOKEN_LIFETIME_MS, STREAM_TOKEN_MAX_CHARS } from './limits';

/**
 * Server-issued log streams (issue 12 §2). Each embed page view gets a stream token signed by the server:
 *
 *   `v1.{keyId}.{streamId}.{issuedAt base36}.{HMAC-SHA256 base64url}`
 *
 * Log requests carry it (`X-VidFrame-Stream-Token`); the collector scopes de-duplication to (stream, event id), so a
 * client cannot claim another stream's ids, and a forged or expired token is refused (401) before anything is stored.
 *
 * Keys live in `{dataDir}/secrets/stream-keys.json` (mode 0600), newest first. A key older than
 * {@link STREAM_KEY_ROTATION_MS} is replaced at start-up (or by {@link StreamTokens.rotate}); the replaced key keeps
 * verifying the tokens it signed for {@link STREAM_TOKEN_LIFETIME_MS}, which covers the retry queue's 30-day expiry.
 * A running server rotates too, at the first token it issues past that age.
 *
 * Several collectors behind one load balancer share one key through `VIDFRAME_STREAM_SECRET`. It is rotated by
 * setting a new one and moving the old one to `VIDFRAME_STREAM_SECRET_PREVIOUS`, which then only verifies, for as long
 * as the tokens it signed live (the key id is derived from the secret, so each token names the secret that signed it).
 */

interface StreamKey {
  id: string;
  secret: Buffer;
  createdAtMs: number;
}

export interface StreamTokens {
  /** A new stream and its token. */
  issue(): { stream: string; token: string };
  /** The stream a token names, or why it is refused. */
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
  /**
   * What the token is called in refusal messages. The same signed, expiring, rotating token also serves as the
   * anti-forgery token and the visitor id (`server/api/identityTokens.ts`), each with its own keys.
   */
  label?: string;
  /** The header or field that carries it, named in the "carries no token" message. */
  carrier?: string;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');
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
  let keys: StreamKey[];

  const save = () => {
    if (!keyFile) return;
    mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
    const tmp = `${keyFile}.tmp`;
    const json = JSON.stringify({ keys: keys.map((k) => ({ id: k.id, secret: b64url(k.secret), createdAtMs: k.createdAtMs })) }, null, 2);
    writeFileSync(tmp, json, { mode: 0o600 });
    renameSync(tmp, keyFile); // atomic: a crash leaves the old file or the new one, never half of one
    chmodSync(keyFile, 0o600);
  };
  const newKey = (): StreamKey => ({ id: b64url(randomBytes(6)), secret: randomBytes(32), createdAtMs: now() });
  /** Keys that can no longer have signed a live token are dropped. */
  const prune = () => {
    keys = keys.filter((k, i) => i === 0 || now() - keys[i - 1].createdAtMs <= lifetimeMs);
  };

  if (secret !== undefined) {
    if (secret.length < 32) throw new Error('VIDFRAME_STREAM_SECRET must be at least 32 characters');
    /** A key id that names the secret without revealing it. */
    const idOf = (text: string) => `e${createHash('sha256').update(`vidframe-stream-key:${text}`).digest('base64url').slice(0, 10)}`;
    keys = [{ id: idOf(secret), secret: Buffer.from(secret, 'utf8'), createdAtMs: 0 }];
    if (previousSecret !== undefined && previousSecret !== '' && previousSecret !== secret) {
      keys.push({ id: idOf(previousSecret), secret: Buffer.from(previousSecret, 'utf8'), createdAtMs: 0 });
    }
  } else {
    if (!keyFile) throw new Error('createStreamTokens needs a key file or a secret');
    keys = [];
    if (existsSync(keyFile)) {
      try {
        const parsed = JSON.parse(readFileSync(keyFile, 'utf8')) as { keys?: { id: string; secret: string; createdAtMs: number }[] };
        keys = (parsed.keys ?? [])
          .filter((k) => typeof k.id === 'string' && typeof k.secret === 'string' && Number.isFinite(k.createdAtMs))
          .map((k) => ({ id: k.id, secret: Buffer.from(k.secret, 'base64url'), createdAtMs: k.createdAtMs }));
      } catch (error) {
        throw new Error(`The stream key file ${keyFile} is unreadable (${(error as Error).message}); restore it or move it aside`, { cause: error });
      }
    }
    if (keys.length === 0 || now() - keys[0].createdAtMs > rotationMs) {
      keys.unshift(newKey());
      prune();
      save();
    }
  }

  const sign = (key: StreamKey, body: string) => createHmac('sha256', key.secret).update(body).digest();

  return {
    issue() {
      if (secret === undefined && now() - keys[0].createdAtMs > rotationMs) this.rotate();
      const key = keys[0];
      const stream = b64url(randomBytes(16));
      const body = `v1.${key.id}.${stream}.${now().toString(36)}`;
      return { stream, token: `${body}.${b64url(sign(key, body))}` };
    },
    verify(token) {
      if (typeof token !== 'string' || token === '') return { ok: false, reason: `The request carries no ${label} (${carrier})` };
      if (token.length > STREAM_TOKEN_MAX_CHARS) return { ok: false, reason: `The ${label} is too long` };
      const match = TOKEN.exec(token);
      if (!match) return { ok: false, reason: `The ${label} is malformed` };
      const [, keyId, stream, issued, signature] = match;
      const key = keys.find((k) => k.id === keyId);
      if (!key) return { ok: false, reason: `The ${label} was signed with an unknown or retired key` };
      // Compared as text: base64url decoding ignores a last character's spare bits, so comparing decoded bytes would
      // accept several spellings of one signature.
      const expected = Buffer.from(b64url(sign(key, `v1.${keyId}.${stream}.${issued}`)));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: `The ${label} signature is wrong` };
      const issuedAtMs = parseInt(issued, 36);
      if (issuedAtMs > now() + STREAM_TOKEN_CLOCK_SKEW_MS) return { ok: false, reason: `The ${label} is issued in the future` };
      if (now() - issuedAtMs > lifetimeMs) return { ok: false, reason: `The ${label} has expired`, expired: true };
      return { ok: true, stream };
    },
    rotate() {
      if (secret !== undefined) throw new Error('A shared VIDFRAME_STREAM_SECRET is rotated by changing it on every collector');
      keys.unshift(newKey());
      prune();
      save();
    },
    keyIds: () => keys.map((k) => k.id),
  };
}
