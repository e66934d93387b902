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
import { type Loadable, LOADING, pollLoadable } from './pollLoadable';
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

/** Whether the charts and the table may read, and with which token. */
type Grant = { status: 'signedOut' } | { status: 'waiting' } | { status: 'granted'; token: string };

/** The table before its first answer. */
export const TABLE_LOADING: EventTable = { status: 'loading', rows: [], skipped: false };

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

/** Waiting for the grant, then for the first answer: one loading state, not two. */
const bothLoading = <T extends { status: string }>(a: T, b: T) => a.status === 'loading' && b.status === 'loading';

const sameFilter = (a: EventFilter, b: EventFilter) =>
  a.text === b.text && a.name === b.name && a.endpoint === b.endpoint && (a.view ?? 'events') === (b.view ?? 'events');

/** The filter as the table applies it: typing settles for `debounceMs` first; a picked name or endpoint applies at once. */
export function settledFilter(filter$: Observable<EventFilter>, debounceMs: number, scheduler: SchedulerLike): Observable<EventFilter> {
  return filter$.pipe(
    map((f): EventFilter => ({ ...f, text: f.text.trim() })),
    distinctUntilChanged(sameFilter),
    scan(
      (previous: { filter: EventFilter; typed: boolean } | null, filter) => ({ filter, typed: previous !== null && previous.filter.text !== filter.text }),
      null,
    ),
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
 * The stats read goes first with each token; the charts and the table follow once it is not refused, so a wrong token
 * costs one 401 (and `access$` says `refused`), and a token refused later (rotated) stops every read. A new token
 * (sign-in) restarts every read; a new range restarts the charts and the table; a new filter restarts the table, which
 * lists the events or, in the `conflicts` view, the conflicting copies of events.
 */
export function createDashboardState(
  api: CollectorApi,
  { token$, range$, filter$ }: DashboardInputs,
  { pollMs = DASHBOARD_POLL_MS, searchDebounceMs = DASHBOARD_SEARCH_DEBOUNCE_MS, scheduler = asyncScheduler }: DashboardStateOptions = {},
): DashboardState {
  // The stats read goes first with every token: it decides whether the token is accepted (one 401 for a wrong one).
  const session$ = token$.pipe(
    switchMap((token) =>
      token === null
        ? of({ token, stats: SIGNED_OUT as Panel<CollectorStats> })
        : pollLoadable(() => api.stats(token), { pollMs, scheduler }).pipe(map((stats) => ({ token, stats: stats as Panel<CollectorStats> }))),
    ),
    shareState(scheduler),
  );
  const stats$ = session$.pipe(map(({ stats }) => stats));

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

  // The charts and the table read only with a token the stats read did not refuse (a collector that cannot be
  // reached at all does not refuse: they try too, and say what they meet); they restart with each new sign-in.
  const grant$: Observable<Grant> = session$.pipe(
    map(({ token, stats }): Grant => {
      if (token === null) return { status: 'signedOut' };
      if (stats.status === 'ready' || stats.status === 'failed') return { status: 'granted', token };
      return { status: 'waiting' };
    }),
    distinctUntilChanged((a, b) => a.status === b.status && (a as { token?: string }).token === (b as { token?: string }).token),
  );

  const series$ = combineLatest([grant$, range$]).pipe(
    switchMap(([grant, key]): Observable<Panel<Series>> => {
      if (grant.status !== 'granted') return of(grant.status === 'signedOut' ? SIGNED_OUT : LOADING);
      const range = timeRangeOf(key);
      return pollLoadable(
        () => {
          const nowMs = scheduler.now();
          const window = timeseriesWindow(range, nowMs);
          return api.timeseries(grant.token, window).pipe(map((buckets) => fillTimeseries(buckets, window, nowMs)));
        },
        { pollMs, scheduler },
      );
    }),
    distinctUntilChanged(bothLoading),
    shareState(scheduler),
  );

  const table$ = combineLatest([grant$, range$, settledFilter(filter$, searchDebounceMs, scheduler)]).pipe(
    switchMap(([grant, key, filter]): Observable<EventTable | { status: 'signedOut' }> => {
      if (grant.status !== 'granted') return of(grant.status === 'signedOut' ? SIGNED_OUT : TABLE_LOADING);
      const read = filter.view === 'conflicts' ? api.conflicts : api.events;
      return followEvents((request) => read(grant.token, { ...filterQuery(filter), ...request }), {
        sinceMs: Math.max(0, scheduler.now() - timeRangeOf(key).rangeMs),
        pollMs,
        scheduler,
      });
    }),
    distinctUntilChanged(bothLoading),
    shareState(scheduler),
  );

  return { access$, stats$, series$, table$ };
}
