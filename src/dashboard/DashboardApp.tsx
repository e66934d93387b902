import { useObservableEagerState, useObservableState } from 'observable-hooks';
import type { BehaviorSubject, Observable } from 'rxjs';
import type { AdminSession } from './adminSession';
import { ChartGrid } from './ChartGrid';
import { CHART_THEMES, type ChartFactory, type ColorScheme } from './charts';
import { type DashboardState, type Panel, TABLE_LOADING } from './dashboardState';
import { DASHBOARD_POLL_MS, DASHBOARD_TABLE_MAX_ROWS } from './dashboardTiming';
import { EventNames } from './EventNames';
import { EventTable } from './EventTable';
import type { Series } from './fillTimeseries';
import { formatClock, formatCount } from './format';
import { LOADING } from './pollLoadable';
import { SignIn } from './SignIn';
import { StatTiles } from './StatTiles';
import { TIME_RANGES, timeRangeOf, type TimeRange, type TimeRangeKey } from './timeRanges';
import type { CollectorStats, EventFilter } from './types';

/** What the page hands the dashboard: its state streams, the reader's intents, and the effects it draws with. */
export interface DashboardDeps {
  state: DashboardState;
  session: AdminSession;
  /** The charts' time range: read here, set by the range picker. */
  range$: BehaviorSubject<TimeRangeKey>;
  /** The table's filter: read here, set by the toolbar and the name list. */
  filter$: BehaviorSubject<EventFilter>;
  chartFactory: ChartFactory;
  colorScheme$: Observable<ColorScheme>;
}

type Liveness = { tone: 'live' | 'idle' | 'warn'; text: string; detail?: string };

function livenessOf(stats: Panel<CollectorStats>, series: Panel<Series>): Liveness {
  const failed = [stats, series].find((p) => p.status === 'failed');
  if (failed?.status === 'failed') return { tone: 'warn', text: 'Reconnecting', detail: failed.message };
  if (stats.status !== 'ready' || series.status !== 'ready') return { tone: 'idle', text: 'Connecting…' };
  return { tone: 'live', text: 'Live', detail: `updated ${formatClock(Math.max(stats.updatedAtMs, series.updatedAtMs))}` };
}

function Header({
  liveness,
  store,
  range,
  onRange,
  onSignOut,
}: {
  liveness: Liveness;
  store?: string;
  range: TimeRange;
  onRange: (key: TimeRangeKey) => void;
  onSignOut: () => void;
}) {
  return (
    <header className="top">
      <div className="brand">
        <div className="brand-mark" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="20" height="20">
            <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
          </svg>
        </div>
        <div>
          <h1>Collector</h1>
          <p>VidFrame telemetry</p>
        </div>
      </div>
      <div className="top-actions">
        <span className={`live live-${liveness.tone}`} data-testid="liveness" data-tone={liveness.tone} title={liveness.detail}>
          <span className="live-dot" aria-hidden="true" />
          {liveness.text}
          {liveness.tone === 'live' && liveness.detail && <span className="live-detail"> · {liveness.detail}</span>}
        </span>
        {store && (
          <span className="store-badge" title="The collector's store">
            {store}
          </span>
        )}
        <div className="segmented" role="group" aria-label="Time range">
          {TIME_RANGES.map((r) => (
            <button key={r.key} type="button" aria-pressed={r.key === range.key} onClick={() => onRange(r.key)}>
              {r.label}
            </button>
          ))}
        </div>
        <button type="button" className="ghost" onClick={onSignOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}

function Banners({ stats, series, range }: { stats: Panel<CollectorStats>; series: Panel<Series>; range: TimeRange }) {
  const failed = stats.status === 'failed' ? stats : series.status === 'failed' ? series : undefined;
  if (failed) {
    return (
      <div className="banner warn" role="alert" data-testid="banner-failed">
        <strong>The collector cannot be read right now.</strong> {failed.message}{' '}
        {failed.updatedAtMs !== undefined ? `Showing what it said at ${formatClock(failed.updatedAtMs)}; ` : ''}
        retrying every {DASHBOARD_POLL_MS / 1000} s.
      </div>
    );
  }
  if (stats.status === 'ready' && series.status === 'ready' && series.data.totals.events === 0) {
    return (
      <div className="banner info" data-testid="banner-empty">
        {stats.data.events === 0 ? (
          <>
            <strong>Nothing received yet.</strong> Open the{' '}
            <a href="/" target="_blank" rel="noopener">
              demo page
            </a>{' '}
            and play a video: this page follows it live, every {DASHBOARD_POLL_MS / 1000} s.
          </>
        ) : (
          <>
            <strong>Nothing received in {range.phrase}.</strong> The store holds {formatCount(stats.data.events)} events from before: pick a longer range to see
            them.
          </>
        )}
      </div>
    );
  }
  return null;
}

function Dashboard({ state, session, range$, filter$, chartFactory, colorScheme$ }: DashboardDeps) {
  const stats = useObservableState(state.stats$, LOADING);
  const series = useObservableState(state.series$, LOADING);
  const table = useObservableState(state.table$, TABLE_LOADING);
  const range = timeRangeOf(useObservableEagerState(range$));
  const filter = useObservableEagerState(filter$);
  const scheme = useObservableState(colorScheme$, 'light');
  const statsData = stats.status === 'ready' || stats.status === 'failed' ? stats.data : undefined;
  const names = statsData ? Object.keys(statsData.byName).sort() : [];
  return (
    <div className="dashboard" data-testid="dashboard">
      <Header
        liveness={livenessOf(stats, series)}
        store={statsData?.store}
        range={range}
        onRange={(key) => range$.next(key)}
        onSignOut={() => session.signOut()}
      />
      <main>
        <Banners stats={stats} series={series} range={range} />
        <StatTiles stats={stats} />
        <ChartGrid series={series} range={range} factory={chartFactory} theme={CHART_THEMES[scheme]} />
        <div className="lower">
          <EventNames stats={stats} selected={filter.name} onSelect={(name) => filter$.next({ ...filter$.getValue(), name })} />
          <EventTable table={table} filter={filter} onFilter={(f) => filter$.next(f)} names={names} range={range} maxRows={DASHBOARD_TABLE_MAX_ROWS} />
        </div>
      </main>
    </div>
  );
}

/** The collector dashboard: the sign-in form while there is no accepted token, the live dashboard otherwise. */
export function DashboardApp(deps: DashboardDeps) {
  const access = useObservableState(deps.state.access$, { status: 'checking' });
  if (access.status === 'signedOut' || access.status === 'refused') {
    return <SignIn access={access} onSignIn={(token) => deps.session.signIn(token)} />;
  }
  return <Dashboard {...deps} />;
}
