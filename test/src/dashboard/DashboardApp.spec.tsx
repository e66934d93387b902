import { StrictMode } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { BehaviorSubject, NEVER, type Observable, of, throwError } from 'rxjs';
import { createAdminSession } from '../../../src/dashboard/adminSession';
import type { ChartData, ChartFactory, ChartSpec, ChartTheme, ColorScheme } from '../../../src/dashboard/charts';
import { type CollectorApi, CollectorApiError } from '../../../src/dashboard/collectorApi';
import { DashboardApp } from '../../../src/dashboard/DashboardApp';
import { createDashboardState } from '../../../src/dashboard/dashboardState';
import { timeRangeOf, timeseriesWindow, type TimeRangeKey } from '../../../src/dashboard/timeRanges';
import {
  type CollectorStats,
  type DashboardEvent,
  type EventFilter,
  type EventListQuery,
  NO_FILTER,
  type TimeseriesBucket,
} from '../../../src/dashboard/types';

const STATS: CollectorStats = {
  store: 'sqlite',
  requests: 4,
  compressedRequests: 3,
  events: 12_345,
  duplicatesDropped: 2,
  conflicts: 0,
  refusedEvents: 0,
  byEndpoint: { log_event: 12_300, video_stats: 45 },
  byName: { playerStateChange: 9000, playerLoad: 3000, watchTimeSegment: 345 },
  errors: 1,
};

const event = (n: number, name: string, payload: Record<string, unknown>, receivedAtMs = Date.now() - 1000 * (10 - n)): DashboardEvent => ({
  stream: `stream-${n}-abcdef`,
  dedupeKey: `k${n}`,
  clientEventId: `page:${n}`,
  name,
  endpoint: 'log_event',
  receivedAtMs,
  requestId: `req-${n}`,
  event: { eventTimeMs: receivedAtMs, [name]: payload },
});
const EVENTS = [
  event(1, 'playerLoad', { videoId: 'VFcitylight', autoplay: true }),
  event(2, 'playerStateChange', { videoId: 'VFcitylight', previousState: -1, state: 1, mediaTimeSec: 0 }),
  event(3, 'watchTimeSegment', { videoId: 'VFcitylight', startSec: 0, endSec: 4.5, playbackRate: 1 }),
];

/** Buckets with traffic in the last slots of the 5-minute window. */
function buckets(events: number): TimeseriesBucket[] {
  const { untilMs, bucketMs } = timeseriesWindow(timeRangeOf('5m'), Date.now());
  return [
    {
      startMs: untilMs - 3 * bucketMs,
      events,
      sessions: 1,
      watchTimeSec: 4.5,
      stateChanges: 2,
      errors: 0,
      latencyMeanMs: 420,
      rebufferSec: 0.45,
      bitrateMeanBps: 1_250_000,
      startupP50Ms: 300,
      startupP90Ms: 650,
      startupP99Ms: 900,
    },
    { startMs: untilMs - 2 * bucketMs, events: 2, sessions: 1, watchTimeSec: 0, stateChanges: 0, errors: 1 },
  ];
}

interface Reads {
  stats?: () => Observable<CollectorStats>;
  timeseries?: () => Observable<TimeseriesBucket[]>;
  events?: (query: EventListQuery) => Observable<{ items: DashboardEvent[] }>;
  conflicts?: (query: EventListQuery) => Observable<{ items: DashboardEvent[] }>;
}

