/**
 * The shapes of the collector's admin API (`/collector/api/…`) as the dashboard reads them: the wire shapes come from
 * `streams/collector/adminApi.ts`, shared with the server; the query and filter shapes are the dashboard's own.
 */

import type { AdminStats, CollectorEndpoint, StoredEvent } from '../../streams/collector/adminApi';

export { COLLECTOR_ENDPOINTS } from '../../streams/collector/adminApi';
export type { CollectorEndpoint, Page, TimeseriesBucket, TimeseriesQuery } from '../../streams/collector/adminApi';

/** `GET /collector/api/stats`: totals over the whole store, and which store answers. */
export type CollectorStats = AdminStats;

/** One stored event as `GET /collector/api/events` lists it. */
export type DashboardEvent = StoredEvent;

/** The query of `GET /collector/api/events`. */
export interface EventListQuery {
  limit: number;
  cursor?: string;
  name?: string;
  endpoint?: CollectorEndpoint;
  stream?: string;
  /** Free text searched in the event's name and JSON. */
  text?: string;
  sinceMs?: number;
  untilMs?: number;
  pageId?: string;
  /** Events sent by this signed-in account. */
  accountId?: string;
}

/**
 * What the table lists: the events, or the conflicting copies of events (an id stored before with another payload,
 * kept beside the first arrival).
 */
export type TableView = 'events' | 'conflicts';

/** What the table is narrowed to: empty strings mean "any"; no `view` means the events. */
export interface EventFilter {
  text: string;
  name: string;
  endpoint: '' | CollectorEndpoint;
  view?: TableView;
}
export const NO_FILTER: EventFilter = { text: '', name: '', endpoint: '' };
