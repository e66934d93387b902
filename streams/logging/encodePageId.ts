import { numberText } from '../shared/numberText';

/** The base64url alphabet (RFC 4648 §5): letters, digits, `-` and `_` — nothing JSON or a URL query must escape. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** How many random bytes a page id carries (96 bits: no two pages ever share one). */
export const PAGE_ID_BYTES = 12;

/**
 * A page id (the `serializedEventId` of every log request and the prefix of every `clientEventId`, `{pageId}:{n}`)
 * from {@link PAGE_ID_BYTES} random bytes: their base64url text without padding, 16 characters (hexadecimal would take
 * 24 for the same 96 bits, and the id is in every event the page sends).
 *
 * @throws RangeError unless given exactly {@link PAGE_ID_BYTES} bytes.
 */
export function encodePageId(bytes: Uint8Array): string {
  if (bytes.length !== PAGE_ID_BYTES) throw new RangeError(`a page id is made of ${numberText(PAGE_ID_BYTES)} bytes, not ${numberText(bytes.length)}`);
  // Each group of 3 bytes is 4 characters; PAGE_ID_BYTES is a multiple of 3, so no group is left partial.
  let id = '';
  let group = 0;
  let grouped = 0;
  for (const byte of bytes) {
    group = (group << 8) | byte;
    if (++grouped < 3) continue;
    id += ALPHABET.charAt(group >> 18) + ALPHABET.charAt((group >> 12) & 63) + ALPHABET.charAt((group >> 6) & 63) + ALPHABET.charAt(group & 63);
    group = grouped = 0;
  }
  return id;
}

/** What {@link randomPageId} needs of a `crypto` (the page's `window.crypto`, Node's `globalThis.crypto`). */
export interface RandomSource {
  getRandomValues?: (array: Uint8Array<ArrayBuffer>) => unknown;
}

/**
 * A new page id from `crypto` (the global one by default): {@link PAGE_ID_BYTES} random bytes through
 * {@link encodePageId}. Without a `getRandomValues` (an old or stripped environment), `Math.random` fills them.
 */
export function randomPageId(crypto: RandomSource | undefined = (globalThis as { crypto?: RandomSource }).crypto): string {
  const bytes = new Uint8Array(PAGE_ID_BYTES);
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return encodePageId(bytes);
}
