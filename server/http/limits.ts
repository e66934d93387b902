/**
 * How the server stops (`SIGTERM`, `SIGINT`): it stops accepting connections, answers every request that arrives on
 * an open connection with 503 and `Retry-After`, lets the requests already being handled finish, then commits and
 * closes the store.
 */

/** The `Retry-After` (seconds) of a request refused while the server stops: about as long as a restart takes. */
export const DRAIN_RETRY_AFTER_SEC = 5;

/**
 * How long an idle keep-alive connection stays open once the stop begins, so a request a client already sent on it
 * is answered (503, `Connection: close`) rather than reset: longer than a round trip to any client.
 */
export const DRAIN_IDLE_GRACE_MS = 1_000;

/**
 * The longest a stop waits for the requests in flight before it closes their connections: under the 30 s a process
 * manager (systemd, Kubernetes, Docker) gives a process between SIGTERM and SIGKILL, so the store is always committed.
 */
export const DRAIN_TIMEOUT_MS = 20_000;
