import { asyncScheduler, catchError, defer, EMPTY, exhaustMap, expand, last, map, type Observable, of, type SchedulerLike, startWith, timer } from 'rxjs';
import { isUnauthorized } from './collectorApi';
import { answerWithin, messageOf } from './pollLoadable';
import {
  DASHBOARD_EVENTS_PAGE_LIMIT,
  DASHBOARD_POLL_MS,
  DASHBOARD_REQUEST_TIMEOUT_MS,
  DASHBOARD_TABLE_MAX_PAGES_FIRST_POLL,
  DASHBOARD_TABLE_MAX_PAGES_PER_POLL,
  DASHBOARD_TABLE_MAX_ROWS,
  DASHBOARD_TABLE_OVERLAP_MS,
} from './dashboardTiming';
import type { DashboardEvent, Page } from './types';

/** The live event table: the newest events first, never more than `maxRows` of them. */
export interface EventTable {
  status: 'loading' | 'ready' | 'failed' | 'unauthorized';
  rows: DashboardEvent[];
  /** Events arrived faster than the table reads them, and some were skipped to stay live (the charts count them all). */
  skipped: boolean;
  message?: string;
  /** When the last poll succeeded (scheduler time). */
  updatedAtMs?: number;
}

/** The page the table asks for: from `sinceMs` (inclusive), or on from `cursor`. */
export interface EventPageRequest {
  sinceMs: number;
  cursor?: string;
  limit: number;
}

export interface FollowEventsOptions {
  /** Where the table starts reading (received at or after; ms since the epoch). */
  sinceMs: number;
  pollMs?: number;
  maxRows?: number;
  pageLimit?: number;
  maxPagesFirstPoll?: number;
  maxPagesPerPoll?: number;
  /** Each poll reads again this far back from the newest event seen, for writes that commit late. */
  overlapMs?: number;
  timeoutMs?: number;
  scheduler?: SchedulerLike;
}

/** Where the next poll reads from. */
interface Position {
  sinceMs: number;
  cursor?: string;
  /** The newest `receivedAtMs` seen so far. */
  newestMs?: number;
}
interface Tick {
  table: EventTable;
  position: Position;
}

/**
 * A row's identity: its key within its stream, and the request that stored it. An event is stored by one request (a
 * resend never changes it), and so is each conflicting copy, which shares its key with the event it conflicts with.
 */
export const eventKey = (e: Pick<DashboardEvent, 'stream' | 'dedupeKey' | 'requestId'>) => `${e.stream}\n${e.dedupeKey}\n${e.requestId}`;
const newestFirst = (a: DashboardEvent, b: DashboardEvent) => b.receivedAtMs - a.receivedAtMs;

/**
 * Follows the collector's events (listed oldest first, one bounded page at a time) as a table of the newest
 * `maxRows`, newest first, read again every `pollMs`. Bounded in memory (the rows) and in work per poll (pages):
 *
 * - A poll reads pages on from where the last one stopped: by `nextCursor` while pages come full, then by time
 *   (`sinceMs` = newest event seen − `overlapMs`, so an event whose write committed late still shows). Events already
 *   held are recognised by (stream, dedupeKey) and not shown twice.
 * - The first poll reads at most `maxPagesFirstPoll` pages, the others `maxPagesPerPoll`. A backlog bigger than
 *   that is skipped: the next poll starts `pollMs` before now (or `overlapMs` before the newest event read, if later)
 *   and the table says it skipped (`skipped`).
 * - A failed poll keeps the rows and the position (nothing of it is applied) and says why; the next poll tries again.
 *   A 401 ends the table with `unauthorized`.
 *
 * ```
 * readPage:  (p|)        (q|)            pollMs = 3, pages without nextCursor
 * result:    L-(R)--------(R)            L loading, R ready (rows of p, then of q and p)
 * ```
 */
