import { ApiFetchError, JsonParseError } from './apiErrors';
import { parseRetryAfter, RETRY_AFTER_STATUSES } from './parseRetryAfter';

/** The anti-hijack prefix a JSON response may start with (spec §5/§7). */
export const ANTI_HIJACK_PREFIX = ")]}'";

/** A successful API answer: the status, the parsed JSON body (`undefined` when not JSON or empty), and the raw text. */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T | undefined;
  text: string;
}

/** What {@link parseApiResponse} needs to know about the request that was sent. */
export interface ParseContext {
  /** The request went to a log endpoint (`log_event`, `video_stats`). */
  isLogRequest?: boolean;
  /** The request body was gzip-compressed. */
  compressed?: boolean;
  /** The answer's `Retry-After` header, read on 429 and 503 (see {@link parseRetryAfter}). */
  retryAfter?: string | null;
  /** The current time in ms since the epoch, for a `Retry-After` given as an HTTP date (the transport's scheduler). */
  nowMs?: number;
}

/** Spec §8: success is 200–206 and 304; everything else is an error. */
export const isSuccessStatus = (status: number): boolean => (status >= 200 && status <= 206) || status === 304;

/** Strips the `)]}'` prefix (and the line break after it) when present. */
export const stripAntiHijackPrefix = (text: string): string =>
  text.startsWith(ANTI_HIJACK_PREFIX) ? text.slice(ANTI_HIJACK_PREFIX.length).replace(/^\s*/, '') : text;

/**
 * Applies the response rules of spec §5/§7/§8 to an HTTP answer and returns the {@link ApiResponse}, or throws:
 *
 * - JSON is parsed only when the content type contains `json`, after stripping `)]}'`; an empty body is `undefined`;
 * - 200–206 and 304 succeed; a JSON body that does not parse on a success throws {@link JsonParseError};
 * - any other status (4xx, 5xx, …) throws {@link ApiFetchError} ("API fetch failed") with the status and the body
 *   attached (parsed JSON, or the text when it is not JSON or does not parse);
 * - 400 or 415 answering a compressed log request set `compressionFailed` on that error;
 * - 429 or 503 with a readable `Retry-After` set `retryAfterMs` on that error (seconds, or an HTTP date measured
 *   from `ctx.nowMs`); a malformed one is ignored.
 */
export function parseApiResponse(status: number, contentType: string | null | undefined, text: string, ctx: ParseContext = {}): ApiResponse {
  const isJson = (contentType ?? '').toLowerCase().includes('json');
  const payload = stripAntiHijackPrefix(text ?? '');
  if (isSuccessStatus(status)) {
    if (!isJson || payload.trim() === '') return { status, body: undefined, text };
    try {
      return { status, body: JSON.parse(payload), text };
    } catch (cause) {
      throw new JsonParseError(status, text, cause);
    }
  }
  let body: unknown = text;
  if (isJson && payload.trim() !== '') {
    try {
      body = JSON.parse(payload);
    } catch {
      body = text;
    }
  }
  const compressionFailed = Boolean(ctx.isLogRequest && ctx.compressed && (status === 400 || status === 415));
  const retryAfterMs = RETRY_AFTER_STATUSES.includes(status) ? parseRetryAfter(ctx.retryAfter, ctx.nowMs) : undefined;
  throw new ApiFetchError(status, body, compressionFailed, retryAfterMs);
}
