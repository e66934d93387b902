import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost parameters of new hashes (RFC 7914's interactive-login figures; 16 MiB of memory a hash). */
export const SCRYPT_N = 16384;
export const SCRYPT_R = 8;
export const SCRYPT_P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 64;
/** The costs a stored hash may name: a tampered row cannot make one sign-in cost a gigabyte. */
const MAX_N = 1 << 20;

const scryptAsync = (password: string, salt: Buffer, keyBytes: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
const maxmemFor = (n: number, r: number, p: number) => 128 * n * r * p + 32 * 1024 * 1024;

/**
 * Hashes a password for storage: `scrypt$16384$8$1$<salt base64>$<key base64>`, a 16-byte random salt and a 64-byte
 * key. The costs are in the string, so hashes made with other costs keep verifying when the defaults change. The
 * password is NFC-normalised first, so the same password typed on two keyboards is the same password.
 *
 * Asynchronous on purpose: scrypt runs on libuv's thread pool, and a sign-in never stalls the other requests.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scryptAsync(password, salt, KEY_BYTES, { N: SCRYPT_N, r: SCRYPT_R, p: SCRYPT_P, maxmem: maxmemFor(SCRYPT_N, SCRYPT_R, SCRYPT_P) });
  return `scrypt$${SCRYPT_N}$${SCRYPT_R}$${SCRYPT_P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

const STORED = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/**
 * A well-formed hash that no password matches in practice (its key is 64 zero bytes). A sign-in for an unknown email
 * is checked against it, so it spends the same scrypt as a known one: the answer's timing does not tell which emails
 * have accounts.
 */
export const UNMATCHABLE_PASSWORD_HASH = `scrypt$${SCRYPT_N}$${SCRYPT_R}$${SCRYPT_P}$${Buffer.alloc(SALT_BYTES).toString('base64')}$${Buffer.alloc(KEY_BYTES).toString('base64')}`;

/**
 * Whether `password` is the one `stored` was made from. The keys are compared with `timingSafeEqual`. A stored value
 * that is not a hash of ours (or names absurd costs) matches nothing rather than throwing: a sign-in then fails as a
 * wrong password would.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [, nText, rText, pText, saltText, keyText] = STORED.exec(stored) ?? [];
  if (nText === undefined || rText === undefined || pText === undefined || saltText === undefined || keyText === undefined) return false;
  const [n, r, p] = [Number(nText), Number(rText), Number(pText)];
  const salt = Buffer.from(saltText, 'base64');
  const expected = Buffer.from(keyText, 'base64');
  if (n < 2 || n > MAX_N || (n & (n - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16 || expected.length < 16) return false;
  const key = await scryptAsync(password, salt, expected.length, { N: n, r, p, maxmem: maxmemFor(n, r, p) });
  return timingSafeEqual(key, expected);
}