export function followEvents(
  readPage: (request: EventPageRequest) => Observable<Page<DashboardEvent>>,
  {
    sinceMs,
    pollMs = DASHBOARD_POLL_MS,
    maxRows = DASHBOARD_TABLE_MAX_ROWS,
    pageLimit = DASHBOARD_EVENTS_PAGE_LIMIT,
    maxPagesFirstPoll = DASHBOARD_TABLE_MAX_PAGES_FIRST_POLL,
    maxPagesPerPoll = DASHBOARD_TABLE_MAX_PAGES_PER_POLL,
    overlapMs = DASHBOARD_TABLE_OVERLAP_MS,
    timeoutMs = DASHBOARD_REQUEST_TIMEOUT_MS,
    scheduler = asyncScheduler,
  }: FollowEventsOptions,
): Observable<EventTable> {
  const absorb = (tick: Tick, page: Page<DashboardEvent>): Tick => {
    const held = new Set(tick.table.rows.map(eventKey));
    const fresh: DashboardEvent[] = [];
    for (const event of page.items) {
      const key = eventKey(event);
      if (held.has(key)) continue;
      held.add(key);
      fresh.push(event);
    }
    const rows = fresh.length ? [...fresh.reverse(), ...tick.table.rows].sort(newestFirst).slice(0, maxRows) : tick.table.rows;
    const newestMs = page.items.reduce((newest, e) => Math.max(newest, e.receivedAtMs), tick.position.newestMs ?? -Infinity);
    const seen = Number.isFinite(newestMs) ? { newestMs } : {};
    const position: Position = page.nextCursor
      ? { sinceMs: tick.position.sinceMs, cursor: page.nextCursor, ...seen }
      : { sinceMs: Number.isFinite(newestMs) ? Math.max(tick.position.sinceMs, newestMs - overlapMs) : tick.position.sinceMs, ...seen };
    return { table: { ...tick.table, rows }, position };
  };

  const readOne = (tick: Tick) =>
    readPage({ sinceMs: tick.position.sinceMs, limit: pageLimit, ...(tick.position.cursor ? { cursor: tick.position.cursor } : {}) }).pipe(
      answerWithin<Page<DashboardEvent>>(timeoutMs, scheduler),
      map((page) => absorb(tick, page)),
    );

  /** One poll: up to `maxPages` pages, applied together or not at all. */
  const poll = (tick: Tick, maxPages: number): Observable<Tick> =>
    readOne(tick).pipe(
      map((next) => ({ next, pages: 1 })),
      expand(({ next, pages }) => (next.position.cursor && pages < maxPages ? readOne(next).pipe(map((after) => ({ next: after, pages: pages + 1 }))) : EMPTY)),
      last(),
      map(({ next }): Tick => {
        const done = { ...next.table, status: 'ready' as const, message: undefined, updatedAtMs: scheduler.now() };
        if (!next.position.cursor) return { table: done, position: next.position };
        // Still behind after the page budget: skip to the recent past (never back before what was read) and say so.
        const newestMs = next.position.newestMs;
        const sinceMs = Math.max(0, scheduler.now() - pollMs, newestMs === undefined ? 0 : newestMs - overlapMs);
        return { table: { ...done, skipped: true }, position: { sinceMs, ...(newestMs === undefined ? {} : { newestMs }) } };
      }),
      catchError((error: unknown) =>
        of<Tick>({
          position: tick.position,
          table: {
            ...tick.table,
            status: isUnauthorized(error) ? 'unauthorized' : 'failed',
            message: messageOf(error),
          },
        }),
      ),
    );

  return defer(() => {
    const start: Tick = { table: { status: 'loading', rows: [], skipped: false }, position: { sinceMs } };
    return poll(start, maxPagesFirstPoll).pipe(
      expand((tick) => (tick.table.status === 'unauthorized' ? EMPTY : timer(pollMs, scheduler).pipe(exhaustMap(() => poll(tick, maxPagesPerPoll))))),
      map((tick) => tick.table),
      startWith(start.table),
    );
  });
}
