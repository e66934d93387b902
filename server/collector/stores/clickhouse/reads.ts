/**
 * The ClickHouse store's lists, for the admin API and the dashboard. Every read uses FINAL, so an event (or ping,
 * request, report) inserted twice is one row whether or not the background merge has run yet; a list is in arrival
 * order, one page at a time (`paging.ts`).
 */
import {
  COLLECTOR_ENDPOINTS,
  type CollectorStore,
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
import type { ClickHouseConnection } from './connection';
import { after, decodeCursor, encodeCursor, pageLimit, timeBounds, whereClause } from './paging';
import {
  type ErrorRow,
  EVENT_COLUMNS,
  type EventRow,
  num,
  type PingRow,
  type RequestRow,
  toStoredError,
  toStoredEvent,
  toStoredPing,
  toStoredRequest,
} from './rows';
import { quoteString, sqlInt } from './sql';
import { endpointOk } from './validate';

export type ClickHouseReads = Pick<CollectorStore, 'listPings' | 'listEvents' | 'listConflicts' | 'listRequests' | 'listErrors'>;

export function createClickHouseReads(conn: ClickHouseConnection): ClickHouseReads {
  return {
    listPings: (query) => listPings(conn, query),
    listEvents: (query) => listEventRows(conn, 'events', query),
    listConflicts: (query) => listEventRows(conn, 'conflicts', query),
    listRequests: (query) => listRequests(conn, query),
    listErrors: (query) => listErrors(conn, query),
  };
}

async function listPings(conn: ClickHouseConnection, query: PingQuery): Promise<Page<StoredPing>> {
  const limit = pageLimit(query.limit);
  const where = timeBounds(query);
  for (const key of ['docid', 'ei', 'cpn', 'kind'] as const) {
    const value = query[key];
    if (value !== undefined) where.push(`${key} = ${quoteString(value)}`);
  }
  if (query.cursor !== undefined && query.cursor !== '') {
    const [at, id] = decodeCursor('p', query.cursor, 'ns');
    where.push(after(['received_at_ms', 'id'], [sqlInt(at as number, 'cursor'), quoteString(id as string)]));
  }
  // WHERE after FINAL, as for events: the filter sees each ping's surviving row only.
  const rows = await conn.rows<PingRow>(
    `SELECT kind, docid, ei, cpn, ping_seq, received_at_ms, id, cmt, rt, len, state, st_json, et_json, final
     FROM ${conn.table('pings')} FINAL ${whereClause(where)} ORDER BY received_at_ms, id LIMIT ${limit + 1}`,
  );
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    items: rows.slice(0, limit).map(toStoredPing),
    ...(last ? { nextCursor: encodeCursor('p', [num(last.received_at_ms), last.id]) } : {}),
  };
}

/**
 * The stream that owns a page: that of the first request that named it (none when no request did, so that the
 * filter then matches nothing). A request row is the same in every stored version, so no FINAL is needed.
 */
const pageOwner = (conn: ClickHouseConnection, pageId: string) =>
  `(SELECT stream FROM ${conn.table('requests')} WHERE page_id = ${quoteString(pageId)} ORDER BY received_at_ms, request_id LIMIT 1)`;

/** A page of `events` or `conflicts` (the same columns, the same filters). */
async function listEventRows(conn: ClickHouseConnection, table: 'events' | 'conflicts', query: EventQuery): Promise<Page<StoredEvent>> {
  const limit = pageLimit(query.limit);
  const where = timeBounds(query);
  if (query.name !== undefined) where.push(`name = ${quoteString(query.name)}`);
  if (query.endpoint !== undefined) {
    if (!endpointOk(query.endpoint)) throw new StoreQueryError(`endpoint must be one of ${COLLECTOR_ENDPOINTS.join(', ')}`);
    where.push(`endpoint = ${quoteString(query.endpoint)}`);
  }
  if (query.stream !== undefined) where.push(`stream = ${quoteString(query.stream)}`);
  if (query.accountId !== undefined) where.push(`account_id = ${quoteString(query.accountId)}`);
  if (query.pageId !== undefined) {
    where.push(`startsWith(client_event_id, ${quoteString(`${query.pageId}:`)})`, `stream IN ${pageOwner(conn, query.pageId)}`);
  }
  if (query.text !== undefined) {
    const text = quoteString(query.text);
    where.push(`(positionCaseInsensitiveUTF8(name, ${text}) > 0 OR positionCaseInsensitiveUTF8(json, ${text}) > 0)`);
  }
  if (query.cursor !== undefined && query.cursor !== '') {
    const [at, requestId, seq] = decodeCursor('e', query.cursor, 'nsn');
    where.push(
      after(['received_at_ms', 'request_id', 'seq'], [sqlInt(at as number, 'cursor'), quoteString(requestId as string), sqlInt(seq as number, 'cursor')]),
    );
  }
  // WHERE applies after FINAL has picked each key's surviving row (a filter on the raw rows could select a
  // resend's row that FINAL drops); never PREWHERE here.
  const rows = await conn.rows<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM ${conn.table(table)} FINAL ${whereClause(where)}
     ORDER BY received_at_ms, request_id, seq LIMIT ${limit + 1}`,
  );
  const items = rows.slice(0, limit).map(toStoredEvent);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    items,
    ...(last ? { nextCursor: encodeCursor('e', [num(last.received_at_ms), last.request_id, num(last.seq)]) } : {}),
  };
}

async function listRequests(conn: ClickHouseConnection, query: RequestQuery): Promise<Page<StoredRequest>> {
  const limit = pageLimit(query.limit);
  const where = timeBounds(query);
  if (query.stream !== undefined) where.push(`stream = ${quoteString(query.stream)}`);
  if (query.pageId !== undefined) where.push(`page_id = ${quoteString(query.pageId)}`, `stream IN ${pageOwner(conn, query.pageId)}`);
  if (query.accountId !== undefined) where.push(`account_id = ${quoteString(query.accountId)}`);
  if (query.cursor !== undefined && query.cursor !== '') {
    const [at, requestId] = decodeCursor('r', query.cursor, 'ns');
    where.push(after(['received_at_ms', 'request_id'], [sqlInt(at as number, 'cursor'), quoteString(requestId as string)]));
  }
  const rows = await conn.rows<RequestRow>(
    `SELECT * FROM ${conn.table('requests')} FINAL ${whereClause(where)} ORDER BY received_at_ms, request_id LIMIT ${limit + 1}`,
  );
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    items: rows.slice(0, limit).map(toStoredRequest),
    ...(last ? { nextCursor: encodeCursor('r', [num(last.received_at_ms), last.request_id]) } : {}),
  };
}

async function listErrors(conn: ClickHouseConnection, query: PageQuery): Promise<Page<StoredErrorReport>> {
  const limit = pageLimit(query.limit);
  const where = timeBounds(query);
  if (query.cursor !== undefined && query.cursor !== '') {
    const [at, id] = decodeCursor('x', query.cursor, 'ns');
    where.push(after(['received_at_ms', 'id'], [sqlInt(at as number, 'cursor'), quoteString(id as string)]));
  }
  const rows = await conn.rows<ErrorRow>(`SELECT * FROM ${conn.table('errors')} FINAL ${whereClause(where)} ORDER BY received_at_ms, id LIMIT ${limit + 1}`);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    items: rows.slice(0, limit).map(toStoredError),
    ...(last ? { nextCursor: encodeCursor('x', [num(last.received_at_ms), last.id]) } : {}),
  };
}
