import { NEVER, type Observable, of, takeUntil, timer } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { type CollectorApi, CollectorApiError } from '../../../src/dashboard/collectorApi';
import { createDashboardState, filterQuery, settledFilter } from '../../../src/dashboard/dashboardState';
import { DASHBOARD_SEARCH_DEBOUNCE_MS } from '../../../src/dashboard/dashboardTiming';
import type { TimeRangeKey } from '../../../src/dashboard/timeRanges';
import { type CollectorStats, type EventFilter, NO_FILTER } from '../../../src/dashboard/types';
import { createTestScheduler } from '../../helpers/testScheduler';

const STATS: CollectorStats = {
  store: 'sqlite',
  requests: 2,
  compressedRequests: 1,
  events: 9,
  duplicatesDropped: 0,
  conflicts: 0,
  refusedEvents: 0,
  byEndpoint: { log_event: 9, video_stats: 0 },
  byName: { playerLoad: 1 },
  errors: 0,
};

/** An API whose reads answer at once (each a recorded call), unless told otherwise. */
function fakeApi(overrides: Partial<{ [K in keyof CollectorApi]: (...args: Parameters<CollectorApi[K]>) => Observable<unknown> }> = {}) {
  const calls: { method: string; token: string; query?: unknown }[] = [];
  const api: CollectorApi = {
    stats: (token) => (calls.push({ method: 'stats', token }), (overrides.stats?.(token) ?? of(STATS)) as Observable<CollectorStats>),
    timeseries: (token, query) => (calls.push({ method: 'timeseries', token, query }), (overrides.timeseries?.(token, query) ?? of([])) as never),
    events: (token, query) => (calls.push({ method: 'events', token, query }), (overrides.events?.(token, query) ?? of({ items: [] })) as never),
    conflicts: (token, query) => (calls.push({ method: 'conflicts', token, query }), (overrides.conflicts?.(token, query) ?? of({ items: [] })) as never),
  };
  return { api, calls };
}

/** Subscribes until `untilMs` of virtual time (the polls never end by themselves). */
const upTo = <T>(scheduler: TestScheduler, source: Observable<T>, untilMs: number, into: T[] = []) => {
  source.pipe(takeUntil(timer(untilMs, scheduler))).subscribe((v) => into.push(v));
  return into;
};

