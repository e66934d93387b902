import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where every token key lives. Each token kind has its own key, so one kind never passes as another:
 *
 * - one server: a key file per kind in `{dataDir}/secrets/` (mode 0600, generated on the first start);
 * - several servers behind one load balancer: keys derived from a shared secret with a purpose suffix
 *   (`VIDFRAME_STREAM_SECRET#visitor`), so every server verifies what any of them signed. The access tokens have a
 *   shared secret of their own (`VIDFRAME_ACCESS_TOKEN_SECRET`).
 */
export const secretsDirOf = (dataDir: string): string => join(dataDir, 'secrets');

/** The key files in `{dataDir}/secrets/`, by token kind (and the admin token, a bearer secret kept beside them). */
export const KEY_FILE_NAMES = {
  admin: 'admin-token',
  stream: 'stream-keys.json',
  antiForgery: 'anti-forgery-keys.json',
  visitor: 'visitor-keys.json',
  consistency: 'consistency-keys.json',
  access: 'access-token-key',
  feedback: 'feedback-token-key',
} as const;

export type KeyKind = keyof typeof KEY_FILE_NAMES;

export const keyFileOf = (dataDir: string, kind: KeyKind): string => join(secretsDirOf(dataDir), KEY_FILE_NAMES[kind]);

/** The purpose suffix that derives a kind's key from the shared secret. */
export const purposeSecret = (sharedSecret: string, purpose: string): string => `${sharedSecret}#${purpose}`;

/** A shared secret as a key: at least 32 characters (`name` says which secret in the error). */
export function sharedSecretKey(secret: string, name: string): Buffer {
  if (secret.length < 32) throw new Error(`${name} must be at least 32 characters`);
  return Buffer.from(secret, 'utf8');
}

/**
 * Writes `text` to `file` with mode 0600 (its folder 0700): through a temporary file and a rename, so a crash leaves
 * the old file or the new one, never half of one.
 */
export function writeSecretFile(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
  chmodSync(file, 0o600);
}

/** The 32-byte key in the key file, generated when the file is absent; `label` names the key in the error. */
export function loadOrCreateKey(keyFile: string, label: string): Buffer {
  if (existsSync(keyFile)) {
    const key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64url');
    if (key.length !== 32) throw new Error(`The ${label} key file ${keyFile} does not hold a 32-byte key; restore it or delete it to generate a new one`);
    return key;
  }
  const key = randomBytes(32);
  writeSecretFile(keyFile, `${key.toString('base64url')}\n`);
  return key;
}

/** A fixed key: the shared secret when given, else the key file's. */
export function fixedKey({ secret, keyFile }: { secret?: string; keyFile?: string }, label: string, factory: string): Buffer {
  if (secret !== undefined) return sharedSecretKey(secret, `The ${label} secret`);
  if (!keyFile) throw new Error(`${factory} needs a key file or a secret`);
  return loadOrCreateKey(keyFile, label);
}
