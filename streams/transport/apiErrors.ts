/**
 * The typed errors of the API transport, with the exact messages of spec §8. Each keeps `name === 'Error'` so that
 * `String(error)` reads as the spec writes it (`Error: API fetch failed`); tell them apart by `kind` or `instanceof`.
 */
import { numberText } from '../shared/numberText';

/** The network error codes of spec §8. */
export type RequestErrorCode = 'net.timeout' | 'net.badstatus' | 'net.unknown';

/** Spec §8 messages, one per code or case. */
export const REQUEST_TIMED_OUT_MESSAGE = 'Request timed out';
export const UNKNOWN_REQUEST_ERROR_MESSAGE = 'Unknown request error';
export const EXTENSION_BLOCKING_MESSAGE = 'An extension is blocking network request.';
export const BAD_STATUS_MESSAGE_PREFIX = 'Request failed, status=';
export const API_FETCH_FAILED_MESSAGE = 'API fetch failed';
export const JSON_PARSING_FAILED_MESSAGE = 'JSON parsing failed after fetch';

/** A request that did not produce a usable HTTP answer (or produced a bad status), with its spec §8 code. */
export class RequestError extends Error {
  readonly kind: 'request' | 'extension-blocking' = 'request';
  constructor(
    readonly code: RequestErrorCode,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** `net.timeout`: no answer within the transport's timeout. */
export const requestTimedOut = (): RequestError => new RequestError('net.timeout', REQUEST_TIMED_OUT_MESSAGE);

/** `net.unknown`: fetch rejected (network down, CORS, abort). */
export const unknownRequestError = (cause?: unknown): RequestError => new RequestError('net.unknown', UNKNOWN_REQUEST_ERROR_MESSAGE, undefined, { cause });

/** `net.badstatus`: an HTTP answer outside 200–206 and 304. */
export const badStatus = (status: number): RequestError => new RequestError('net.badstatus', `${BAD_STATUS_MESSAGE_PREFIX}${numberText(status)}`, status);

/**
 * A `net.unknown` failure that is most likely a content blocker: fetch threw `TypeError: Failed to fetch` while the
 * browser said it was online.
 */
export class ExtensionBlockingError extends RequestError {
  override readonly kind = 'extension-blocking' as const;
  constructor(cause?: unknown) {
    super('net.unknown', EXTENSION_BLOCKING_MESSAGE, undefined, { cause });
  }
}

/**
 * "API fetch failed" (spec §7/§8): an HTTP failure, with the parsed body (or its text) and the status attached.
 * `cause` is the `net.badstatus` {@link RequestError}. `compressionFailed` is set for 400/415 on a compressed log
 * request (spec §8: such a status means the server could not take the compression). `retryAfterMs` is set when a
 * 429 or 503 carried a readable `Retry-After`: how long the server asked the client to wait, uncapped;
 * the retry queue waits at least that long (within its retry window) before its next send.
 */
export class ApiFetchError extends Error {
  readonly kind = 'api-fetch' as const;
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly compressionFailed = false,
    readonly retryAfterMs?: number,
  ) {
    super(API_FETCH_FAILED_MESSAGE, { cause: badStatus(status) });
  }
}

/** A success status whose body says it is JSON but does not parse (after the `)]}'` prefix is stripped). */
export class JsonParseError extends Error {
  readonly kind = 'json-parse' as const;
  constructor(
    readonly status: number,
    readonly bodyText: string,
    cause?: unknown,
  ) {
    super(JSON_PARSING_FAILED_MESSAGE, { cause });
  }
}

/** A keepalive body larger than the browser's keepalive budget; the caller splits it or stores it for later. */
export class KeepaliveBudgetError extends Error {
  readonly kind = 'keepalive-budget' as const;
  constructor(
    readonly byteLength: number,
    readonly budgetBytes: number,
  ) {
    super(`Keepalive body of ${numberText(byteLength)} bytes exceeds the keepalive budget of ${numberText(budgetBytes)} bytes`);
  }
}

/** Every error the transport emits. */
export type TransportError = RequestError | ApiFetchError | JsonParseError | KeepaliveBudgetError;
