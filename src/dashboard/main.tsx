import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BehaviorSubject } from 'rxjs';
import { createAdminSession } from './adminSession';
import { createCollectorApi, fetchJson } from './collectorApi';
import { colorScheme$ } from './colorScheme';
import { DashboardApp } from './DashboardApp';
import { createDashboardState } from './dashboardState';
import { DEFAULT_TIME_RANGE, type TimeRangeKey } from './timeRanges';
import { type EventFilter, NO_FILTER } from './types';
import { createUplotChart } from './uplotChart';
import './dashboard.css';

/** sessionStorage, or `null` where the browser refuses it (reading the property can throw). */
function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The collector dashboard page (`/collector`): the admin session, the polled state, the view. */
function startDashboard(win: Window) {
  const session = createAdminSession({ location: win.location, history: win.history, storage: sessionStore() });
  const range$ = new BehaviorSubject<TimeRangeKey>(DEFAULT_TIME_RANGE);
  const filter$ = new BehaviorSubject<EventFilter>(NO_FILTER);
  const state = createDashboardState(createCollectorApi(fetchJson()), { token$: session.token$, range$, filter$ });
  createRoot(win.document.getElementById('dashboard-root')!).render(
    <StrictMode>
      <DashboardApp state={state} session={session} range$={range$} filter$={filter$} chartFactory={createUplotChart} colorScheme$={colorScheme$(win)} />
    </StrictMode>,
  );
}

startDashboard(window);
