import { type Observable, type SchedulerLike, takeUntil, timer } from 'rxjs';
import { CollectorApiError } from '../../../src/dashboard/collectorApi';
import {
  DASHBOARD_EVENTS_PAGE_LIMIT,
  DASHBOARD_TABLE_MAX_PAGES_FIRST_POLL,
  DASHBOARD_TABLE_MAX_PAGES_PER_POLL,
  DASHBOARD_TABLE_MAX_ROWS,
  DASHBOARD_TABLE_OVERLAP_MS,
} from '../../../src/dashboard/dashboardTiming';
import { type EventPageRequest, type EventTable, followEvents } from '../../../src/dashboard/followEvents';
import type { DashboardEvent, Page } from '../../../src/dashboard/types';
import { createTestScheduler } from '../../helpers/testScheduler';

/** Event `n`, received at `atMs`. */
const ev = (n: number, atMs: number): DashboardEvent => ({
  stream: 's1',
  dedupeKey: `k${n}`,
  name: 'playerStateChange',
  endpoint: 'log_event',
  receivedAtMs: atMs,
  requestId: `r${n}`,
  event: { playerStateChange: { state: 1 } },
});
const keys = (table: EventTable) => table.rows.map((r) => r.dedupeKey);

/** A page reader answering the given observables in turn, recording each request. */
function pages(...answers: Observable<Page<DashboardEvent>>[]) {
  const requests: EventPageRequest[] = [];
  let i = 0;
  const read = (request: EventPageRequest) => {
    requests.push(request);
    return answers[Math.min(i++, answers.length - 1)];
  };
  return { read, requests };
}

/** What `table$` emits until `untilMs` (virtual time): polling never ends by itself. */
function collect(table$: Observable<EventTable>, untilMs: number, scheduler: SchedulerLike): EventTable[] {
  const tables: EventTable[] = [];
  table$.pipe(takeUntil(timer(untilMs, scheduler))).subscribe((t) => tables.push(t));
  return tables;
}

