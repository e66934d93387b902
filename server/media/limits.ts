/**
 * The media domain's numbers, one line each, named after their unit: how quickly the library's changes are served and
 * how often a request may make the server look at the library again.
 */

/** Quiet time after the last change in the library's `entries/` before it is read again (an ingest writes, then renames). */
export const LIBRARY_WATCH_DEBOUNCE_MS = 100;
/** Requests naming an unknown video make the server read the library again at most this often, however many there are. */
export const LIBRARY_RESCAN_MIN_INTERVAL_MS = 1000;
/** A media or library file never changes under its name (a new version is a new folder): cached for a year. */
export const MEDIA_MAX_AGE_MS = 365 * 24 * 3600 * 1000;
