/**
 * Every timing constant and numeric limit of the product spec, one export each, named with its unit.
 * Later code reads these as parameter defaults; nothing copies a number from here into a module variable.
 * The JSDoc line names the spec point that fixes the number.
 */

// ── Compression (§5, §9) ────────────────────────────────────────────────────────────────────────────
/** §5/§9 Request bodies are gzip-compressed only from this size on (inclusive). */
export const COMPRESSION_MIN_BODY_BYTES = 500;
/** §5/§9 Request bodies larger than this are sent uncompressed. */
export const COMPRESSION_MAX_BODY_BYTES = 500_000;

// ── Retry queue (§4, §9) ────────────────────────────────────────────────────────────────────────────
/** §9 A stored log request is resent this many times by default before it is dropped. */
export const RETRY_QUEUE_DEFAULT_RESENDS = 1;
/** §9 Stored requests expire after 30 days. */
export const RETRY_QUEUE_EXPIRY_MS = 2_592_000_000;
/** §9 Queued items are retried within this window. */
export const RETRY_QUEUE_RETRY_WINDOW_MS = 120_000;
/** §9 Delay before a failed request is retried. */
export const RETRY_QUEUE_RETRY_DELAY_MS = 5_000;
/** §9 Throttle between two sends from the queue. */
export const RETRY_QUEUE_THROTTLE_MS = 100;
/** §9 A request left QUEUED (its tab died mid-send) is resent after this long. */
export const RETRY_QUEUE_STALE_QUEUED_MS = 60_000;
/** §9 The request log is kept for one day. */
export const REQUEST_LOG_LIFETIME_MS = 86_400_000;
/**
 * Not in the spec (a product choice): the request log (one line per log request: when, what became of it) keeps at
 * most this many entries besides its 1-day lifetime, so a page that logs a lot for a day stays a few kilobytes.
 */
export const REQUEST_LOG_MAX_ENTRIES = 200;
/** §9 Potential-error limit of the retry queue. */
export const RETRY_QUEUE_POTENTIAL_ERROR_LIMIT = 10;

// ── Event batching (§9) ─────────────────────────────────────────────────────────────────────────────
/** §9 The first batch is sent this long after the first event. */
export const LOG_BATCH_INITIAL_TIMEOUT_MS = 2_000;
/** §9 Default debounce between the last event and the send. */
export const LOG_BATCH_DEBOUNCE_MS = 10_000;
/** §9 No event waits in the queue longer than this. */
export const LOG_BATCH_MAX_QUEUE_WAIT_MS = 60_000;
/** §9 Minimum batch size. */
export const LOG_BATCH_MIN_EVENTS = 5;
/** §9 Maximum number of events in one request. */
export const LOG_BATCH_MAX_EVENTS = 100;
/** §9 A flush is forced when this many events are queued. */
export const LOG_BATCH_FORCE_FLUSH_QUEUED_EVENTS = 1_000;
/** §9 Payload extraction limit. */
export const LOG_PAYLOAD_EXTRACTION_LIMIT = 1_000;
/** §9 The batch counter wraps after this value. */
export const LOG_BATCH_COUNTER_MAX = 65_535;

// ── Local database (§9) ─────────────────────────────────────────────────────────────────────────────
/** §9 The hot and cold config stores hold exactly this many records each. */
export const CONFIG_STORE_MAX_RECORDS = 1;

// ── Scheduler (§9) ──────────────────────────────────────────────────────────────────────────────────
/** §9 Work allowed per animation frame. */
export const SCHEDULER_FRAME_BUDGET_MS = 13.7;
/** §9 Idle-callback timeout. */
export const SCHEDULER_IDLE_TIMEOUT_MS = 3_000;
/** §9 Delay of the emulated idle callback where requestIdleCallback is missing. */
export const SCHEDULER_EMULATED_IDLE_DELAY_MS = 300;

// ── Delayed event tiers (§9) ────────────────────────────────────────────────────────────────────────
/** §9 Delayed-event tier: default. */
export const DELAYED_EVENT_TIER_DEFAULT = 100;
/** §9 Delayed-event tier: dispatch to empty. */
export const DELAYED_EVENT_TIER_DISPATCH_TO_EMPTY = 200;
/** §9 Delayed-event tier: fast. */
export const DELAYED_EVENT_TIER_FAST = 300;
/** §9 Delayed-event tier: immediate. */
export const DELAYED_EVENT_TIER_IMMEDIATE = 400;

