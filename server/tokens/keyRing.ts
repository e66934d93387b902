import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { sharedSecretKey, writeSecretFile } from './keys';

/** A signing key of a {@link KeyRing}: its id names it in the tokens it signs. */
export interface RingKey {
  id: string;
  secret: Buffer;
  createdAtMs: number;
}

/** Rotating keys, newest first: the newest signs, every kept key verifies. */
export interface KeyRing {
  /** The key that signs now; a file-backed ring first rotates when that key is older than the rotation age. */
  signingKey(): RingKey;
  /** The key a token names, while it is kept. */
  find(id: string): RingKey | undefined;
  /** Starts signing with a new key; earlier keys keep verifying for the token lifetime. */
  rotate(): void;
  /** Key ids, newest first (for tests and diagnostics; never the secrets). */
  ids(): string[];
}

export interface KeyRingOptions {
  /** The key file (`{dataDir}/secrets/…-keys.json`); ignored when `secret` is given. */
  keyFile?: string;
  /** A shared secret, at least 32 characters. */
  secret?: string;
  /** The shared secret it replaced: verifies its live tokens, signs nothing. */
  previousSecret?: string;
  now: () => number;
  /** How long a token verifies: a replaced key is kept this long after its successor was made. */
  lifetimeMs: number;
  /** A file-backed key older than this is replaced (at start-up, or at the first signing past that age). */
  rotationMs: number;
}

/** The shared secret the rings' keys are derived from, named in errors. */
const SECRET_NAME = 'VIDFRAME_STREAM_SECRET';

/**
 * The keys of the rotating `v1` tokens. From a key file: kept in `keyFile` as `{"keys":[{id, secret, createdAtMs}]}`
 * (mode 0600), newest first, a new key made when the newest is older than `rotationMs`, and a replaced key dropped
 * once it can no longer have signed a live token. From a shared secret: one key (and the previous secret's, which
 * only verifies), each with an id derived from its secret, so each token names the secret that signed it; it is
 * rotated by changing the secret on every server.
 */
export function createKeyRing({ keyFile, secret, previousSecret, now, lifetimeMs, rotationMs }: KeyRingOptions): KeyRing {
  if (secret !== undefined) return sharedSecretRing(secret, previousSecret);
  if (!keyFile) throw new Error('createStreamTokens needs a key file or a secret');
  let keys = readKeyFile(keyFile);
  const save = () =>
    writeSecretFile(
      keyFile,
      JSON.stringify({ keys: keys.map((k) => ({ id: k.id, secret: k.secret.toString('base64url'), createdAtMs: k.createdAtMs })) }, null, 2),
    );
  const rotate = (): RingKey => {
    const key: RingKey = { id: randomBytes(6).toString('base64url'), secret: randomBytes(32), createdAtMs: now() };
    // Keys that can no longer have signed a live token (their successor is older than the lifetime) are dropped.
    keys = [key, ...keys].filter((_k, i, all) => {
      const successor = all[i - 1];
      return successor === undefined || now() - successor.createdAtMs <= lifetimeMs;
    });
    save();
    return key;
  };
  /** The newest key, after a rotation when there is none yet or it is older than the rotation age. */
  const newestKey = (): RingKey => {
    const newest = keys[0];
    return newest !== undefined && now() - newest.createdAtMs <= rotationMs ? newest : rotate();
  };
  newestKey();
  return {
    signingKey: newestKey,
    find: (id) => keys.find((k) => k.id === id),
    rotate,
    ids: () => keys.map((k) => k.id),
  };
}

function sharedSecretRing(secret: string, previousSecret: string | undefined): KeyRing {
  /** A key id that names the secret without revealing it. */
  const idOf = (text: string) => `e${createHash('sha256').update(`vidframe-stream-key:${text}`).digest('base64url').slice(0, 10)}`;
  const signing: RingKey = { id: idOf(secret), secret: sharedSecretKey(secret, SECRET_NAME), createdAtMs: 0 };
  const keys: RingKey[] = [signing];
  if (previousSecret !== undefined && previousSecret !== '' && previousSecret !== secret) {
    keys.push({ id: idOf(previousSecret), secret: Buffer.from(previousSecret, 'utf8'), createdAtMs: 0 });
  }
  return {
    signingKey: () => signing,
    find: (id) => keys.find((k) => k.id === id),
    rotate() {
      throw new Error(`A shared ${SECRET_NAME} is rotated by changing it on every collector`);
    },
    ids: () => keys.map((k) => k.id),
  };
}

function readKeyFile(keyFile: string): RingKey[] {
  if (!existsSync(keyFile)) return [];
  try {
    const parsed = JSON.parse(readFileSync(keyFile, 'utf8')) as { keys?: { id: string; secret: string; createdAtMs: number }[] };
    return (parsed.keys ?? [])
      .filter((k) => typeof k.id === 'string' && typeof k.secret === 'string' && Number.isFinite(k.createdAtMs))
      .map((k) => ({ id: k.id, secret: Buffer.from(k.secret, 'base64url'), createdAtMs: k.createdAtMs }));
  } catch (error) {
    throw new Error(`The stream key file ${keyFile} is unreadable (${(error as Error).message}); restore it or move it aside`, { cause: error });
  }
}
