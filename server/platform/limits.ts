/**
 * The platform calls' numbers (spec §7 calls; the bounds are product choices), one line each, named after their unit.
 * Every bound a request can hit is here, so the 400 / 413 messages and the tests read the same value.
 */

/** Largest body of a platform call, in bytes, compressed or not: well above the largest payload (50 edit actions). */
export const PLATFORM_BODY_MAX_BYTES = 64 * 1024;
/** Channels per subscribe or unsubscribe: the embed names one; a few more let a client batch without being a scan. */
export const SUBSCRIBE_CHANNEL_IDS_MAX = 10;
/** Videos an account's watch later holds; an add beyond it is refused (400), nothing is dropped silently. */
export const WATCH_LATER_MAX_VIDEOS = 5000;
/** Actions per `browse/edit_playlist` request (413 beyond). */
export const EDIT_PLAYLIST_ACTIONS_MAX = 50;
/** Tokens per `feedback` request: one "not interested" plus each report reason is the most a video offers. */
export const FEEDBACK_TOKENS_MAX = 10;
/** Longest `siloName`, `clientFeature` or opaque `params` source text accepted. */
export const PLATFORM_TEXT_MAX_CHARS = 200;
/** Largest `clientParams.startTimeSeconds` of a share link: a day, longer than any catalogue video. */
export const SHARE_START_TIME_MAX_SECONDS = 24 * 3600;