// ── Tracking, sampling, caches (§9) ─────────────────────────────────────────────────────────────────
/** §9 Tracking-parameter serialisation is cut at this many characters. */
export const TRACKING_PARAMS_MAX_CHARS = 500;
/** §9 Stored-log sample rate (10 %). */
export const STORED_LOG_SAMPLE_RATE = 0.1;
/** §9 Storage-event logging samples most kinds of events at 20 %. */
export const STORAGE_EVENT_SAMPLE_RATE = 0.2;
/** §9 Visual-element attach cache limit. */
export const VISUAL_ELEMENT_ATTACH_CACHE_LIMIT = 1_000;
/** Quality of experience: the adaptive stream's bandwidth estimate is logged at most once in this long (product choice). */
export const QOE_BANDWIDTH_LOG_INTERVAL_MS = 10_000;

// ── Navigation, player, ad status (§4, §9) ──────────────────────────────────────────────────────────
/** §4/§9 Application navigation returns to none this long after it started. */
export const NAVIGATION_RESET_MS = 5_000;
/** §4/§9 Player readiness is polled at this interval. */
export const PLAYER_READINESS_POLL_MS = 50;
/** §4/§9 The ad-status check times out (stored value 3) after this long. */
export const AD_STATUS_WAIT_MS = 5_000;

// ── Attestation (§4, §8; product choices, the spec names no numbers) ─────────────────────────────────
/**
 * Not in the spec (a product choice): the attestation program's script counts as not loaded (state 3, "Unable to load
 * Botguard") when it has neither loaded nor failed after this long — a stalled proxy must not leave the loader in 2.
 */
export const ATTESTATION_LOAD_TIMEOUT_MS = 10_000;
/**
 * Not in the spec (a product choice): one run of the program's challenge (fetch a challenge, solve it) fails (state 7
 * at start-up, no token for a subscribe) after this long; the proof-of-work takes well under 100 ms in a browser.
 */
export const ATTESTATION_RUN_TIMEOUT_MS = 10_000;
/**
 * Not in the spec (a product choice): a challenge, and so the response token made from it, is accepted this long after
 * it was issued (2 min). A token is made per subscribe click and sent at once, so minutes are plenty even on a slow
 * network, and short enough that a harvested token is soon worthless and the server's set of used nonces (kept until
 * they expire, to refuse replays) stays small.
 */
export const ATTESTATION_CHALLENGE_LIFETIME_MS = 120_000;
/**
 * Not in the spec (a product choice): the proof-of-work difficulty, in leading zero bits of SHA-256(challenge:counter).
 * 10 bits is about 1 000 hashes on average, a few milliseconds with `crypto.subtle` — a cost for a bot making
 * thousands of requests, none a viewer notices.
 */
export const ATTESTATION_DIFFICULTY_BITS = 10;

/**
 * Not in the spec (a product choice): challenges one client address may fetch per minute. A viewer needs one per
 * embed start and one per subscribe click; a bot farming tokens needs thousands.
 */
export const ATTESTATION_CHALLENGE_RATE_LIMIT_PER_MINUTE = 60;

// ── Anonymous id (§7, §8, §9) ───────────────────────────────────────────────────────────────────────
/** §9 The anonymous id is refreshed this often after a success (30 min). */
export const ANONYMOUS_ID_REFRESH_MS = 1_800_000;
/** §8/§9 A failed anonymous-id fetch is retried after this long (2 min). */
export const ANONYMOUS_ID_RETRY_MS = 120_000;
/** §8/§9 A failed anonymous-id fetch is retried at most this many more times. */
export const ANONYMOUS_ID_MAX_RETRIES = 2;
/** §7/§9 Timeout of the anonymous-id request. */
export const ANONYMOUS_ID_TIMEOUT_MS = 5_000;
/**
 * Not in the spec (a product choice): how long the embed waits for the host page's TCF CMP to answer once its
 * `__tcfapiLocator` frame was found, before it treats the page as having none (a late answer still decides).
 */
