/**
 * Whether a failed send is a *potential* error — one the server or the network may get over (no answer at all, a
 * timeout, HTTP 408, 429 or 5xx) — rather than a definite refusal of this request (any other 4xx).
 *
 * The retry queue gives a request up to {@link RETRY_QUEUE_POTENTIAL_ERROR_LIMIT} failed sends for potential errors,
 * so a collector answering 500 for a while loses nothing, but only 1 + {@link RETRY_QUEUE_DEFAULT_RESENDS} sends when
 * the server refused it outright.
 *
 * The status is read from `error.status` (a number), as the transport attaches it (spec §7: "returns the body with
 * the status attached"); an error without a status is a network failure.
 */
export function isPotentialError(error: unknown): boolean {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  if (typeof status !== 'number') return true;
  return status >= 500 || status === 408 || status === 429;
}
