/**
 * The SQLite store's lists, for the admin API and the dashboard: pages in arrival order by `seq` cursor, so a read
 * costs the rows of its page, never the whole store.
 */
import type { SqliteDatabase } from '../../../db/openDatabase';
import {
  type EventQuery,
  type Page,
  type PageQuery,
  type PingQuery,
  type RequestQuery,
  type StoredErrorReport,
  type StoredEvent,
  type StoredPing,
  type StoredRequest,
  StoreQueryError,
} from '../../store';
import { type AttributionColumns, type EventRow, rowToError, rowToEvent, rowToPing, rowToRequest, type SqlRow } from './rows';

export interface SqliteReads {
  listPings(query: PingQuery): Page<StoredPing>;
  listEvents(query: EventQuery): Page<StoredEvent>;
  listConflicts(query: EventQuery): Page<StoredEvent>;
  listRequests(query: RequestQuery): Page<StoredRequest>;
  listErrors(query: PageQuery): Page<StoredErrorReport>;
}

const cursorOf = (seq: number) => String(seq);
/** A cursor is the `seq` of the last item of the previous page. */
function seqAfter(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  if (!/^\d{1,15}$/.test(cursor)) throw new StoreQueryError(`Unknown cursor "${cursor.slice(0, 40)}": pass the nextCursor of a previous page`);
  return Number(cursor);
}
/** `%` and `_` are literal in a searched text. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Equality filters for the query's fields that are given: `column = ?` clauses and their values. */
function equalities(fields: [column: string, value: string | undefined][]): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  for (const [column, value] of fields) {
    if (value !== undefined) {
      where.push(`${column} = ?`);
      params.push(value);
    }
  }
  return { where, params };
}

/**
 * The stream that owns a page: that of the first request that named it (through the page-id index). NULL when no
 * request did, so that the filter then matches nothing.
 */
const PAGE_OWNER = '(SELECT stream FROM collector_requests WHERE page_id = ? ORDER BY seq LIMIT 1)';

/**
 * The clauses of the `pageId` filter on events (and conflicts): the page's id prefix, as a range on the indexed
 * column (every id that starts with the prefix sorts between the two bounds), within the page's own stream only.
 */
function pageEvents(pageId: string): { where: string[]; params: unknown[] } {
  const prefix = `${pageId}:`;
  return { where: ['client_event_id >= ? AND client_event_id < ?', `stream = ${PAGE_OWNER}`], params: [prefix, `${prefix}\u{10FFFF}`, pageId] };
}

/** The filters of the events and of the conflicts (the same columns): `where` clauses and their values. */
function eventFilters(query: EventQuery): [where: string[], params: unknown[]] {
  const { where, params } = equalities([
    ['name', query.name],
    ['endpoint', query.endpoint],
    ['stream', query.stream],
    ['account_id', query.accountId],
  ]);
  if (query.pageId !== undefined) {
    const scoped = pageEvents(query.pageId);
    where.push(...scoped.where);
    params.push(...scoped.params);
  }
  if (query.text !== undefined && query.text !== '') {
    where.push("(name LIKE ? ESCAPE '\\' OR json LIKE ? ESCAPE '\\')");
    params.push(likePattern(query.text), likePattern(query.text));
  }
  return [where, params];
}

export function createSqliteReads(db: SqliteDatabase): SqliteReads {
  /** Runs a paged read: `where` clauses over `seq > cursor`, oldest first, one row more than asked to know if more follow. */
  const page = <R extends { seq: number }, T>(table: string, where: string[], params: unknown[], query: PageQuery, map: (row: R) => T): Page<T> => {
    const limit = Math.max(1, Math.trunc(query.limit));
    let after = seqAfter(query.cursor);
    if (query.sinceMs !== undefined) {
      // Start the walk at the first row received since then (found through the received-time index), not at the
      // oldest row: a "since a minute ago" read costs the rows of that minute, not the whole store (the index is named:
      // left to itself, the planner walks the primary key from the start).
      const first = (
        db.prepare(`SELECT min(seq) AS seq FROM ${table} INDEXED BY ${table}_received WHERE received_at_ms >= ?`).get(Math.trunc(query.sinceMs)) as {
          seq: number | null;
        }
      ).seq;
      after = Math.max(after, first === null ? Number.MAX_SAFE_INTEGER : first - 1);
    }
    const clauses = ['seq > ?', ...where];
    const values: unknown[] = [after, ...params];
    if (query.sinceMs !== undefined) {
      clauses.push('received_at_ms >= ?');
      values.push(Math.trunc(query.sinceMs));
    }
    if (query.untilMs !== undefined) {
      clauses.push('received_at_ms < ?');
      values.push(Math.trunc(query.untilMs));
    }
    const rows = db.prepare(`SELECT * FROM ${table} WHERE ${clauses.join(' AND ')} ORDER BY seq LIMIT ?`).all(...values, limit + 1) as R[];
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items: items.map(map), ...(rows.length > limit && last ? { nextCursor: cursorOf(last.seq) } : {}) };
  };

  return {
    listPings(query) {
      const { where, params } = equalities([
        ['docid', query.docid],
        ['ei', query.ei],
        ['cpn', query.cpn],
        ['kind', query.kind],
      ]);
      return page<SqlRow & { seq: number }, StoredPing>('collector_pings', where, params, query, rowToPing);
    },

    listEvents: (query) => page<EventRow, StoredEvent>('collector_events', ...eventFilters(query), query, rowToEvent),

    listConflicts: (query) => page<EventRow, StoredEvent>('collector_conflicts', ...eventFilters(query), query, rowToEvent),

    listRequests(query) {
      const { where, params } = equalities([
        ['stream', query.stream],
        ['page_id', query.pageId],
        ['account_id', query.accountId],
      ]);
      if (query.pageId !== undefined) {
        where.push(`stream = ${PAGE_OWNER}`);
        params.push(query.pageId);
      }
      return page<SqlRow & AttributionColumns & { seq: number }, StoredRequest>('collector_requests', where, params, query, rowToRequest);
    },

    listErrors(query) {
      return page<SqlRow & { seq: number }, StoredErrorReport>('collector_errors', [], [], query, rowToError);
    },
  };
}