export const TCF_ANSWER_TIMEOUT_MS = 5_000;
/** Not in the spec (a product choice): the embed renews the viewer's access token this long before it expires. */
export const ACCESS_TOKEN_RENEW_MARGIN_MS = 60_000;
/** Not in the spec (a product choice): how often the embed checks whether the viewer closed the sign-in pop-up. */
export const SIGNIN_POPUP_CLOSED_POLL_MS = 500;

// ── Geolocation and cookies (§9) ────────────────────────────────────────────────────────────────────
/** §9 Geolocation timeout on desktop. */
export const GEOLOCATION_TIMEOUT_MS = 10_000;
/** §9 Geolocation timeout on the mobile web client. */
export const GEOLOCATION_TIMEOUT_MOBILE_MS = 15_000;
/** §9 Latitude and longitude are sent as integers scaled by this factor. */
export const GEOLOCATION_COORDINATE_SCALE = 1e7;
/** §9 Lifetime of the location token. */
export const LOCATION_TOKEN_LIFETIME_S = 15_552_000;
/** §9 Lifetime of the preference cookie. */
export const PREFERENCE_COOKIE_LIFETIME_S = 63_072_000;

// ── Error reporting (§7, §8, §9) ────────────────────────────────────────────────────────────────────
/** §7/§9 Error messages are truncated to this many characters. */
export const ERROR_MESSAGE_MAX_CHARS = 250;
/** §8/§9 At most this many errors are reported per page. */
export const ERROR_REPORTS_MAX_PER_PAGE = 5;
/** §7 (product choice: the spec bounds only the message) A reported stack is cut at this many characters. */
export const ERROR_STACK_MAX_CHARS = 2_000;

// ── Latency (§9) ────────────────────────────────────────────────────────────────────────────────────
/** §9 The latency log keeps at most this many entries per key. */
export const LATENCY_MAX_ENTRIES_PER_KEY = 5;
/** §9 Latency entries older than this are purged. */
export const LATENCY_STALE_ENTRY_MS = 60_000;

// ── Host protocol (host-protocol.md) ────────────────────────────────────────────────────────────────
/** host-protocol §3 A host sends `listening` this often until the embed answers. */
export const HOST_LISTENING_INTERVAL_MS = 250;
/** host-protocol §5 The host extrapolates currentTime while playing by at most this long. */
export const HOST_TIME_EXTRAPOLATION_MAX_MS = 1_000;
/** (product choice, not in the spec) Bursts of deliveries to the host (a dragged volume slider) are coalesced over this window. */
export const HOST_DELIVERY_COALESCE_MS = 100;
/**
 * (product choice) A time change that differs from what steady playback explains (wall-clock × rate) by more
 * than this is a seek: its deliveries go out at once, never held in the coalescing window. Playback ticks come ~4 Hz
 * (≈ 0.25 s of media), so a second cannot be mistaken for one.
 */
export const HOST_SEEK_JUMP_SECONDS = 1;

/**
 * The embed's services (logging, consent, attestation) load once the player is ready, so they never compete
 * with the first frame or the host's `onReady`; when readiness takes longer than this (a slow media server, a playlist
 * still being fetched), they load anyway, and the controls with them (a player not ready needs them: its spinner or
 * error screen), so the viewer is not left without controls.
 */
export const SERVICES_LATEST_LOAD_MS = 1000;
/**
 * After the controls' chunk failed to load (the network, a deploy in between), the page asks for it again this long
 * after the first failure (ms), twice as long after each next one, at most {@link CONTROLS_RETRY_MAX_MS}; a pointer
 * moving over the player meanwhile sends no request.
 */
export const CONTROLS_RETRY_AFTER_MS = 3000;
/** The longest wait between two requests for a controls chunk that keeps failing (ms; a product choice). */
export const CONTROLS_RETRY_MAX_MS = 60000;
/**
 * After the services' chunk (logging with its storage and retry queue, consent, attestation) failed to load, the page
 * asks for it again this long after the first failure (ms), twice as long after each next one, at most
 * {@link SERVICES_RETRY_MAX_MS}, or sooner when it is being hidden or the controls come; until it is there, what logging
 * will want to see stays recorded (`RECORDER_MAX_ENTRIES`). A product choice: the same value as
 * {@link RETRY_QUEUE_RETRY_DELAY_MS}.
 */
