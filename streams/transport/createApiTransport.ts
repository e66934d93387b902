import { asyncScheduler, catchError, defer, finalize, from, type Observable, of, type SchedulerLike, switchMap, throwError, timeout } from 'rxjs';
import { ApiFetchError, ExtensionBlockingError, JsonParseError, KeepaliveBudgetError, RequestError, requestTimedOut, unknownRequestError } from './apiErrors';
import { type ApiRequest, type ApiRequestSettings, buildApiRequest, isLogRequestUrl } from './buildApiRequest';
import { gzipBody, utf8ByteLength } from './gzipBody';
import { type ApiResponse, parseApiResponse } from './parseApiResponse';
import { shouldCompress } from './shouldCompress';
import { API_REQUEST_TIMEOUT_MS, KEEPALIVE_BUDGET_BYTES } from '../timing';

/** The parts of a fetch `Response` the transport reads. */
export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** The fetch init the transport passes (a subset of `RequestInit`). */
export interface FetchInitLike {
  method: 'POST';
  headers: Record<string, string>;
  body: string | Uint8Array;
  keepalive?: boolean;
  credentials?: 'same-origin' | 'include' | 'omit';
  signal?: AbortSignal;
}

/** `window.fetch`, injected. */
export type FetchLike = (url: string, init: FetchInitLike) => Promise<FetchResponseLike>;

export interface ApiTransportOptions {
  fetch: FetchLike;
  /** Read once per request: the context (which changes with visibility, network, …), tokens, key, visitor id. */
  settings: () => ApiRequestSettings;
  /** Gzips a body; {@link gzipBody} by default. A rejection means "send uncompressed". */
  compress?: (body: string) => Promise<Uint8Array>;
  /** `navigator.onLine`, to recognise the extension-blocking case of spec §8. */
  isOnline?: () => boolean;
  /** No answer within this long → `net.timeout`. The spec gives no number: API_REQUEST_TIMEOUT_MS (30 s). */
  timeoutMs?: number;
  /** The browser's keepalive budget (64 KiB of in-flight keepalive bodies). */
  keepaliveBudgetBytes?: number;
  scheduler?: SchedulerLike;
}

export interface ApiTransport {
  /** The request of spec §7 for an endpoint and payload, with the current settings (pure, uncompressed). */
  buildRequest(endpoint: string, payload: Record<string, unknown>): ApiRequest;
  /**
   * Sends a built (or stored) request: gzip when {@link shouldCompress} says so and compression still works on this
   * page; one answer then complete, or a transport error. Unsubscribing aborts the fetch.
   */
  send(request: ApiRequest): Observable<ApiResponse>;
  /**
   * The unload path: sends at once, uncompressed (never waits for compression), with `keepalive: true`. A body over
   * the keepalive budget errors with {@link KeepaliveBudgetError} without fetching, so the caller can split or store.
   */
  sendKeepalive(request: ApiRequest): Observable<ApiResponse>;
  /** `send(buildRequest(endpoint, payload))`. */
  fetchApi(endpoint: string, payload: Record<string, unknown>): Observable<ApiResponse>;
  /** True once a log endpoint answered 400/415 to a compressed body: nothing is compressed for the rest of the page. */
  readonly compressionDisabled: boolean;
}

/**
 * The API transport of spec §5/§7/§8 over an injected `fetch`.
 *
 * - compressed bodies get `Content-Encoding: gzip`; if compression itself fails the body goes out uncompressed;
 * - a log request answered 400 or 415 while compressed is resent uncompressed once, and compression is switched off
 *   for the rest of the page (this transport instance);
 * - responses follow {@link parseApiResponse}: a 429 or 503 with `Retry-After` gives an {@link ApiFetchError} carrying
 *   `retryAfterMs` (an HTTP date is measured against `scheduler.now()`); a fetch rejection becomes `net.unknown` ("Unknown request error"), or
 *   "An extension is blocking network request." when it is `TypeError: Failed to fetch` while online; no answer
 *   within `timeoutMs` (on `scheduler`) becomes `net.timeout` ("Request timed out") and aborts the fetch.
 */
