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

/**
 * A stop signal that comes within this long of the first is the same stop, not a demand to exit at once: a Ctrl-C
 * in a terminal signals the whole process group, so the server gets it from the terminal and again from `npm`, which
 * hands its own copy on. Shorter than a person pressing Ctrl-C a second time.
 */
export const STOP_SIGNAL_REPEAT_MS = 1_000;