export const SERVICES_RETRY_AFTER_MS = 5000;
/** The longest wait between two requests for a services chunk that keeps failing (ms; a product choice). */
export const SERVICES_RETRY_MAX_MS = 60000;
/**
 * (product choice): a muted video the browser starts by itself from the server's HTML (its `autoplay`) gets
 * its first frame before the page's script takes the main thread for the player's boot (the host's handshake is
 * answered by the HTML meanwhile); the boot waits at most this long for it (a slow media server).
 */
export const PLAYER_BOOT_FIRST_FRAME_WAIT_MS = 500;

/**
 * The page's logging starts once the player is ready and the page idle; until then what the player says is
 * recorded (`streams/shared/recorder.ts`). This bounds what a recorder keeps for a consumer that never comes (its
 * chunk failed to load): about 20 minutes of playback ticks, far beyond the second or so it normally waits.
 */
export const RECORDER_MAX_ENTRIES = 5000;

// ── Connectivity and transport (§9: "library behaviour, not part of the product's contract") ────────
/** §9 library behaviour: the first re-probe of generate_204 after a failed one; doubles on each further failure. */
export const NETWORK_PROBE_BACKOFF_BASE_MS = 1_000;
/** §9 library behaviour: the back-off between generate_204 probes never exceeds this. */
export const NETWORK_PROBE_BACKOFF_MAX_MS = 60_000;
/** §9 library behaviour: a generate_204 probe not answered after this long has failed. */
export const NETWORK_PROBE_TIMEOUT_MS = 5_000;
/** §8 library behaviour: an API request with no answer after this long fails with net.timeout. */
export const API_REQUEST_TIMEOUT_MS = 30_000;
/** (a browser limit) Keepalive bodies in flight may not add up to more than this (64 KiB). */
export const KEEPALIVE_BUDGET_BYTES = 65_536;

// ── Input bounds (product choice, not in the spec) ─────────────────────────────────────────────────
/** A player variable, a media URL or a text argument from a host longer than this is refused unread. */
export const TEXT_INPUT_MAX_CHARS = 2_000;
/** A list a host names (a list id, a channel, a search query) is at most this long: longer is refused (onError 2, 400). */
export const PLAYLIST_LIST_MAX_CHARS = 200;
/** The server-signed stream token of the player configuration is at most this long, or it is dropped. */
export const STREAM_TOKEN_MAX_CHARS = 512;
/** §7 `log_event` carries at most this many credential transfer tokens (more: left out by the client, 400 at the collector). */
export const CREDENTIAL_TRANSFER_TOKENS_MAX = 10;
/** §7 One credential transfer token (an object of strings), serialised, is at most this long. */
export const CREDENTIAL_TRANSFER_TOKEN_MAX_CHARS = 4_096;

// ── Player views (product choices, not in the spec) ────────────────────────────────────────────────
/** The control bar hides after this long without pointer or keyboard activity while playing. */
export const PLAYER_CONTROLS_AUTOHIDE_MS = 3_000;
/** (IFrame API `setOption('captions', 'fontSize', n)`) The smallest caption size a host may set: -1 "small". */
export const CAPTION_FONT_SIZE_MIN = -1;
/** (IFrame API) The largest caption size a host may set: 3 "largest" (0 is "normal"). */
export const CAPTION_FONT_SIZE_MAX = 3;
/** (product choice) Each caption size step scales the cue text by this much: -1 → 0.75×, 0 → 1×, 3 → 1.75×. */
export const CAPTION_FONT_SCALE_PER_STEP = 0.25;
/** ←/→ (and the seek slider's arrows) move this many seconds. */
export const KEYBOARD_SEEK_SMALL_S = 5;
/** j/l (and the seek slider's PageDown/PageUp) move this many seconds. */
export const KEYBOARD_SEEK_LARGE_S = 10;
/** (product choice, as YouTube's touch player) A double tap on the video's left or right half seeks this far back or on. */
export const TOUCH_SEEK_STEP_S = 10;
/**
 * (product choice, the usual double-tap interval of touch players) A second tap within this long of the first is a
 * double tap; once a double-tap seek runs, each tap within this long of the last adds a step; a lone tap is a single
 * tap once this long has passed.
 */
export const TOUCH_DOUBLE_TAP_WINDOW_MS = 300;
/** (product choice) The end screen and the pause screen's "More videos" strip suggest at most this many videos. */
export const END_SCREEN_MAX_SUGGESTIONS = 12;

