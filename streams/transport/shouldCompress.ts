import { COMPRESSION_MAX_BODY_BYTES, COMPRESSION_MIN_BODY_BYTES } from '../timing';

/**
 * Spec §5/§9: a request body is gzip-compressed only when its size is between
 * {@link COMPRESSION_MIN_BODY_BYTES} and {@link COMPRESSION_MAX_BODY_BYTES} bytes, both inclusive.
 * Smaller bodies gain nothing; larger ones would block the main thread too long. Not a finite number → false.
 */
export function shouldCompress(byteLength: number, minBytes: number = COMPRESSION_MIN_BODY_BYTES, maxBytes: number = COMPRESSION_MAX_BODY_BYTES): boolean {
  return Number.isFinite(byteLength) && byteLength >= minBytes && byteLength <= maxBytes;
}