describe('followEvents', () => {
  it('uses the dashboard constants', () => {
    expect([
      DASHBOARD_TABLE_MAX_ROWS,
      DASHBOARD_EVENTS_PAGE_LIMIT,
      DASHBOARD_TABLE_MAX_PAGES_FIRST_POLL,
      DASHBOARD_TABLE_MAX_PAGES_PER_POLL,
      DASHBOARD_TABLE_OVERLAP_MS,
    ]).toEqual([200, 500, 10, 4, 3000]);
  });

  it('shows the newest first and polls every 2000 ms on from 3000 ms before the newest event, never showing one twice', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const { read, requests } = pages(
        cold('(p|)', { p: { items: [ev(1, 10_000), ev(2, 11_000)] } }),
        // The second read (sinceMs 11000 − 3000) sees event 2 again, and event 3.
        cold('(p|)', { p: { items: [ev(2, 11_000), ev(3, 12_000)] } }),
      );
      // L, A at 0; B at 2000 (4 + 1996).
      expectObservable(followEvents(read, { sinceMs: 1000, scheduler }), '^ 2001ms !').toBe('(LA) 1996ms B', {
        L: { status: 'loading', rows: [], skipped: false },
        A: { status: 'ready', rows: [ev(2, 11_000), ev(1, 10_000)], skipped: false, message: undefined, updatedAtMs: 0 },
        B: { status: 'ready', rows: [ev(3, 12_000), ev(2, 11_000), ev(1, 10_000)], skipped: false, message: undefined, updatedAtMs: 2000 },
      });
      scheduler.flush();
      expect(requests).toEqual([
        { sinceMs: 1000, limit: 500 },
        { sinceMs: 8000, limit: 500 },
      ]);
    });
  });

  it('keeps at most maxRows, the newest, even when a late commit arrives out of order', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold }) => {
      const { read } = pages(
        cold('(p|)', { p: { items: [ev(1, 1000), ev(2, 2000), ev(3, 3000)] } }),
        // A write received at 2500 committed late: it sorts between 2 and 3; 1 drops out.
        cold('(p|)', { p: { items: [ev(3, 3000), ev(4, 2500)] } }),
      );
      const tables = collect(followEvents(read, { sinceMs: 0, maxRows: 3, pollMs: 5, scheduler }), 6, scheduler);
      scheduler.flush();
      expect(tables.map(keys)).toEqual([[], ['k3', 'k2', 'k1'], ['k3', 'k4', 'k2']]);
    });
  });

  it('follows nextCursor while pages come full, applying the pages of one poll together', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold }) => {
      const { read, requests } = pages(
        cold('1ms (p|)', { p: { items: [ev(1, 1000), ev(2, 1000)], nextCursor: 'c2' } }),
        cold('1ms (p|)', { p: { items: [ev(3, 2000)] } }),
      );
      const tables = collect(followEvents(read, { sinceMs: 0, pageLimit: 2, pollMs: 100, scheduler }), 104, scheduler);
      scheduler.flush();
      expect(requests).toEqual([
        { sinceMs: 0, limit: 2 },
        { sinceMs: 0, limit: 2, cursor: 'c2' },
        { sinceMs: 0, limit: 2 }, // max(0, 2000 − 3000): by time again once the pages stop coming full
      ]);
      // Loading, then one table with both pages (not one per page); the next poll, at 2 + 100, finds nothing new (answered at 103).
      expect(tables.map(keys)).toEqual([[], ['k3', 'k2', 'k1'], ['k3', 'k2', 'k1']]);
    });
  });

  it('a backlog beyond the page budget (10 pages, then 4) is skipped and the table says so', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold }) => {
      const requests: EventPageRequest[] = [];
      // Every page is full: more always follow.
      const read = (request: EventPageRequest) => {
        requests.push(request);
        const n = requests.length;
        return cold('(p|)', { p: { items: [ev(n, 100_000 + n)], nextCursor: `c${n}` } });
      };
      const tables = collect(followEvents(read, { sinceMs: 0, pageLimit: 1, maxRows: 50, scheduler }), 2001, scheduler);
      scheduler.flush();
      // First poll (at 0): 10 pages, still a cursor → skipped. Second poll (at 2000): 4 pages from
      // max(0, now − 2000, newest read − 3000) = 100010 − 3000 (this virtual clock is behind the events' times).
      expect(requests.slice(0, 10).map((r) => r.cursor)).toEqual([undefined, 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9']);
      expect(requests.slice(10)).toEqual([
        { sinceMs: 97_010, limit: 1 },
        { sinceMs: 97_010, limit: 1, cursor: 'c11' },
        { sinceMs: 97_010, limit: 1, cursor: 'c12' },
        { sinceMs: 97_010, limit: 1, cursor: 'c13' },
      ]);
      expect(tables.map((t) => [t.rows.length, t.skipped])).toEqual([
        [0, false],
        [10, true],
        [14, true],
      ]);
    });
  });

  it('after a skip, the next poll starts pollMs before now when that is later than the events read', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold }) => {
      const requests: EventPageRequest[] = [];
      const read = (request: EventPageRequest) => {
        requests.push(request);
        const n = requests.length;
        // Events at 1…n ms, but the first poll takes 10 × 100 ms: it ends at 1000.
        return cold('100ms (p|)', { p: { items: [ev(n, n)], nextCursor: `c${n}` } });
      };
      collect(followEvents(read, { sinceMs: 0, pageLimit: 1, pollMs: 500, scheduler }), 1501, scheduler);
      scheduler.flush();
      // max(0, 1000 − 500, 10 − 3000) = 500.
      expect(requests[10]).toEqual({ sinceMs: 500, limit: 1 });
    });
  });

  it('never asks for a time before 0', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold }) => {
      const requests: EventPageRequest[] = [];
      const read = (request: EventPageRequest) => {
        requests.push(request);
        return cold('(p|)', { p: { items: [], nextCursor: 'c' } });
      };
      collect(followEvents(read, { sinceMs: 0, pageLimit: 1, scheduler }), 2001, scheduler);
      scheduler.flush();
      expect(requests).toHaveLength(14);
      expect(Math.min(...requests.map((r) => r.sinceMs))).toBe(0);
    });
  });

  it('a failed poll keeps the rows and the position and says why; a 401 ends the table', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const { read, requests } = pages(
        cold('(p|)', { p: { items: [ev(1, 5000)] } }),
        cold('#', undefined, new CollectorApiError('network', 0, 'The collector could not be reached.')),
        cold('(p|)', { p: { items: [ev(2, 6000)] } }),
        cold('#', undefined, new CollectorApiError('unauthorized', 401, 'The admin token is wrong')),
      );
      // Polls at 0, 5, 10, 15 (pollMs 5 after each poll).
      expectObservable(followEvents(read, { sinceMs: 0, pollMs: 5, scheduler })).toBe('(LA)-F----B----(U|)', {
        L: { status: 'loading', rows: [], skipped: false },
        A: expect.objectContaining({ status: 'ready', rows: [ev(1, 5000)] }),
        F: expect.objectContaining({ status: 'failed', message: 'The collector could not be reached.', rows: [ev(1, 5000)] }),
        B: expect.objectContaining({ status: 'ready', rows: [ev(2, 6000), ev(1, 5000)], message: undefined }),
        U: expect.objectContaining({ status: 'unauthorized', message: 'The admin token is wrong', rows: [ev(2, 6000), ev(1, 5000)] }),
      });
      scheduler.flush();
      // The poll after the failure reads from the same place again.
      expect(requests.map((r) => r.sinceMs)).toEqual([0, 2000, 2000, 3000]);
    });
  });
});
