/**
 * Every timing constant and limit of the telemetry dashboard, one JSDoc line each, the unit in the name. They are the
 * parameter defaults of the dashboard's stream factories (never copied into module-level variables elsewhere).
 */
import { ADMIN_API_MAX_PAGE_SIZE, ADMIN_API_MAX_TIMESERIES_BUCKETS } from '../../streams/collector/adminApi';

/** How often the dashboard asks the collector for fresh stats, charts and table rows. */
export const DASHBOARD_POLL_MS = 2000;
/** A call to the admin API that has not answered in this long counts as failed (and is retried at the next poll). */
export const DASHBOARD_REQUEST_TIMEOUT_MS = 10_000;
/** Typing in the table's search box restarts the table this long after the last keystroke. */
export const DASHBOARD_SEARCH_DEBOUNCE_MS = 300;
/** The table keeps at most this many rows (the newest); older ones are dropped as new ones arrive. */
export const DASHBOARD_TABLE_MAX_ROWS = 200;
/** Events asked for per page (the collector's largest page). */
export const DASHBOARD_EVENTS_PAGE_LIMIT = ADMIN_API_MAX_PAGE_SIZE;
/** Pages the table reads at most per poll once live; a larger backlog is skipped to stay live. */
export const DASHBOARD_TABLE_MAX_PAGES_PER_POLL = 4;
/** Pages the table reads at most on its first poll (catching up with the chosen time range). */
export const DASHBOARD_TABLE_MAX_PAGES_FIRST_POLL = 10;
/** Buckets the collector returns at most per timeseries call. */
export const DASHBOARD_TIMESERIES_MAX_BUCKETS = ADMIN_API_MAX_TIMESERIES_BUCKETS;
/** Each table poll reads again this far back from the newest event it has seen, for writes that committed late. */
export const DASHBOARD_TABLE_OVERLAP_MS = 3000;
/** The sessions headline counts the sessions that sent events this recently (batches come at least once a minute). */
export const DASHBOARD_RECENT_SESSIONS_MS = 60_000;
