import { ADMIN_API_MAX_PAGE_SIZE, ADMIN_API_MAX_TIMESERIES_BUCKETS } from '../../streams/collector/adminApi';
import { CREDENTIAL_TRANSFER_TOKEN_MAX_CHARS, CREDENTIAL_TRANSFER_TOKENS_MAX, ERROR_MESSAGE_MAX_CHARS } from '../../streams/timing';

/**
 * Every bound the collector puts on what it receives and reads, in one place. The numbers that
 * come from the client's contract are imported from `streams/timing.ts`, never copied.
 */

/** Largest log request body on the wire (413 beyond). */
export const COLLECTOR_MAX_BODY_BYTES = 1_048_576;
/** Largest log request body after gunzip (413 beyond): a gzip bomb stops here. */
export const COLLECTOR_MAX_DECOMPRESSED_BYTES = 4_194_304;
/**
 * Deepest nesting of a log request body outside its events (400 beyond, before it is parsed): far above any real
 * request metadata. Inside `events`, a value nested past {@link COLLECTOR_MAX_EVENT_DEPTH} is cut before parsing
 * whatever its depth, so its event is refused alone and its neighbours are stored.
 */
export const COLLECTOR_MAX_BODY_DEPTH = 20_000;
/** Most events in one log request (400 beyond). The client sends at most 100; it forces a flush at 1000 queued. */
export const COLLECTOR_MAX_EVENTS_PER_REQUEST = 1_000;
/** Largest single event, serialised (that event refused beyond, the others stored). */
export const COLLECTOR_MAX_EVENT_BYTES = 65_536;
/** Deepest nesting of objects and arrays in one event (that event refused beyond). */
export const COLLECTOR_MAX_EVENT_DEPTH = 32;
/** Longest `clientEventId` (`{pageId}:{counter}`). */
export const COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS = 128;
/** Longest event name (the payload key). */
export const COLLECTOR_MAX_EVENT_NAME_CHARS = 64;
/** Deepest nesting of the request `context` and of its small fields (400 beyond). */
export const COLLECTOR_MAX_CONTEXT_DEPTH = 32;
/** Largest request `context`, serialised (400 beyond). */
export const COLLECTOR_MAX_CONTEXT_BYTES = 16_384;
/** Most `credentialTransferTokens` of one log request (400 beyond); they are checked, never stored. */
export const COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKENS = CREDENTIAL_TRANSFER_TOKENS_MAX;
/** Longest credential transfer token, serialised (400 beyond). */
export const COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKEN_CHARS = CREDENTIAL_TRANSFER_TOKEN_MAX_CHARS;
/** Longest value kept of each request header. */
export const COLLECTOR_MAX_HEADER_CHARS = 1_024;

/** The `Retry-After` (seconds) of a 503 when the store cannot take a write now: the client keeps it and resends. */
export const COLLECTOR_STORE_RETRY_AFTER_SEC = 5;

/** Largest error report body (413 beyond). */
export const ERROR_REPORT_MAX_BODY_BYTES = 65_536;
/** Error report message: the client's own cut (spec §8: 250 characters). */
export const ERROR_REPORT_MAX_MESSAGE_CHARS = ERROR_MESSAGE_MAX_CHARS;
/** Longest stack kept of one error report (the client sends at most 2000; a hostile one is cut here). */
export const ERROR_REPORT_MAX_STACK_CHARS = 8_192;
/** Longest URL or file name kept of one error report. */
export const ERROR_REPORT_MAX_URL_CHARS = 2_048;
/** Longest line / column text of one error report. */
export const ERROR_REPORT_MAX_LINE_CHARS = 32;
/** Most extra fields kept of one error report, and the longest key and value of each. */
export const ERROR_REPORT_MAX_EXTRA_FIELDS = 20;
export const ERROR_REPORT_MAX_EXTRA_KEY_CHARS = 64;
export const ERROR_REPORT_MAX_EXTRA_VALUE_CHARS = 1_024;

