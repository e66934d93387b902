/**
 * How often a server deletes the rate-limit rows whose window has ended and the attestation nonces whose challenge has
 * expired (each server sweeps; a sweep is one DELETE per table).
 */
export const CLUSTER_SWEEP_MS = 60_000;

/** The length of a bucket name with its key, past which the key is kept as its SHA-256 instead. */
export const RATE_LIMIT_KEY_MAX_CHARS = 200;

/**
 * The most counts one statement carries. Counts that arrive while a statement is in flight wait for it and go
 * together in the next one, so a busy server sends few statements of many rows rather than one per request.
 */
export const RATE_LIMIT_BATCH_MAX = 500;

/** The most counts that wait for the database on one server; a count beyond them fails at once. */
export const RATE_LIMIT_QUEUE_MAX = 20_000;