/** The page's pieces with a fake API and a chart factory that records what it draws. */
function setUp(
  { href = 'http://h/collector?token=tok', reads = {}, pollMs = 60_000, scheme = 'light' as ColorScheme } = {} as {
    href?: string;
    reads?: Reads;
    pollMs?: number;
    scheme?: ColorScheme;
  },
) {
  const calls: { method: string; token: string; query?: unknown }[] = [];
  const api: CollectorApi = {
    stats: (token) => (calls.push({ method: 'stats', token }), reads.stats?.() ?? of(STATS)),
    timeseries: (token, query) => (calls.push({ method: 'timeseries', token, query }), reads.timeseries?.() ?? of(buckets(6))),
    events: (token, query) => (calls.push({ method: 'events', token, query }), reads.events?.(query) ?? of({ items: EVENTS })),
    conflicts: (token, query) => (calls.push({ method: 'conflicts', token, query }), reads.conflicts?.(query) ?? of({ items: [] })),
  };
  const storage = new Map<string, string>();
  const session = createAdminSession({
    location: { href },
    history: { state: null, replaceState: () => undefined },
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: (k) => void storage.delete(k) },
  });
  const range$ = new BehaviorSubject<TimeRangeKey>('5m');
  const filter$ = new BehaviorSubject<EventFilter>(NO_FILTER);
  const state = createDashboardState(api, { token$: session.token$, range$, filter$ }, { pollMs, searchDebounceMs: 10 });
  const charts: { spec: ChartSpec; theme: ChartTheme; data: ChartData[]; destroyed: boolean }[] = [];
  const chartFactory: ChartFactory = (container, spec, theme, data) => {
    const chart = { spec, theme, data: [data], destroyed: false };
    charts.push(chart);
    container.dataset.fakeChart = spec.key;
    return { setData: (d) => void chart.data.push(d), destroy: () => void (chart.destroyed = true) };
  };
  const view = render(
    <StrictMode>
      <DashboardApp state={state} session={session} range$={range$} filter$={filter$} chartFactory={chartFactory} colorScheme$={of(scheme)} />
    </StrictMode>,
  );
  const liveCharts = () => charts.filter((c) => !c.destroyed);
  return { view, calls, charts, liveCharts, range$, filter$, session };
}

const card = (key: string) => document.querySelector<HTMLElement>(`[data-chart="${key}"]`)!;

