/**
 * How long a failed send asked the client to wait before the next one: the `retryAfterMs` the transport attaches to
 * its error when the collector answered 429 or 503 with a readable `Retry-After`, or `undefined` when the
 * failure named no wait (a network error, another status, a malformed header).
 *
 * Read duck-typed, as {@link isPotentialError} reads `status`, so the retry queue depends on no transport class: any
 * error with a finite, non-negative number in `retryAfterMs` counts. The value is returned as given; the drain caps
 * it at its retry window, so a hostile header cannot stall the queue.
 */
export function retryAfterMsOf(error: unknown): number | undefined {
  const ms = typeof error === 'object' && error !== null ? (error as { retryAfterMs?: unknown }).retryAfterMs : undefined;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