export function createApiTransport({
  fetch,
  settings,
  compress = gzipBody,
  isOnline = () => true,
  timeoutMs = API_REQUEST_TIMEOUT_MS,
  keepaliveBudgetBytes = KEEPALIVE_BUDGET_BYTES,
  scheduler = asyncScheduler,
}: ApiTransportOptions): ApiTransport {
  let compressionDisabled = false;

  const fetchOnce = (request: ApiRequest, body: string | Uint8Array, extra: { gzip?: boolean; keepalive?: boolean }) => {
    const isLogRequest = isLogRequestUrl(request.url);
    const headers = extra.gzip ? { ...request.options.headers, 'Content-Encoding': 'gzip' } : { ...request.options.headers };
    const answer = (signal: AbortSignal | undefined): Promise<ApiResponse> =>
      attempt(() =>
        fetch(request.url, {
          method: 'POST',
          headers,
          body,
          credentials: 'same-origin',
          ...(extra.keepalive ? { keepalive: true } : {}),
          ...(signal ? { signal } : {}),
        }),
      )
        .then(
          (response) =>
            response.text().then((text) =>
              parseApiResponse(response.status, response.headers.get('content-type'), text, {
                isLogRequest,
                compressed: Boolean(extra.gzip),
                retryAfter: response.headers.get('retry-after'),
                nowMs: scheduler.now(),
              }),
            ),
          (error: unknown) => {
            const blocked = error instanceof TypeError && /Failed to fetch/i.test(error.message) && safeOnline(isOnline);
            throw blocked ? new ExtensionBlockingError(error) : unknownRequestError(error);
          },
        )
        .catch((error: unknown) => {
          const known = error instanceof ApiFetchError || error instanceof JsonParseError || error instanceof RequestError;
          throw known ? error : unknownRequestError(error);
        });
    // Unsubscribing aborts the fetch; aborting one that has answered and been read changes nothing.
    const answer$ = defer(() => {
      const abort = typeof AbortController === 'function' ? new AbortController() : undefined;
      return from(answer(abort?.signal)).pipe(finalize(() => abort?.abort()));
    });
    return answer$.pipe(timeout({ first: timeoutMs, scheduler, with: () => throwError(requestTimedOut) }));
  };

  const sendPlain = (request: ApiRequest) => fetchOnce(request, request.options.body, {});

  const send = (request: ApiRequest): Observable<ApiResponse> => {
    const body = request.options.body;
    if (compressionDisabled || !shouldCompress(utf8ByteLength(body))) return sendPlain(request);
    return compressed$(compress, body).pipe(
      switchMap((bytes) =>
        bytes === null
          ? sendPlain(request)
          : fetchOnce(request, bytes, { gzip: true }).pipe(
              catchError((error: unknown) => {
                if (error instanceof ApiFetchError && error.compressionFailed) {
                  compressionDisabled = true;
                  return sendPlain(request);
                }
                return throwError(() => error);
              }),
            ),
      ),
    );
  };

  const sendKeepalive = (request: ApiRequest): Observable<ApiResponse> => {
    const size = utf8ByteLength(request.options.body);
    if (size > keepaliveBudgetBytes) return throwError(() => new KeepaliveBudgetError(size, keepaliveBudgetBytes));
    return fetchOnce(request, request.options.body, { keepalive: true });
  };

  const buildRequest = (endpoint: string, payload: Record<string, unknown>) => buildApiRequest(endpoint, payload, settings());

  return {
    buildRequest,
    send,
    sendKeepalive,
    fetchApi: (endpoint, payload) => defer(() => send(buildRequest(endpoint, payload))),
    get compressionDisabled() {
      return compressionDisabled;
    },
  };
}

/** The body compressed, once; `null` when compression is unavailable or broken (the body then goes out uncompressed). */
function compressed$(compress: (body: string) => Promise<Uint8Array>, body: string): Observable<Uint8Array | null> {
  return defer(() => compress(body)).pipe(catchError(() => of(null)));
}

/** The promise `start` returns, or a rejected one when it throws. */
function attempt<T>(start: () => Promise<T>): Promise<T> {
  try {
    return start();
  } catch (error) {
    return Promise.reject(error);
  }
}

function safeOnline(isOnline: () => boolean): boolean {
  try {
    return isOnline() !== false;
  } catch {
    return true;
  }
}