describe('DashboardApp (StrictMode)', () => {
  it('without a token: the sign-in form; a pasted token opens the dashboard', async () => {
    const { calls } = setUp({ href: 'http://h/collector' });
    const form = await screen.findByTestId('sign-in');
    expect(form.dataset.reason).toBe('signedOut');
    expect(calls).toEqual([]);
    const submit = screen.getByRole('button', { name: 'Sign in' });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Admin token'), { target: { value: '  pasted  ' } });
    fireEvent.click(submit);
    await screen.findByTestId('dashboard');
    await waitFor(() => expect(calls.some((c) => c.method === 'stats' && c.token === 'pasted')).toBe(true));
  });

  it('a refused token (401): the sign-in form says so, with the server’s message, and takes another token', async () => {
    let accepted = false;
    setUp({ reads: { stats: () => (accepted ? of(STATS) : throwError(() => new CollectorApiError('unauthorized', 401, 'The admin token is wrong'))) } });
    const refused = await screen.findByTestId('sign-in-refused');
    expect(refused.textContent).toContain('The collector refused this token.');
    expect(refused.textContent).toContain('The admin token is wrong');
    expect(screen.getByTestId('sign-in').dataset.reason).toBe('refused');
    accepted = true;
    fireEvent.change(screen.getByLabelText('Admin token'), { target: { value: 'right' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByTestId('dashboard');
  });

  it('while the collector has not answered: placeholders, “Connecting…”, no charts yet', async () => {
    const { charts } = setUp({ reads: { stats: () => NEVER, timeseries: () => NEVER, events: () => NEVER } });
    await screen.findByTestId('dashboard');
    expect(screen.getByTestId('liveness').textContent).toContain('Connecting…');
    expect(card('events').getAttribute('aria-busy')).toBe('true');
    expect(card('events').querySelector('.skeleton-chart')).not.toBeNull();
    expect(screen.getByLabelText('Totals').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByTestId('table-status').textContent).toBe('Loading events…');
    expect(charts).toEqual([]);
  });

  it('shows the totals, six charts with readable headlines, the names and the newest events first', async () => {
    const { liveCharts, calls } = setUp({ scheme: 'dark' });
    await waitFor(() => expect(card('events').dataset.total).toBe('8'));
    expect(screen.getByTestId('liveness').dataset.tone).toBe('live');
    // Totals: grouped and compact numbers.
    const tile = (key: string) => document.querySelector<HTMLElement>(`[data-stat="${key}"]`)!;
    expect(tile('events').textContent).toContain('12.3K');
    expect(tile('events').textContent).toContain('log_event 12.3K · video_stats 45');
    expect(tile('requests').textContent).toContain('75% gzip-compressed');
    expect(tile('errors').querySelector('.tile-value.alert')).not.toBeNull();
    // Charts: one per card, dark theme, fed the window's data (150 two-second slots).
    expect(liveCharts().map((c) => c.spec.key)).toEqual(['events', 'sessions', 'watch', 'states', 'errors', 'latency', 'rebuffer', 'bitrate', 'startup']);
    expect(liveCharts().every((c) => c.theme.scheme === 'dark')).toBe(true);
    const eventsChart = liveCharts()[0];
    const drawn = eventsChart.data[eventsChart.data.length - 1];
    expect(drawn.xs).toHaveLength(150);
    expect(drawn.ys.slice(-3)).toEqual([3, 1, 0]); // 6 and 2 events in 2-s slots, per second
    expect(screen.getByTestId('headline-events').textContent).toBe('8');
    expect(card('events').textContent).toContain('peak 3/s in the last 5 minutes');
    expect(screen.getByTestId('headline-sessions').textContent).toBe('1');
    expect(screen.getByTestId('headline-watch').textContent).toBe('4.5 s');
    expect(screen.getByTestId('headline-latency').textContent).toBe('420 ms');
    expect(screen.getByTestId('headline-errors').className).toContain('alert');
    // Quality of experience: rebuffer time over watch time, the weighted bitrate, the start-up percentiles (three lines).
    expect(screen.getByTestId('headline-rebuffer').textContent).toBe('10.0 %');
    expect(screen.getByTestId('headline-bitrate').textContent).toBe('1.25 Mbps');
    expect(screen.getByTestId('headline-startup').textContent).toBe('300 ms');
    expect(card('startup').textContent).toContain('p90 650 ms · p99 900 ms');
    const startupChart = liveCharts().find((c) => c.spec.key === 'startup')!;
    expect(startupChart.data[startupChart.data.length - 1].more?.map((line) => line.slice(-3))).toEqual([
      [650, null, null],
      [900, null, null],
    ]);
    expect(card('errors').dataset.total).toBe('1');
    // Names, busiest first.
    const names = within(screen.getByLabelText('Events by name')).getAllByRole('button');
    expect(names.map((b) => b.dataset.name)).toEqual(['playerStateChange', 'playerLoad', 'watchTimeSegment']);
    // Table: newest first, summarised.
    const rows = await screen.findAllByTestId('event-row');
    expect(rows.map((r) => r.dataset.name)).toEqual(['watchTimeSegment', 'playerStateChange', 'playerLoad']);
    expect(rows[0].textContent).toContain('watched 4.5 s');
    expect(rows[1].textContent).toContain('unstarted → playing');
    expect(screen.getByTestId('table-status').textContent).toBe('3 events in the last 5 minutes · live');
    // Under StrictMode's double mount, each read ran once.
    expect(calls.filter((c) => c.method === 'stats')).toHaveLength(1);
    expect(calls.filter((c) => c.method === 'timeseries')).toHaveLength(1);
  });

  it('a row opens to show the event’s JSON and where it came from', async () => {
    setUp();
    const [row] = await screen.findAllByTestId('event-row');
    fireEvent.click(row);
    const toggle = within(row).getByRole('button');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const json = document.querySelector('.json')!;
    expect(JSON.parse(json.textContent!)).toEqual(EVENTS[2].event);
    expect(document.querySelector('.event-detail')!.textContent).toContain('req-3');
    fireEvent.click(row);
    expect(document.querySelector('.json')).toBeNull();
  });

  it('searching, or picking a name, narrows the table through the API', async () => {
    const { calls } = setUp({ reads: { events: (q) => of({ items: q.name || q.text ? [] : EVENTS }) } });
    await screen.findAllByTestId('event-row');
    fireEvent.click(await within(screen.getByLabelText('Events by name')).findByText('playerLoad'));
    await waitFor(() => expect(calls.some((c) => c.method === 'events' && (c.query as EventListQuery).name === 'playerLoad')).toBe(true));
    expect((await screen.findByTestId('table-empty')).textContent).toContain('named playerLoad');
    fireEvent.change(screen.getByLabelText('Search events'), { target: { value: 'VFcity' } });
    await waitFor(() => expect(calls.some((c) => c.method === 'events' && (c.query as EventListQuery).text === 'VFcity')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect((await screen.findAllByTestId('event-row')).length).toBe(3);
  });

  it('counts the conflicts, and lists the conflicting copies of events beside the events', async () => {
    const conflicting = { ...EVENTS[1], requestId: 'req-late', event: { ...EVENTS[1].event, playerStateChange: { previousState: -1, state: 2 } } };
    const { calls } = setUp({
      reads: {
        stats: () => of({ ...STATS, conflicts: 20 }),
        conflicts: (q) => of({ items: q.name ? [] : [conflicting] }),
      },
    });
    const tile = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('[data-stat="conflicts"]');
      expect(found?.dataset.value).toBe('20');
      return found!;
    });
    expect(tile.querySelector('.tile-value.alert')).not.toBeNull();
    expect(tile.textContent).toContain('another payload: both kept');
    // The event the conflict shares its id with, opened first: the conflicting copy is a row of its own.
    const original = (await screen.findAllByTestId('event-row')).find((r) => r.dataset.name === 'playerStateChange')!;
    fireEvent.click(original);
    expect(JSON.parse(document.querySelector('.json')!.textContent!)).toEqual(EVENTS[1].event);
    const lists = screen.getByRole('group', { name: 'Table lists' });
    fireEvent.click(within(lists).getByRole('button', { name: 'Conflicts' }));
    await waitFor(() => expect(screen.getByTestId('table-status').textContent).toBe('1 conflict in the last 5 minutes · live'));
    expect(within(lists).getByRole('button', { name: 'Conflicts' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('heading', { name: 'Conflicting events' })).not.toBeNull();
    const [row] = screen.getAllByTestId('event-row');
    fireEvent.click(row);
    expect(JSON.parse(document.querySelector('.json')!.textContent!)).toEqual(conflicting.event);
    // The filters apply to the conflicts too; Clear keeps the view.
    fireEvent.change(screen.getByLabelText('Event name'), { target: { value: 'playerLoad' } });
    await waitFor(() => expect(calls.some((c) => c.method === 'conflicts' && (c.query as EventListQuery).name === 'playerLoad')).toBe(true));
    expect((await screen.findByTestId('table-empty')).textContent).toContain('No conflicts match.');
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(await screen.findAllByTestId('event-row')).toHaveLength(1);
    fireEvent.click(within(lists).getByRole('button', { name: 'Events' }));
    await waitFor(() => expect(screen.getAllByTestId('event-row')).toHaveLength(3));
  });

  it('an empty collector: says how to get data, and each chart says it has none', async () => {
    setUp({
      reads: { stats: () => of({ ...STATS, events: 0, requests: 0, byName: {}, errors: 0 }), timeseries: () => of([]), events: () => of({ items: [] }) },
    });
    const banner = await screen.findByTestId('banner-empty');
    expect(banner.textContent).toContain('Nothing received yet.');
    expect(banner.querySelector('a')!.getAttribute('href')).toBe('/');
    expect(card('events').dataset.empty).toBe('true');
    expect(card('events').textContent).toContain('No events yet');
    expect(card('latency').textContent).toContain('no latency reports yet');
    expect((await screen.findByTestId('table-empty')).textContent).toContain('No events in the last 5 minutes.');
    expect(screen.getByText('No events stored yet.')).toBeTruthy();
  });

  it('a collector that cannot be read: a warning that keeps the last data and says it retries', async () => {
    let fail = false;
    const { range$ } = setUp({
      pollMs: 40,
      reads: { stats: () => (fail ? throwError(() => new CollectorApiError('network', 0, 'The collector could not be reached.')) : of(STATS)) },
    });
    await waitFor(() => expect(card('events').dataset.total).toBe('8'));
    fail = true;
    const banner = await screen.findByTestId('banner-failed');
    expect(banner.textContent).toContain('The collector could not be reached.');
    expect(banner.textContent).toMatch(/Showing what it said at \d\d:\d\d:\d\d; retrying every/);
    expect(screen.getByTestId('liveness').dataset.tone).toBe('warn');
    expect(document.querySelector('[data-stat="events"]')!.textContent).toContain('12.3K');
    act(() => range$.next('5m'));
  });

  it('updates live: new answers move the numbers and redraw the charts without recreating them', async () => {
    let events = 6;
    const { liveCharts } = setUp({ pollMs: 40, reads: { timeseries: () => of(buckets(events)) } });
    await waitFor(() => expect(card('events').dataset.total).toBe('8'));
    const created = liveCharts().length;
    events = 20;
    await waitFor(() => expect(card('events').dataset.total).toBe('22'));
    expect(liveCharts()).toHaveLength(created);
    const chart = liveCharts()[0];
    expect(chart.data[chart.data.length - 1].ys.slice(-3)).toEqual([10, 1, 0]);
  });

  it('a new time range asks for its own window; sign out returns to the sign-in form', async () => {
    const { calls } = setUp();
    await waitFor(() => expect(card('events').dataset.total).toBe('8'));
    fireEvent.click(screen.getByRole('button', { name: '1 hour' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'timeseries' && (c.query as { bucketMs: number }).bucketMs === 20_000)).toBe(true));
    expect(screen.getByRole('button', { name: '1 hour' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect((await screen.findByTestId('sign-in')).dataset.reason).toBe('signedOut');
  });
});
