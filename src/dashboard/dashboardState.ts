import {
  asyncScheduler,
  combineLatest,
  distinctUntilChanged,
  map,
  type MonoTypeOperatorFunction,
  type Observable,
  of,
  ReplaySubject,
  scan,
  type SchedulerLike,
  share,
  switchMap,
  timer,
} from 'rxjs';
import type { CollectorApi } from './collectorApi';
import { DASHBOARD_POLL_MS, DASHBOARD_SEARCH_DEBOUNCE_MS } from './dashboardTiming';
import { fillTimeseries, type Series } from './fillTimeseries';
import { followEvents, type EventTable } from './followEvents';
import { type Loadable, pollLoadable } from './pollLoadable';
import { timeRangeOf, type TimeRangeKey, timeseriesWindow } from './timeRanges';
import type { CollectorStats, EventFilter, EventListQuery } from './types';

/** What the reader chooses: the token (from the sign-in session), the charts' time range and the table's filter. */
export interface DashboardInputs {
  token$: Observable<string | null>;
  range$: Observable<TimeRangeKey>;
  filter$: Observable<EventFilter>;
}

/** A panel's read, or nothing to read without a token. */
export type Panel<T> = Loadable<T> | { status: 'signedOut' };
export const SIGNED_OUT = { status: 'signedOut' } as const;

/** Whether the page may show data: decided by the stats read, the first call every token makes. */
export type Access = { status: 'signedOut' } | { status: 'checking' } | { status: 'granted' } | { status: 'refused'; message: string };

/** Everything the dashboard shows, as state streams (each shared: one poll however many components read it). */
export interface DashboardState {
  access$: Observable<Access>;
  stats$: Observable<Panel<CollectorStats>>;
  series$: Observable<Panel<Series>>;
  table$: Observable<EventTable | { status: 'signedOut' }>;
}

export interface DashboardStateOptions {
  pollMs?: number;
  searchDebounceMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * Shared on purpose: late readers get the latest state, and the poll survives React StrictMode's unmount/remount
 * (the reset waits a tick), so each read runs once however many components show it.
 */
const shareState = <T>(scheduler: SchedulerLike): MonoTypeOperatorFunction<T> =>
  share<T>({ connector: () => new ReplaySubject<T>(1), resetOnError: true, resetOnComplete: true, resetOnRefCountZero: () => timer(0, scheduler) });

const sameFilter = (a: EventFilter, b: EventFilter) => a.text === b.text && a.name === b.name && a.endpoint === b.endpoint;

/** The filter as the table applies it: typing settles for `debounceMs` first; a picked name or endpoint applies at once. */
export function settledFilter(filter$: Observable<EventFilter>, debounceMs: number, scheduler: SchedulerLike): Observable<EventFilter> {
  return filter$.pipe(
    map((f): EventFilter => ({ ...f, text: f.text.trim() })),
    distinctUntilChanged(sameFilter),
    scan((previous: { filter: EventFilter; typed: boolean } | null, filter) => ({ filter, typed: previous !== null && previous.filter.text !== filter.text }), null),
    switchMap((next) => (next!.typed ? timer(debounceMs, scheduler).pipe(map(() => next!.filter)) : of(next!.filter))),
  );
}

/** The events query of a filter (empty parts left out). */
export const filterQuery = ({ text, name, endpoint }: EventFilter): Partial<EventListQuery> => ({
  ...(text ? { text } : {}),
  ...(name ? { name } : {}),
  ...(endpoint ? { endpoint } : {}),
});

/**
 * The dashboard's state: stats, charts and table polled from the admin API with the reader's token, every `pollMs`.
 * A new token (sign-in) restarts every read; a refused one (401) stops them and `access$` says `refused`; a new
 * range restarts the charts and the table; a new filter restarts the table.
 */
export function createDashboardState(
  api: CollectorApi,
  { token$, range$, filter$ }: DashboardInputs,
  { pollMs = DASHBOARD_POLL_MS, searchDebounceMs = DASHBOARD_SEARCH_DEBOUNCE_MS, scheduler = asyncScheduler }: DashboardStateOptions = {},
): DashboardState {
  const stats$ = token$.pipe(
    switchMap((token): Observable<Panel<CollectorStats>> => (token === null ? of(SIGNED_OUT) : pollLoadable(() => api.stats(token), { pollMs, scheduler }))),
    shareState(scheduler),
  );

  const access$ = stats$.pipe(
    map((stats): Access => {
      switch (stats.status) {
        case 'signedOut':
          return { status: 'signedOut' };
        case 'loading':
          return { status: 'checking' };
        case 'unauthorized':
          return { status: 'refused', message: stats.message };
        default:
          return { status: 'granted' };
      }
    }),
    distinctUntilChanged((a, b) => a.status === b.status && (a as { message?: string }).message === (b as { message?: string }).message),
    shareState(scheduler),
  );

  const series$ = combineLatest([token$, range$]).pipe(
    switchMap(([token, key]): Observable<Panel<Series>> => {
      if (token === null) return of(SIGNED_OUT);
      const range = timeRangeOf(key);
      return pollLoadable(
        () => {
          const nowMs = scheduler.now();
          const window = timeseriesWindow(range, nowMs);
          return api.timeseries(token, window).pipe(map((buckets) => fillTimeseries(buckets, window, nowMs)));
        },
        { pollMs, scheduler },
      );
    }),
    shareState(scheduler),
  );

  const table$ = combineLatest([token$, range$, settledFilter(filter$, searchDebounceMs, scheduler)]).pipe(
    switchMap(([token, key, filter]) =>
      token === null
        ? of(SIGNED_OUT)
        : followEvents((request) => api.events(token, { ...filterQuery(filter), ...request }), {
            sinceMs: Math.max(0, scheduler.now() - timeRangeOf(key).rangeMs),
            pollMs,
            scheduler,
          }),
    ),
    shareState(scheduler),
  );

  return { access$, stats$, series$, table$ };
}