// ── Ping beacons (spec §7 "ping beacons"; the numbers are product choices) ─────────────────────────
/**
 * A watchtime ping leaves this often while the video plays (and at pause, end, video change and page hide). 10 s
 * bounds what a page that dies without a pagehide (a crash, a killed tab) loses to 10 s of watch time, and is the
 * log sink's own debounce: about 6 GETs of < 1 KiB a minute per playing viewer, so a school or office NAT of 200
 * viewers stays within the collector's per-address rate (each ping route has its own bucket).
 */
export const WATCHTIME_PING_INTERVAL_MS = 10_000;
/**
 * A ping the collector could not take (network failure, 429, 5xx) is sent again at most this many times, then
 * dropped: a ping reports one moment of one playback, so an old one is worth little, and pings must never pile up
 * behind a dead network the way the log retry queue is allowed to. A 4xx other than 429 is never resent.
 */
export const PING_MAX_RESENDS = 2;
/** Delay before a failed ping is sent again (doubled for the second resend). */
export const PING_RESEND_DELAY_MS = 5_000;

// ── Player heartbeat (spec §8 `heartbeat.*`; the numbers are product choices) ─────────────────────────
/**
 * While a video whose answer carries `heartbeatParams` plays, the player asks `player/heartbeat` this often (when the
 * answer names no interval of its own): the server's decision to stop a playback takes effect within this long, at
 * one small POST per 5 s per playing viewer of such a video only (other videos have no heartbeat).
 */
export const PLAYER_HEARTBEAT_INTERVAL_MS = 5_000;
/** An interval named by the answer below this is ignored (the default applies): a bad answer never floods the server. */
export const PLAYER_HEARTBEAT_MIN_INTERVAL_MS = 1_000;
/**
 * A failed heartbeat (an HTTP error, no network, a malformed answer) is asked again this many times (when the answer names no
 * count of its own) before `heartbeat.servererror` stops the playback: one lost request (a restarting server, a proxy
 * hiccup) must not stop a viewer's video, and a server that stays down must not leave it playing unchecked for long.
 */
export const PLAYER_HEARTBEAT_MAX_RETRIES = 2;
/** Delay before a failed heartbeat is asked again, doubled for each next retry (1 s, 2 s: 3 s in all). */
export const PLAYER_HEARTBEAT_RETRY_DELAY_MS = 1_000;
/** The client playback nonce (`cpn`) is this many characters of the base64url alphabet, new for each video load. */
export const PLAYBACK_NONCE_CHARS = 16;
/**
 * Most played segments one watchtime ping carries (`st`/`et`): a ping leaves early when this many wait (a viewer
 * seeking again and again), so its URL stays short (< 1 KiB) and the collector refuses anything longer.
 */
export const PING_MAX_SEGMENTS = 20;

// ── Adaptive streaming: segment loading (not in the spec: product choices) ─────────────────────────────────
/** Media further behind the playhead than this is removed when a `SourceBuffer` is full (`QuotaExceededError`). */
export const STREAM_BACK_BUFFER_SECONDS = 10;
/**
 * A segment is appended chunk by chunk as it arrives only when nothing is buffered this far past its start, and a
 * segment counts as still buffered when its range from this far past its start to this far before its end is: the
 * slack absorbs the rounding of buffered ranges' ends, where one segment's last frame meets the next one's first.
 */
export const STREAM_APPEND_UNBUFFERED_S = 0.25;
/**
 * …and only when, at the bandwidth estimate, the segment and the audio of the same seconds arrive within this share of
 * their play time: playback starts on the first frames, so the link must outpace the media by a clear margin.
 */
export const STREAM_APPEND_LINK_SHARE = 0.7;
/** A failed segment request is retried after this long, doubling at each failure… */
export const STREAM_RETRY_BASE_MS = 500;
/** …up to this long between two attempts (for as long as the network is up). */
export const STREAM_RETRY_MAX_MS = 8_000;
// ── Adaptive streaming: the quality decision (product choices, not in the spec) ──────────────────────
/**
 * A completed transfer smaller than this gives no bandwidth sample: below it, the time from first byte to end is
 * dominated by the first burst of the connection and says little about the link.
 */