describe('createDashboardState', () => {
  it('signed out: every panel says so and nothing is read', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ expectObservable }) => {
      const { api, calls } = fakeApi();
      const state = createDashboardState(api, { token$: of(null), range$: of<TimeRangeKey>('5m'), filter$: of(NO_FILTER) }, { scheduler });
      expectObservable(state.access$).toBe('(a|)', { a: { status: 'signedOut' } });
      expectObservable(state.stats$).toBe('(s|)', { s: { status: 'signedOut' } });
      expectObservable(state.series$).toBe('(s|)', { s: { status: 'signedOut' } });
      expectObservable(state.table$).toBe('(s|)', { s: { status: 'signedOut' } });
      scheduler.flush();
      expect(calls).toEqual([]);
    });
  });

  it('with a token: checking, then granted once the stats answer; every read carries the token', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, hot, expectObservable }) => {
      const { api, calls } = fakeApi({ stats: () => cold('3ms (s|)', { s: STATS }) });
      const state = createDashboardState(
        api,
        { token$: hot('t', { t: 'tok' }), range$: hot('r', { r: '5m' as TimeRangeKey }), filter$: hot('f', { f: NO_FILTER }) },
        { scheduler },
      );
      expectObservable(state.access$, '^ 10ms !').toBe('c 2ms g', { c: { status: 'checking' }, g: { status: 'granted' } });
      expectObservable(state.stats$, '^ 10ms !').toBe('l 2ms s', { l: { status: 'loading' }, s: { status: 'ready', data: STATS, updatedAtMs: 3 } });
      scheduler.flush();
      expect(new Set(calls.map((c) => c.token))).toEqual(new Set(['tok']));
    });
  });

  it('shares each read: two readers of the stats make one request per poll', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot }) => {
      const { api, calls } = fakeApi();
      const state = createDashboardState(
        api,
        { token$: hot('t', { t: 'tok' }), range$: hot('r', { r: '5m' as TimeRangeKey }), filter$: hot('f', { f: NO_FILTER }) },
        { scheduler },
      );
      upTo(scheduler, state.stats$, 2001);
      upTo(scheduler, state.stats$, 2001);
      upTo(scheduler, state.access$, 2001);
      scheduler.flush();
      expect(calls.filter((c) => c.method === 'stats')).toHaveLength(2); // at 0 and at 2000
    });
  });

  it('a refused token: access refused with the server’s message; signing in again restarts the reads', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, hot, expectObservable }) => {
      let n = 0;
      const { api } = fakeApi({
        stats: () => (n++ === 0 ? cold('#', undefined, new CollectorApiError('unauthorized', 401, 'The admin token is wrong')) : of(STATS)),
      });
      const token$ = hot('a 9ms b', { a: 'wrong', b: 'right' });
      const state = createDashboardState(api, { token$, range$: hot('r', { r: '5m' as TimeRangeKey }), filter$: hot('f', { f: NO_FILTER }) }, { scheduler });
      expectObservable(state.access$, '^ 20ms !').toBe('(cr) 6ms (cg)', {
        c: { status: 'checking' },
        r: { status: 'refused', message: 'The admin token is wrong' },
        g: { status: 'granted' },
      });
    });
  });

  it('a wrong token costs one request: the charts and the table read only once the stats did not refuse it', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, hot, expectObservable }) => {
      const { api, calls } = fakeApi({ stats: () => cold('2ms #', undefined, new CollectorApiError('unauthorized', 401, 'The admin token is wrong')) });
      const state = createDashboardState(
        api,
        { token$: hot('t', { t: 'wrong' }), range$: hot('r', { r: '5m' as TimeRangeKey }), filter$: hot('f', { f: NO_FILTER }) },
        { scheduler },
      );
      expectObservable(state.series$, '^ 10ms !').toBe('l', { l: { status: 'loading' } });
      expectObservable(state.table$, '^ 10ms !').toBe('l', { l: { status: 'loading', rows: [], skipped: false } });
      scheduler.flush();
      expect(calls.map((c) => c.method)).toEqual(['stats']);
    });
  });

  it('the charts read the window of the range, and a new range restarts them', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot }) => {
      const { api, calls } = fakeApi();
      const range$ = hot<TimeRangeKey>('a 99ms b', { a: '5m', b: '1h' });
      const state = createDashboardState(api, { token$: hot('t', { t: 'tok' }), range$, filter$: hot('f', { f: NO_FILTER }) }, { scheduler });
      const series = upTo(scheduler, state.series$, 150);
      scheduler.flush();
      expect(calls.filter((c) => c.method === 'timeseries').map((c) => c.query)).toEqual([
        { sinceMs: 2000 - 300_000, untilMs: 2000, bucketMs: 2000 },
        { sinceMs: 20_000 - 3_600_000, untilMs: 20_000, bucketMs: 20_000 },
      ]);
      expect(series.map((s) => s.status)).toEqual(['loading', 'ready', 'loading', 'ready']);
      const last = series[3];
      expect(last.status === 'ready' && last.data.xs).toHaveLength(180);
    });
  });

  it('the table reads the range with the filter, and restarts when the filter settles', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot }) => {
      const { api, calls } = fakeApi();
      const filter$ = hot<EventFilter>('a 9ms b', { a: NO_FILTER, b: { text: '', name: 'playerReady', endpoint: '' } });
      const state = createDashboardState(api, { token$: hot('t', { t: 'tok' }), range$: hot('r', { r: '5m' as TimeRangeKey }), filter$ }, { scheduler });
      upTo(scheduler, state.table$, 50);
      scheduler.flush();
      expect(calls.filter((c) => c.method === 'events').map((c) => c.query)).toEqual([
        { sinceMs: 0, limit: 500 }, // max(0, 0 − 5 min)
        { sinceMs: 0, limit: 500, name: 'playerReady' },
      ]);
    });
  });

  it('the conflicts view reads the conflicting copies with the same filter, at once; back to the events likewise', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot }) => {
      const { api, calls } = fakeApi();
      const named = { text: '', name: 'playerReady', endpoint: '' } as const;
      // a: events; b (1 ms later): the conflicts view, applied at once (no debounce); c: the events again.
      const filter$ = hot<EventFilter>('a b c', { a: named, b: { ...named, view: 'conflicts' }, c: { ...named, view: 'events' } });
      const state = createDashboardState(api, { token$: hot('t', { t: 'tok' }), range$: hot('r', { r: '5m' as TimeRangeKey }), filter$ }, { scheduler });
      upTo(scheduler, state.table$, 50);
      scheduler.flush();
      expect(calls.filter((c) => c.method === 'events' || c.method === 'conflicts').map((c) => [c.method, c.query])).toEqual([
        ['events', { sinceMs: 0, limit: 500, name: 'playerReady' }],
        ['conflicts', { sinceMs: 0, limit: 500, name: 'playerReady' }],
        ['events', { sinceMs: 0, limit: 500, name: 'playerReady' }],
      ]);
    });
  });

  it('a panel that fails keeps its last data while the others go on', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot }) => {
      let n = 0;
      const { api } = fakeApi({ timeseries: () => (n++ === 0 ? of([]) : NEVER) });
      const state = createDashboardState(
        api,
        { token$: hot('t', { t: 'tok' }), range$: hot('r', { r: '5m' as TimeRangeKey }), filter$: hot('f', { f: NO_FILTER }) },
        { scheduler },
      );
      const series = upTo(scheduler, state.series$, 12_001);
      const stats = upTo(scheduler, state.stats$, 12_001);
      scheduler.flush();
      // The read at 2000 never answers: failed at 12000 with the data of 0 kept.
      expect(series.map((s) => s.status)).toEqual(['loading', 'ready', 'failed']);
      expect(series[2]).toMatchObject({ status: 'failed', updatedAtMs: 0, data: expect.objectContaining({ bucketMs: 2000 }) });
      expect(stats.filter((s) => s.status === 'ready')).toHaveLength(7); // 0, 2000, …, 12000
    });
  });
});