/** Largest page of an admin read (agreed with the dashboard in `streams/collector/adminApi.ts`). */
export const COLLECTOR_MAX_PAGE_SIZE = ADMIN_API_MAX_PAGE_SIZE;
/** Page size of an admin read that names none. */
export const COLLECTOR_DEFAULT_PAGE_SIZE = 100;
/** Most buckets one timeseries read may ask for, and the narrowest bucket. */
export const COLLECTOR_MAX_TIMESERIES_BUCKETS = ADMIN_API_MAX_TIMESERIES_BUCKETS;
export const COLLECTOR_MIN_TIMESERIES_BUCKET_MS = 1_000;
/** Longest free-text search. */
export const COLLECTOR_MAX_SEARCH_CHARS = 200;

/**
 * The span of the SQLite store's time-series rollups (`collector_minutes`): the store keeps counts and sums per minute
 * in the write transaction, so a time series whose buckets are whole minutes reads one row per minute, not every
 * event. Changing it needs a migration that rebuilds the rollups.
 */
export const COLLECTOR_ROLLUP_MS = 60_000;

/**
 * How often the SQLite store's checkpoint worker copies the write-ahead log into the database file: often enough that
 * the log stays small, each pass a short one.
 */
export const COLLECTOR_WAL_CHECKPOINT_INTERVAL_MS = 250;
/**
 * Log pages (4 KiB) past which the server's own connection checkpoints in a commit, as SQLite does by default at 1000:
 * far above what the checkpoint worker leaves, so it happens only if the worker falls behind or stops.
 */
export const COLLECTOR_WAL_BACKSTOP_PAGES = 50_000;
/** SQLite's own automatic checkpoint threshold, in log pages: the server's connection's when no worker checkpoints. */
export const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

/**
 * Longest one admin or dashboard read may run in the SQLite store's read worker. Past it the worker is stopped and
 * replaced, and the read answers 503 naming the bound: a runaway query never holds the reads that follow.
 */
export const COLLECTOR_READ_TIMEOUT_MS = 10_000;
/**
 * Most admin reads waiting for the read worker; one more answers 503 at once. Reads run one at a time, so a read
 * waits at most this many time bounds and a dashboard that polls faster than the store answers cannot pile up reads.
 */
export const COLLECTOR_READ_QUEUE_MAX = 32;
/**
 * Niceness of the read worker's thread (Linux; 0 is the server's own, 19 the lowest priority): when the cores are
 * busy, the writers' thread runs first and the dashboard's reads take the time that is left.
 */
export const COLLECTOR_READ_WORKER_NICENESS = 10;
/** The `Retry-After` (seconds) of a 503 when a read ran past its time bound or found the read queue full. */
export const COLLECTOR_READ_RETRY_AFTER_SEC = 5;

/**
 * Default write rate per client address, requests per window, of each log route's verified requests (a stream token
 * that verifies) and, in a bucket of their own, of its unverified ones; and of each ping route. A viewer sends about 6
 * log requests a minute, so this lets some 200 viewers share one address (an office or school NAT). Verified requests
 * need a per-address bound besides the per-stream one because anyone can mint streams by loading embed pages; junk
 * has its own bucket so that it never delays the real viewers behind its address.
 */
export const COLLECTOR_RATE_LIMIT_MAX = 1_200;
/**
 * Default write rate per stream on each log route, requests per window: 20 times a viewer's 6 a minute, room for the
 * retry queue to drain a backlog (it resends one request every 100 ms, and waits out a 429's `Retry-After`).
 */
export const COLLECTOR_RATE_LIMIT_PER_STREAM_MAX = 120;
export const COLLECTOR_RATE_LIMIT_WINDOW_MS = 60_000;
/** Default rate of error reports per address. */
export const ERROR_REPORT_RATE_LIMIT_MAX = 60;

/** Events older than this many days are deleted in the background (0 keeps everything). */
export const COLLECTOR_DEFAULT_RETENTION_DAYS = 90;
/** How often the retention job runs. */
export const COLLECTOR_RETENTION_INTERVAL_MS = 3_600_000;

/**
 * Largest number of seconds a ping carries (media time, length, seconds since load): 10 000 000 s is some 115
 * days, beyond any video and any page left open, yet small enough that every value is exact in both stores.
 */
export const PING_MAX_MEDIA_SECONDS = 10_000_000;
/** Largest ping number within one playback: a ping every 10 s for 115 days. */
export const PING_MAX_SEQ = 1_000_000;
