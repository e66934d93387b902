import { TRACKING_PARAMS_MAX_CHARS } from '../timing';
import { numberText } from '../shared/numberText';

/** A tracking-parameter value; `null` and `undefined` entries are left out. */
export type TrackingParamValue = string | number | boolean | null | undefined;

/** Tracking parameters: already-serialised text, or a flat record serialised as `key=value&…`. */
export type TrackingParams = string | Readonly<Record<string, TrackingParamValue>>;

/**
 * Serialises tracking parameters and cuts the text at {@link TRACKING_PARAMS_MAX_CHARS} characters (spec §9).
 *
 * - A string is taken as already serialised; a record becomes `encodeURIComponent(key)=encodeURIComponent(value)`
 *   joined by `&`, in the record's key order, skipping `null`/`undefined` values.
 * - Text of at most `maxChars` characters is returned unchanged (500 stays 500); longer text is cut to at most
 *   `maxChars` (501 becomes 500). The cut never splits a character: a string is not cut inside a surrogate pair,
 *   and an encoded record is not cut inside a `%XX` escape or a multi-byte escape sequence, so the result always
 *   decodes. It may therefore be up to a few characters shorter than `maxChars`.
 * - Bad input never throws: anything that is neither a string nor a plain object serialises to `''`; a value that
 *   is not a primitive is left out; a `maxChars` that is not a non-negative number is read as 0.
 *
 * ```
 * 'x'.repeat(499) → 499 chars   'x'.repeat(500) → 500 chars   'x'.repeat(501) → 500 chars
 * ```
 */
export function serializeTrackingParams(params: unknown, maxChars: number = TRACKING_PARAMS_MAX_CHARS): string {
  const limit = Number.isFinite(maxChars) && maxChars > 0 ? Math.floor(maxChars) : 0;
  if (typeof params === 'string') return cutText(params, limit);
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(typeof value === 'number' ? numberText(value) : String(value))}`);
  }
  return cutEncoded(parts.join('&'), limit);
}

/** Cuts plain text at `limit` UTF-16 units without leaving half a surrogate pair at the end. */
function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** Cuts URI-encoded text at `limit` without leaving an incomplete escape (one code point is at most 12 chars). */
function cutEncoded(text: string, limit: number): string {
  if (text.length <= limit) return text;
  for (let end = limit; end > 0 && end > limit - 12; end -= 1) {
    const candidate = text.slice(0, end);
    if (decodes(candidate)) return candidate;
  }
  return '';
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