describe('settledFilter', () => {
  it('typing settles for 300 ms; picking a name or an endpoint applies at once; the same filter is not applied twice', () => {
    expect(DASHBOARD_SEARCH_DEBOUNCE_MS).toBe(300);
    const scheduler = createTestScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      const f = (text: string, name = ''): EventFilter => ({ text, name, endpoint: '' });
      // a at 0 (applied at once); p, pl typed at 1 and 101 (2 + 99): applied 300 ms after the last keystroke, at 401;
      // n (a name picked) at 500 (102 + 398): at once; m (the same, with spaces) at 501: nothing new.
      const filter$ = hot('a b 99ms c 398ms n m', { a: f(''), b: f('p'), c: f('pl'), n: f('pl', 'playerReady'), m: f(' pl ', 'playerReady') });
      // a at 0; P at 1 + 400 = 401; N at 402 + 98 = 500.
      expectObservable(settledFilter(filter$, DASHBOARD_SEARCH_DEBOUNCE_MS, scheduler)).toBe('a 400ms P 98ms N', {
        a: f(''),
        P: f('pl'),
        N: f('pl', 'playerReady'),
      });
    });
  });

  it('filterQuery leaves out what is empty', () => {
    expect(filterQuery({ text: '', name: '', endpoint: '' })).toEqual({});
    expect(filterQuery({ text: 'VF', name: 'playerLoad', endpoint: 'video_stats' })).toEqual({ text: 'VF', name: 'playerLoad', endpoint: 'video_stats' });
  });
});
