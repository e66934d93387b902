/**
 * The log endpoints and their header: part of the wire contract the collector (server/) shares with the client, so a
 * module of constants and pure functions only (see CONTRACT_MODULES in eslint.config.js).
 */

/** Endpoints that are log requests (spec §7: 400/415 mean compression failure, key rules for logging). */
export const LOG_ENDPOINTS = ['log_event', 'video_stats'] as const;
export type LogEndpoint = (typeof LOG_ENDPOINTS)[number];

/** The header that carries the stream token on every log request. */
export const STREAM_TOKEN_HEADER = 'X-VidFrame-Stream-Token';

/** True when a request URL targets `log_event` or `video_stats`. */
export const isLogRequestUrl = (url: string): boolean => /^\/youtubei\/v\d+\/(log_event|video_stats)(\?|$)/.test(url);