export const ABR_SAMPLE_MIN_BYTES = 16_000;
/** The measured estimate is trusted on its own only after this many bytes; before, it is never above the default. */
export const ABR_ESTIMATE_TRUST_BYTES = 128_000;
/** The bandwidth assumed before any sample, and the ceiling of the estimate until it is trusted. */
export const ABR_DEFAULT_ESTIMATE_BPS = 1_000_000;
/** Half-life of the fast moving average of the bandwidth, in seconds of the link's history: it follows a drop quickly. */
export const ABR_FAST_HALF_LIFE_S = 2;
/** Half-life of the slow moving average, in seconds of the link's history: it keeps a short burst from raising the estimate. */
export const ABR_SLOW_HALF_LIFE_S = 3;
/** A rise of the link that lasts this many samples in a row is believed at once (see `ABR_RISE_FACTOR`)… */
export const ABR_RISE_SAMPLES = 3;
/** …when each of them measured at least this many times the trusted estimate: both averages restart from the lowest. */
export const ABR_RISE_FACTOR = 1.5;
/**
 * The first segment of a play is of the highest rung that arrives within this long at the estimate (and that the
 * throughput rule allows): a start that is both quick and not needlessly blurred.
 */
export const ABR_STARTUP_FETCH_MS = 500;
/** The throughput rule goes up to a rung only when its bitrate is at most this share of the estimate. */
export const ABR_UP_SAFETY = 0.7;
/** The throughput rule keeps the current rung while its bitrate is at most this share of the estimate (the hysteresis). */
export const ABR_HOLD_SAFETY = 0.95;
/** The buffer rule (BOLA) takes over from the throughput rule once this much is buffered ahead of the playhead. */
export const ABR_BOLA_ENTER_S = 10;
/** The throughput rule takes over again when the buffer falls below this (below the entry level: the hysteresis). */
export const ABR_BOLA_LEAVE_S = 6;
/** BOLA's buffer level at and below which it picks the lowest rung (V and γ follow from it and the target). */
export const ABR_BOLA_MIN_BUFFER_S = 10;
/** BOLA's buffer level from which it picks the highest rung; it stays below the buffer goal so the top is reachable. */
export const ABR_BOLA_TARGET_BUFFER_S = 24;
/** The engine fetches ahead until this much is buffered, then waits for the playhead. */
export const ABR_BUFFER_GOAL_S = 30;
/**
 * An automatic decision above the rung buffered beyond this many seconds past the playhead, with more than this (and
 * one more segment) buffered, fetches that video again at the new rung, over the buffer. What is kept covers the time
 * the new rung's first segment takes to arrive.
 */
export const ABR_REPLACE_KEEP_S = 3;
/**
 * …and only when the new rung's bitrate is at most this share of the estimate: the link has room to spare for fetching
 * the same seconds again while the buffer's end stands still.
 */
export const ABR_REPLACE_SAFETY = 0.6;
/** A rung is never picked when its next segment, at the estimate, takes longer than this share of the buffer to fetch. */
export const ABR_INSUFFICIENT_BUFFER_SAFETY = 0.7;
/** After a switch down, no switch up for this long: a dip of the link does not become a down-up pair every time. */
export const ABR_UP_SWITCH_AFTER_DOWN_MS = 8_000;
/** A transfer is never abandoned before this long after its request: its rate is not known yet. */
export const ABR_ABANDON_MIN_ELAPSED_MS = 500;
/** A transfer that got no byte for this long is not abandoned: the link is out, and a lower segment would wait as long. */
export const ABR_ABANDON_IDLE_MS = 2_000;
/** The bandwidth estimate reaches telemetry at most this often (its latest value at the end of each window). */
export const ABR_ESTIMATE_THROTTLE_MS = 2_000;
// ── Adaptive ladder (product choices: the segment length every rendition of an ingested video shares) ──
/**
 * Every rendition of an ingested video is cut into segments of this length, each starting on a keyframe at the same
 * time in every rendition, so the player switches rendition at any segment boundary; the last one may be shorter.
 */
export const INGEST_SEGMENT_SECONDS = 2;
/** No segment is ever longer than this: a switch or a seek never waits for more than one such segment's download. */
export const INGEST_SEGMENT_MAX_SECONDS = 4;
/** The stats panel reads the element's frame counts and picture size this often while it is open. */
export const STATS_PANEL_SAMPLE_MS = 1_000;
