/**
 * How the ClickHouse store pages its lists: a cursor is the sorting key of the last item of the previous page (kind
 * and parts, base64url JSON), and a page is the rows after it under the same bounds, one more than asked to know
 * whether more follow.
 */
import { type PageQuery, StoreQueryError } from '../../store';
import { MAX_RECEIVED_AT_MS } from './schema';
import { sqlInt } from './sql';
import { isStr } from './validate';

/** A page is at most this long, whatever the caller asks (the route bounds it lower). */
export const MAX_PAGE_LIMIT = 10_000;

type CursorKind = 'e' | 'r' | 'x' | 'p';
export const encodeCursor = (kind: CursorKind, parts: (string | number)[]): string =>
  Buffer.from(JSON.stringify([kind, ...parts]), 'utf8').toString('base64url');

/** Decodes a cursor of this kind into its parts, each checked against `shape` ('n' a whole number, 's' a string). */
export function decodeCursor(kind: CursorKind, cursor: string, shape: string): (string | number)[] {
  let parts: unknown;
  try {
    parts = isStr(cursor) && /^[A-Za-z0-9_-]+$/.test(cursor) ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : undefined;
  } catch {
    parts = undefined;
  }
  const list = Array.isArray(parts) ? (parts as unknown[]) : [];
  const ok =
    list.length === shape.length + 1 &&
    list[0] === kind &&
    [...shape].every((t, i) => {
      const part = list[i + 1];
      return t === 'n' ? typeof part === 'number' && Number.isSafeInteger(part) && part >= 0 : isStr(part);
    });
  if (!ok) throw new StoreQueryError(`Unknown cursor "${String(cursor).slice(0, 40)}": pass the nextCursor of a previous page of this list`);
  return list.slice(1) as (string | number)[];
}

/** `(a, b, …) > (x, y, …)` without tuple comparison (not in 18.16): `a > x OR (a = x AND (b > y OR …))`. */
export function after(columns: string[], values: string[]): string {
  const [column, ...restColumns] = columns;
  const [value, ...restValues] = values;
  if (restColumns.length === 0) return `${column} > ${value}`;
  return `(${column} > ${value} OR (${column} = ${value} AND ${after(restColumns, restValues)}))`;
}

export function pageLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new StoreQueryError(`limit must be a whole number ≥ 1, got ${String(limit)}`);
  return Math.min(limit, MAX_PAGE_LIMIT);
}

/** `received_at_ms` bounds: since inclusive, until exclusive (ms are whole in the table, so both round up). */
export function timeBounds(q: PageQuery): string[] {
  const where: string[] = [];
  const bound = (v: number, what: string) => {
    if (typeof v !== 'number' || Number.isNaN(v)) throw new StoreQueryError(`${what} must be a number`);
    return sqlInt(Math.min(Math.max(Math.ceil(v), 0), MAX_RECEIVED_AT_MS + 1), what);
  };
  if (q.sinceMs !== undefined) where.push(`received_at_ms >= ${bound(q.sinceMs, 'sinceMs')}`);
  if (q.untilMs !== undefined) where.push(`received_at_ms < ${bound(q.untilMs, 'untilMs')}`);
  return where;
}

export const whereClause = (conditions: string[]): string => (conditions.length ? `WHERE ${conditions.join(' AND ')}` : '');
