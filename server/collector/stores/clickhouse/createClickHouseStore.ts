/**
 * The collector's ClickHouse store (issue 12 §7): for several stateless collectors writing to one ClickHouse.
 *
 * Exactly-once on read rests on the engine alone: `events` is a ReplacingMergeTree keyed on `(stream, dedupe_key)`
 * and every read uses `FINAL`, so an event inserted twice — resent, or sent through two collectors at once — is one
 * row in every list, count and chart, whether or not the background merge has run yet. The `duplicates` a request
 * reports is best effort: a look-up of the batch's keys before the insert (two collectors racing on the same event
 * may both count it as accepted; the stored data stays right). `recordLogRequest` resolves after ClickHouse has
 * acknowledged the inserts (a synchronous HTTP INSERT answers once the rows are written to a part). The two inserts
 * (events, then the request's row) are not one transaction: if the second fails, the call rejects, the client
 * resends, and the resent events count as duplicates.
 *
 * Written for, and tested against, Debian's clickhouse-server 18.16, so the code stays within what it has:
 * - no query parameters: every value in a query's text is a checked number or goes through `quoteString`
 *   (`sql.ts`), every name through `identifier`; rows are inserted as `JSONEachRow` in the request body;
 * - no `async_insert`, `wait_end_of_query`, `send_progress_in_http_headers`, session ids or HTTP compression: the
 *   client is created with compression off and no ClickHouse settings, so each request carries only `query_id`
 *   (and the INSERT's `query`), which 18.16 accepts;
 * - no `DateTime64` (times are `UInt64` milliseconds), no `LowCardinality` (experimental in 18.16), no `JSON` type
 *   or `JSONExtract*` (the columns a query needs are stored explicitly beside the event's JSON), no tuple comparison
 *   (cursors are expanded into `a > x OR (a = x AND …)`);
 * - `ALTER TABLE … DELETE` is an asynchronous mutation with no `mutations_sync`: retention waits on
 *   `system.mutations` until it is done;
 * - no `ADD COLUMN IF NOT EXISTS` (a syntax error in 18.16): a migration adds a column only when `system.columns`
 *   does not list it, and takes "already exists" from a collector racing it as done once `system.columns` lists it;
 * - `JSONEachRow` input refuses lone UTF-16 surrogates: a plain string column gets U+FFFD in their place, as any
 *   UTF-8 store writes them (JSON columns keep them exactly, as `\udxxx` escapes);
 * - every insert makes a part (merged in the background), and 18.16 slows inserts past 150 active parts of a
 *   partition and refuses them past 300 ("Too many parts"). The store therefore commits in groups: the requests that
 *   arrive in one turn of the event loop go in one insert (up to two inserts in flight; later ones wait), each
 *   answered once its insert is acknowledged.
 *   (A `Buffer` table would batch too, but loses what it holds on a crash after it was acknowledged.)
 *
 * What a current ClickHouse (23.x and later) would add:
 * - `ALTER TABLE … ADD COLUMN IF NOT EXISTS` (19.x) instead of the look-up in `system.columns`;
 * - server-side query parameters (`{stream:String}`) instead of quoting values into the query text;
 * - `async_insert=1, wait_for_async_insert=1`: the server batches the many small inserts of many collectors into
 *   few parts, still acknowledging each only once written (today every request makes a part, and merges follow);
 * - `insert_deduplication_token` and `ReplicatedReplacingMergeTree … ON CLUSTER` for a replicated cluster, with
 *   `insert_quorum` so an acknowledgement means written on more than one replica;
 * - `DateTime64(3)`, `LowCardinality(String)` for name and endpoint, `Map(String, String)` for headers, the `JSON`
 *   type (or `JSONExtract*`) to search inside events;
 * - lightweight `DELETE FROM` or `mutations_sync=2`, or a `TTL` on the received time, for retention;
 * - tuple comparison for cursors, a `FINAL` that is parallel and skips partitions
 *   (`do_not_merge_across_partitions_select_final`), and a projection or a minmax skip index on `received_at_ms`, so
 *   that time-ordered pages do not read the whole table (here each page of a list reads every part, with FINAL).
 */
import { randomBytes } from 'node:crypto';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import {
  COLLECTOR_ENDPOINTS,
  type CollectorEndpoint,
  type CollectorStats,
  type CollectorStore,
  type EventQuery,
  type IncomingErrorReport,
  type IncomingEvent,
  type IncomingPing,
  type IncomingRequest,
  type Page,
  type PageQuery,
  PING_KINDS,
  type PingQuery,
  type RecordOutcome,
  type RequestQuery,
  type StoredErrorReport,
  type StoredEvent,
  type StoredPing,
  type StoredRequest,
  StoreQueryError,
  type TimeseriesBucket,
  type TimeseriesQuery,
  type ViewerAttribution,
} from '../../store';
import { type AddedColumn, createMigrationsTable, DATA_TABLES, LATEST_VERSION, MAX_RECEIVED_AT_MS, MIGRATIONS } from './schema';
import { identifier, quoteString, sqlInt, wellFormed } from './sql';

export interface ClickHouseStoreOptions {
  /** Per HTTP request (30 s by default). */
  requestTimeoutMs?: number;
  /** Sockets to ClickHouse at most (10 by default). */
  maxOpenConnections?: number;
  /** How long retention waits for its delete mutations (60 s by default). */
  mutationTimeoutMs?: number;
}

/** What a `clickhouse://` (or `clickhouse+http(s)://`, `http(s)://`) store URL names. */
export interface ClickHouseTarget {
  /** The HTTP interface, without credentials or path: `http://host:8123`. */
  httpUrl: string;
  database: string;
  username?: string;
  password?: string;
}

/** When the URL names no database. */
export const DEFAULT_DATABASE = 'vidframe';
/** A page is at most this long, whatever the caller asks (the route bounds it lower). */
export const MAX_PAGE_LIMIT = 10_000;
/** A chart spans at most this many buckets (the answer holds only those with data). */
export const MAX_TIMESERIES_BUCKETS = 100_000;
/** `byName` lists at most this many names (the most frequent), so a flood of invented names stays bounded. */
export const MAX_STATS_NAMES = 1_000;
/** The pre-insert duplicate look-up is split into queries of about this many characters (max_query_size is 256 KiB). */
const LOOKUP_QUERY_CHARS = 64 * 1024;

const URL_FORM = 'clickhouse://[user[:password]@]host[:port]/database (or clickhouse+http://, clickhouse+https://, http://, https://)';
const SCHEMES: Record<string, { http: 'http:' | 'https:'; port: string }> = {
  'clickhouse:': { http: 'http:', port: '8123' },
  'clickhouse+http:': { http: 'http:', port: '8123' },
  'clickhouse+https:': { http: 'https:', port: '8443' },
  'http:': { http: 'http:', port: '80' },
  'https:': { http: 'https:', port: '443' },
};

/** Parses and checks a store URL; throws an error that names the expected form (never the password). */
export function parseClickHouseUrl(url: string): ClickHouseTarget {
  const fail = (why: string): never => {
    throw new Error(`ClickHouse store URL ${JSON.stringify(redact(url))}: ${why}; expected ${URL_FORM}`);
  };
  if (typeof url !== 'string' || url.trim() === '') fail('empty');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('not a URL');
  }
  const scheme = SCHEMES[parsed.protocol];
  if (!scheme) fail(`unknown scheme ${parsed.protocol}`);
  if (!parsed.hostname) fail('no host');
  if (parsed.search || parsed.hash) fail('it takes no query string or fragment');
  // `new URL` drops a scheme's default port (80 for http:); clickhouse:// defaults to the HTTP interface's 8123.
  const port = parsed.port || scheme.port;
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) fail(`bad port ${port}`);
  const decode = (text: string, what: string): string => {
    try {
      return decodeURIComponent(text);
    } catch {
      return fail(`malformed %-escape in the ${what}`);
    }
  };
  const segments = parsed.pathname.split('/').filter(Boolean);
  if (segments.length > 1) fail('the path must be one database name');
  const database = segments.length === 1 ? decode(segments[0], 'database name') : DEFAULT_DATABASE;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) fail(`database name ${JSON.stringify(database)} is not a plain identifier`);
  const host = parsed.hostname.includes(':') && !parsed.hostname.startsWith('[') ? `[${parsed.hostname}]` : parsed.hostname;
  return {
    httpUrl: `${scheme.http}//${host}:${port}`,
    database,
    ...(parsed.username ? { username: decode(parsed.username, 'user name') } : {}),
    ...(parsed.password ? { password: decode(parsed.password, 'password') } : {}),
  };
}

const redact = (url: unknown): string => (typeof url === 'string' ? url.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@') : String(url));

/** Opens (and creates or migrates) the store at `url`. Rejects with a clear error if the URL or server is wrong. */
export async function createClickHouseStore(url: string, opts: ClickHouseStoreOptions = {}): Promise<CollectorStore> {
  const target = parseClickHouseUrl(url);
  const db = identifier(target.database);
  const client = createClient({
    url: target.httpUrl,
    username: target.username ?? 'default',
    password: target.password ?? '',
    application: 'vidframe-collector',
    request_timeout: opts.requestTimeoutMs ?? 30_000,
    max_open_connections: opts.maxOpenConnections ?? 10,
    // 18.16: no HTTP compression negotiation, no settings beyond what the server knows (see the file's comment).
    compression: { request: false, response: false },
    clickhouse_settings: {},
    // 18.16 closes idle keep-alive sockets after 3 s; the client drops its own before that.
    keep_alive: { enabled: true, idle_socket_ttl: 2_000 },
    log: { level: ClickHouseLogLevel.OFF },
  });
  try {
    await migrate(client, db);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(`ClickHouse store at ${target.httpUrl}/${db} could not be opened: ${(error as Error).message}`, { cause: error });
  }
  return new ClickHouseStore(client, db, opts.mutationTimeoutMs ?? 60_000);
}

/** Climbs the migration ladder from the version recorded in `schema_migrations`. */
async function migrate(client: ClickHouseClient, db: string): Promise<void> {
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
  await client.command({ query: createMigrationsTable(db) });
  const [row] = await selectRows<{ v: number | string }>(client, `SELECT max(version) AS v FROM ${db}.schema_migrations FINAL`);
  const current = Number(row?.v ?? 0);
  if (current > LATEST_VERSION) {
    throw new Error(`database ${db} has schema version ${current}, newer than this VidFrame knows (${LATEST_VERSION}): upgrade VidFrame`);
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    for (const statement of migration.statements(db)) await client.command({ query: statement });
    for (const column of migration.addColumns ?? []) await addColumnIfMissing(client, db, column);
    await client.insert({
      table: `${db}.schema_migrations`,
      values: [{ version: migration.version, applied_at_ms: Date.now() }],
      format: 'JSONEachRow',
    });
  }
}

/**
 * `ALTER TABLE … ADD COLUMN` unless the table has the column already: 18.16's stand-in for `ADD COLUMN IF NOT
 * EXISTS`. Two collectors climbing the same step may both find it missing; the one that loses the race is refused
 * ("column with this name already exists"), checks again, and goes on when the column is there.
 */
async function addColumnIfMissing(client: ClickHouseClient, db: string, column: AddedColumn): Promise<void> {
  const table = identifier(column.table);
  const name = identifier(column.name);
  const present = async () =>
    num(
      (
        await selectRows<{ n: string }>(
          client,
          `SELECT count() AS n FROM system.columns WHERE database = ${quoteString(db)} AND table = ${quoteString(table)} AND name = ${quoteString(name)}`,
        )
      )[0]?.n ?? 0,
    ) > 0;
  if (await present()) return;
  try {
    await client.command({ query: `ALTER TABLE ${identifier(db)}.${table} ADD COLUMN ${name} ${column.type}` });
  } catch (error) {
    if (!(await present())) throw error;
  }
}

async function selectRows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  const result = await client.query({ query, format: 'JSONEachRow' });
  return result.json<T>();
}

// ---- validation -------------------------------------------------------------------------------------------------

const isStr = (v: unknown): v is string => typeof v === 'string';
const need = (ok: boolean, what: string): void => {
  if (!ok) throw new TypeError(`ClickHouse store: ${what}`);
};
const optionalStr = (v: unknown, what: string): void => need(v === undefined || isStr(v), `${what} must be a string when given`);
const uint = (v: unknown, what: string, max = 0xffff_ffff): void =>
  need(typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= max, `${what} must be a whole number in [0, ${max}]`);
const stringRecord = (v: unknown, what: string): void =>
  need(!!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v as object).every(isStr), `${what} must be an object of strings`);
const endpointOk = (v: unknown): v is CollectorEndpoint => (COLLECTOR_ENDPOINTS as readonly unknown[]).includes(v);
const receivedAt = (v: unknown, what: string): void => uint(v, what, MAX_RECEIVED_AT_MS);

function validateRequest(r: IncomingRequest): void {
  need(!!r && typeof r === 'object', 'request must be an object');
  need(isStr(r.requestId) && r.requestId !== '', 'requestId must be a non-empty string');
  need(isStr(r.stream), 'request stream must be a string');
  need(endpointOk(r.endpoint), `request endpoint must be one of ${COLLECTOR_ENDPOINTS.join(', ')}`);
  receivedAt(r.receivedAtMs, 'receivedAtMs');
  need(typeof r.compressed === 'boolean', 'compressed must be a boolean');
  need(isStr(r.contentType), 'contentType must be a string');
  uint(r.bodyBytes, 'bodyBytes', Number.MAX_SAFE_INTEGER);
  uint(r.decodedBytes, 'decodedBytes', Number.MAX_SAFE_INTEGER);
  stringRecord(r.headers, 'headers');
  optionalStr(r.contextJson, 'contextJson');
  if (r.contextJson !== undefined) {
    try {
      JSON.parse(r.contextJson);
    } catch {
      need(false, 'contextJson must be JSON');
    }
  }
  uint(r.eventCount, 'eventCount');
  uint(r.refused, 'refused');
  if (r.viewer !== undefined) {
    need(!!r.viewer && typeof r.viewer === 'object', 'viewer must be an object when given');
    need(isStr(r.viewer.accountId) && r.viewer.accountId !== '', 'viewer.accountId must be a non-empty string');
    optionalStr(r.viewer.channelId, 'viewer.channelId');
  }
}

function validateEvent(e: IncomingEvent, i: number): void {
  const at = `event ${i}`;
  need(!!e && typeof e === 'object', `${at} must be an object`);
  need(isStr(e.stream) && e.stream !== '', `${at}: stream must be a non-empty string`);
  need(isStr(e.dedupeKey) && e.dedupeKey !== '', `${at}: dedupeKey must be a non-empty string`);
  optionalStr(e.clientEventId, `${at}: clientEventId`);
  need(isStr(e.name) && e.name !== '', `${at}: name must be a non-empty string`);
  need(endpointOk(e.endpoint), `${at}: endpoint must be one of ${COLLECTOR_ENDPOINTS.join(', ')}`);
  need(e.eventTimeMs === undefined || Number.isFinite(e.eventTimeMs), `${at}: eventTimeMs must be a finite number when given`);
  need(e.value === undefined || Number.isFinite(e.value), `${at}: value must be a finite number when given`);
  need(isStr(e.json), `${at}: json must be a string`);
}

const finiteSeconds = (v: unknown, what: string): void => need(typeof v === 'number' && Number.isFinite(v) && v >= 0, `${what} must be a finite number ≥ 0`);

function validatePing(p: IncomingPing): void {
  need(!!p && typeof p === 'object', 'ping must be an object');
  need((PING_KINDS as readonly unknown[]).includes(p.kind), `ping kind must be one of ${PING_KINDS.join(', ')}`);
  for (const key of ['docid', 'ei', 'cpn'] as const) need(isStr(p[key]) && p[key] !== '', `ping ${key} must be a non-empty string`);
  uint(p.seq, 'ping seq');
  receivedAt(p.receivedAtMs, 'receivedAtMs');
  finiteSeconds(p.cmt, 'cmt');
  finiteSeconds(p.rt, 'rt');
  if (p.len !== undefined) finiteSeconds(p.len, 'len');
  optionalStr(p.state, 'state');
  need(Array.isArray(p.st) && Array.isArray(p.et) && p.st.length === p.et.length, 'st and et must be arrays of the same length');
  [...p.st, ...p.et].forEach((v, i) => finiteSeconds(v, `segment time ${i}`));
  need(typeof p.final === 'boolean', 'final must be a boolean');
}

function validateErrorReport(r: IncomingErrorReport): void {
  need(!!r && typeof r === 'object', 'error report must be an object');
  receivedAt(r.receivedAtMs, 'receivedAtMs');
  need(isStr(r.message), 'message must be a string');
  need(typeof r.messageTruncated === 'boolean', 'messageTruncated must be a boolean');
  for (const key of ['url', 'file', 'line', 'stack', 'type'] as const) optionalStr(r[key], key);
  stringRecord(r.extra, 'extra');
}

/** JSON for a column, or null; refuses what JSON cannot carry (a cycle, a BigInt). */
function jsonOrNull(value: unknown, what: string): string | null {
  if (value === undefined) return null;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`ClickHouse store: ${what} cannot be serialised: ${(error as Error).message}`, { cause: error });
  }
  return text === undefined ? null : wellFormed(text);
}

const nullable = (v: string | undefined): string | null => (v === undefined ? null : wellFormed(v));

// ---- cursors ----------------------------------------------------------------------------------------------------

type CursorKind = 'e' | 'r' | 'x' | 'p';
const encodeCursor = (kind: CursorKind, parts: (string | number)[]): string => Buffer.from(JSON.stringify([kind, ...parts]), 'utf8').toString('base64url');

/** Decodes a cursor of this kind into its parts, each checked against `shape` ('n' a whole number, 's' a string). */
function decodeCursor(kind: CursorKind, cursor: string, shape: string): (string | number)[] {
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
function after(columns: string[], values: string[]): string {
  const [column, ...restColumns] = columns;
  const [value, ...restValues] = values;
  if (restColumns.length === 0) return `${column} > ${value}`;
  return `(${column} > ${value} OR (${column} = ${value} AND ${after(restColumns, restValues)}))`;
}

// ---- reading helpers --------------------------------------------------------------------------------------------

const num = (v: unknown): number => Number(v);
const parseJson = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

function pageLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new StoreQueryError(`limit must be a whole number ≥ 1, got ${String(limit)}`);
  return Math.min(limit, MAX_PAGE_LIMIT);
}

/** `received_at_ms` bounds: since inclusive, until exclusive (ms are whole in the table, so both round up). */
function timeBounds(q: PageQuery): string[] {
  const where: string[] = [];
  const bound = (v: number, what: string) => {
    if (typeof v !== 'number' || Number.isNaN(v)) throw new StoreQueryError(`${what} must be a number`);
    return sqlInt(Math.min(Math.max(Math.ceil(v), 0), MAX_RECEIVED_AT_MS + 1), what);
  };
  if (q.sinceMs !== undefined) where.push(`received_at_ms >= ${bound(q.sinceMs, 'sinceMs')}`);
  if (q.untilMs !== undefined) where.push(`received_at_ms < ${bound(q.untilMs, 'untilMs')}`);
  return where;
}

const whereClause = (conditions: string[]): string => (conditions.length ? `WHERE ${conditions.join(' AND ')}` : '');

interface EventRow {
  stream: string;
  dedupe_key: string;
  client_event_id: string | null;
  name: string;
  endpoint: CollectorEndpoint;
  event_time_ms: number | null;
  received_at_ms: string;
  request_id: string;
  seq: number | string;
  value: number | null;
  json: string;
  /** NULL for anonymous viewers and for rows stored before migration 2. */
  account_id: string | null;
  channel_id: string | null;
}
interface RequestRow {
  request_id: string;
  stream: string;
  endpoint: CollectorEndpoint;
  received_at_ms: string;
  compressed: number | string;
  content_type: string;
  body_bytes: string;
  decoded_bytes: string;
  headers_json: string;
  serialized_client_event_id_json: string | null;
  request_time_ms_json: string | null;
  context_json: string | null;
  event_count: number | string;
  refused: number | string;
  accepted: number | string;
  duplicates: number | string;
  account_id: string | null;
  channel_id: string | null;
}
interface ErrorRow {
  id: string;
  received_at_ms: string;
  message: string;
  message_truncated: number | string;
  url: string | null;
  file: string | null;
  line: string | null;
  stack: string | null;
  type: string | null;
  extra_json: string;
}

interface PingRow {
  kind: StoredPing['kind'];
  docid: string;
  ei: string;
  cpn: string;
  ping_seq: number | string;
  received_at_ms: string;
  id: string;
  cmt: number;
  rt: number;
  len: number | null;
  state: string | null;
  st_json: string;
  et_json: string;
  final: number | string;
}

const EVENT_COLUMNS =
  'stream, dedupe_key, client_event_id, name, endpoint, event_time_ms, received_at_ms, request_id, seq, value, json, account_id, channel_id';

// ---- the store --------------------------------------------------------------------------------------------------

let rowCounter = 0;
/** Error report and ping ids sort by creation within one process (the list order within one millisecond). */
const newRowId = (): string => `${(++rowCounter).toString(36).padStart(8, '0')}-${randomBytes(6).toString('hex')}`;

/** Most log requests written by one insert (group commit). */
const MAX_REQUESTS_PER_INSERT = 500;
/**
 * Batches written at once. Each waits about 40 ms for ClickHouse 18.16 to write its parts, so a few in flight keep it
 * busy; de-duplication does not depend on their order (the engine's key and FINAL decide), only the best-effort
 * `duplicates` figure may miss a race between two of them, as it may between two collectors.
 */
const MAX_INSERTS_IN_FLIGHT = 2;

interface PendingWrite {
  request: IncomingRequest;
  events: readonly IncomingEvent[];
  resolve(outcome: RecordOutcome): void;
  reject(error: unknown): void;
}

class ClickHouseStore implements CollectorStore {
  readonly kind = 'clickhouse';
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly pending: PendingWrite[] = [];
  private insertsInFlight = 0;
  private pumpScheduled = false;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly client: ClickHouseClient,
    private readonly db: string,
    private readonly mutationTimeoutMs: number,
  ) {}

  /** Runs one operation of the store, tracked so that `close()` can finish it first. */
  private track<T>(work: () => Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(new Error('ClickHouse store is closed'));
    const running = work();
    this.inflight.add(running);
    running.then(
      () => this.inflight.delete(running),
      () => this.inflight.delete(running),
    );
    return running;
  }

  private table(name: (typeof DATA_TABLES)[number]): string {
    return `${this.db}.${name}`;
  }

  private rows<T>(query: string): Promise<T[]> {
    return selectRows<T>(this.client, query);
  }

  recordLogRequest(request: IncomingRequest, events: readonly IncomingEvent[]): Promise<RecordOutcome> {
    return this.track(async () => {
      validateRequest(request);
      need(Array.isArray(events), 'events must be an array');
      events.forEach(validateEvent);
      return new Promise<RecordOutcome>((resolve, reject) => {
        this.pending.push({ request, events, resolve, reject });
        this.pump();
      });
    });
  }

  /** Cuts the next batch on the next turn of the event loop, so that requests arriving together go together. */
  private pump(): void {
    if (this.pumpScheduled || this.pending.length === 0) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.dispatch();
    });
  }

  /**
   * Group commit: what is pending goes in batches of at most {@link MAX_REQUESTS_PER_INSERT} requests, at most
   * {@link MAX_INSERTS_IN_FLIGHT} at once, so many small requests make few parts — what `async_insert` does
   * server-side in a current ClickHouse. Each request is answered only once its batch is acknowledged.
   */
  private dispatch(): void {
    while (this.pending.length > 0 && this.insertsInFlight < MAX_INSERTS_IN_FLIGHT) {
      const batch = this.pending.splice(0, MAX_REQUESTS_PER_INSERT);
      this.insertsInFlight += 1;
      void this.commit(batch).finally(() => {
        this.insertsInFlight -= 1;
        this.pump();
      });
    }
  }

  /** Writes one batch and answers its requests; when it fails, its requests are tried one by one. */
  private async commit(batch: PendingWrite[]): Promise<void> {
    try {
      const outcomes = await this.writeBatch(batch);
      batch.forEach((write, i) => write.resolve(outcomes[i]));
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      for (const write of batch) {
        try {
          write.resolve((await this.writeBatch([write]))[0]);
        } catch (single) {
          write.reject(single);
        }
      }
    }
  }

  /** Inserts the events not stored before (first occurrence in the batch wins), then the requests' rows. */
  private async writeBatch(batch: readonly PendingWrite[]): Promise<RecordOutcome[]> {
    const firsts = new Map<string, { event: IncomingEvent; seq: number; index: number }>();
    batch.forEach(({ events }, index) =>
      events.forEach((event, seq) => {
        const key = JSON.stringify([wellFormed(event.stream), wellFormed(event.dedupeKey)]);
        if (!firsts.has(key)) firsts.set(key, { event, seq, index });
      }),
    );
    const existing = await this.existingKeys([...firsts.values()].map(({ event }) => event));
    const accepted = batch.map(() => 0);
    const fresh = [...firsts.entries()].filter(([key]) => !existing.has(key)).map(([, entry]) => entry);
    for (const { index } of fresh) accepted[index] += 1;
    const outcomes = batch.map(({ events }, index) => ({ accepted: accepted[index], duplicates: events.length - accepted[index] }));
    // The requests' rows are built before anything is written: a field that cannot be serialised fails the batch
    // before its events are in, not after (which would make the one-by-one retry count them as duplicates).
    const viewerOf = ({ viewer }: IncomingRequest) => ({ account_id: nullable(viewer?.accountId), channel_id: nullable(viewer?.channelId) });
    const requestRows = batch.map(({ request }, index) => {
      const serialized = request.serializedClientEventId as { serializedEventId?: unknown } | null | undefined;
      return {
        request_id: wellFormed(request.requestId),
        stream: wellFormed(request.stream),
        endpoint: request.endpoint,
        received_at_ms: request.receivedAtMs,
        compressed: request.compressed ? 1 : 0,
        content_type: wellFormed(request.contentType),
        body_bytes: request.bodyBytes,
        decoded_bytes: request.decodedBytes,
        headers_json: jsonOrNull(request.headers, 'headers') ?? '{}',
        serialized_client_event_id_json: jsonOrNull(request.serializedClientEventId, 'serializedClientEventId'),
        page_id: serialized && typeof serialized === 'object' && isStr(serialized.serializedEventId) ? wellFormed(serialized.serializedEventId) : '',
        request_time_ms_json: jsonOrNull(request.requestTimeMs, 'requestTimeMs'),
        context_json: nullable(request.contextJson),
        event_count: request.eventCount,
        refused: request.refused,
        accepted: outcomes[index].accepted,
        duplicates: outcomes[index].duplicates,
        ...viewerOf(request),
      };
    });

    if (fresh.length > 0) {
      await this.client.insert({
        table: this.table('events'),
        format: 'JSONEachRow',
        values: fresh.map(({ event, seq, index }) => {
          const { request } = batch[index];
          return {
            stream: wellFormed(event.stream),
            dedupe_key: wellFormed(event.dedupeKey),
            client_event_id: nullable(event.clientEventId),
            name: wellFormed(event.name),
            endpoint: event.endpoint,
            event_time_ms: event.eventTimeMs ?? null,
            received_at_ms: request.receivedAtMs,
            request_id: wellFormed(request.requestId),
            seq,
            value: event.value ?? null,
            json: wellFormed(event.json),
            // Who sent it: that of the request that stores it first (the surviving row of the key).
            ...viewerOf(request),
          };
        }),
      });
    }
    await this.client.insert({ table: this.table('requests'), format: 'JSONEachRow', values: requestRows });
    return outcomes;
  }

  /**
   * Which of these events are stored already (keys as `JSON.stringify([stream, dedupeKey])`). Best effort, for the
   * `duplicates` count only: any stored version of a key counts, so no FINAL is needed. Split into queries of
   * bounded length, grouped by stream so that each condition uses the table's sorting key.
   */
  private async existingKeys(events: IncomingEvent[]): Promise<Set<string>> {
    const byStream = new Map<string, string[]>();
    for (const e of events) {
      const stream = wellFormed(e.stream);
      const keys = byStream.get(stream) ?? [];
      keys.push(wellFormed(e.dedupeKey));
      byStream.set(stream, keys);
    }
    const queries: string[] = [];
    let conditions: string[] = [];
    let length = 0;
    const flush = () => {
      if (conditions.length === 0) return;
      queries.push(`SELECT DISTINCT stream, dedupe_key FROM ${this.table('events')} WHERE ${conditions.join(' OR ')}`);
      conditions = [];
      length = 0;
    };
    for (const [stream, keys] of byStream) {
      let quoted: string[] = [];
      let size = 0;
      const push = () => {
        if (quoted.length === 0) return;
        const condition = `(stream = ${quoteString(stream)} AND dedupe_key IN (${quoted.join(', ')}))`;
        if (length + condition.length > LOOKUP_QUERY_CHARS) flush();
        conditions.push(condition);
        length += condition.length;
        quoted = [];
        size = 0;
      };
      for (const key of keys) {
        const q = quoteString(key);
        if (size + q.length > LOOKUP_QUERY_CHARS) push();
        quoted.push(q);
        size += q.length + 2;
      }
      push();
    }
    flush();
    const found = new Set<string>();
    for (const query of queries) {
      // A single huge key can exceed the default max_query_size (256 KiB): allow what the query needs.
      const settings = query.length > 200_000 ? { max_query_size: String(query.length + 1024) } : undefined;
      const result = await this.client.query({ query, format: 'JSONEachRow', clickhouse_settings: settings });
      for (const row of await result.json<{ stream: string; dedupe_key: string }>()) found.add(JSON.stringify([row.stream, row.dedupe_key]));
    }
    return found;
  }

  recordError(report: IncomingErrorReport): Promise<void> {
    return this.track(async () => {
      validateErrorReport(report);
      await this.client.insert({
        table: this.table('errors'),
        format: 'JSONEachRow',
        values: [
          {
            id: newRowId(),
            received_at_ms: report.receivedAtMs,
            message: wellFormed(report.message),
            message_truncated: report.messageTruncated ? 1 : 0,
            url: nullable(report.url),
            file: nullable(report.file),
            line: nullable(report.line),
            stack: nullable(report.stack),
            type: nullable(report.type),
            extra_json: jsonOrNull(report.extra, 'extra') ?? '{}',
          },
        ],
      });
    });
  }

  recordPing(ping: IncomingPing): Promise<{ stored: boolean }> {
    return this.track(async () => {
      validatePing(ping);
      const key = [
        `ei = ${quoteString(ping.ei)}`,
        `cpn = ${quoteString(ping.cpn)}`,
        `kind = ${quoteString(ping.kind)}`,
        `ping_seq = ${sqlInt(ping.seq, 'seq', 0, 0xffff_ffff)}`,
      ];
      // Best effort, as for events: the sorting key and FINAL make a resend one row whatever this check says; it only
      // tells the route whether this arrival was the first.
      const [seen] = await this.rows<{ n: string }>(`SELECT count() AS n FROM ${this.table('pings')} FINAL WHERE ${key.join(' AND ')}`);
      if (num(seen?.n ?? 0) > 0) return { stored: false };
      await this.client.insert({
        table: this.table('pings'),
        format: 'JSONEachRow',
        values: [
          {
            kind: ping.kind,
            docid: wellFormed(ping.docid),
            ei: wellFormed(ping.ei),
            cpn: wellFormed(ping.cpn),
            ping_seq: ping.seq,
            received_at_ms: ping.receivedAtMs,
            id: newRowId(),
            cmt: ping.cmt,
            rt: ping.rt,
            len: ping.len ?? null,
            state: nullable(ping.state),
            st_json: JSON.stringify(ping.st),
            et_json: JSON.stringify(ping.et),
            final: ping.final ? 1 : 0,
          },
        ],
      });
      return { stored: true };
    });
  }

  listPings(query: PingQuery): Promise<Page<StoredPing>> {
    return this.track(async () => {
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
      const rows = await this.rows<PingRow>(
        `SELECT kind, docid, ei, cpn, ping_seq, received_at_ms, id, cmt, rt, len, state, st_json, et_json, final
         FROM ${this.table('pings')} FINAL ${whereClause(where)} ORDER BY received_at_ms, id LIMIT ${limit + 1}`,
      );
      const last = rows.length > limit ? rows[limit - 1] : undefined;
      return {
        items: rows.slice(0, limit).map(toStoredPing),
        ...(last ? { nextCursor: encodeCursor('p', [num(last.received_at_ms), last.id]) } : {}),
      };
    });
  }

  listEvents(query: EventQuery): Promise<Page<StoredEvent>> {
    return this.track(async () => {
      const limit = pageLimit(query.limit);
      const where = timeBounds(query);
      if (query.name !== undefined) where.push(`name = ${quoteString(query.name)}`);
      if (query.endpoint !== undefined) {
        if (!endpointOk(query.endpoint)) throw new StoreQueryError(`endpoint must be one of ${COLLECTOR_ENDPOINTS.join(', ')}`);
        where.push(`endpoint = ${quoteString(query.endpoint)}`);
      }
      if (query.stream !== undefined) where.push(`stream = ${quoteString(query.stream)}`);
      if (query.accountId !== undefined) where.push(`account_id = ${quoteString(query.accountId)}`);
      if (query.clientEventIdPrefix !== undefined) where.push(`startsWith(client_event_id, ${quoteString(query.clientEventIdPrefix)})`);
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
      const rows = await this.rows<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM ${this.table('events')} FINAL ${whereClause(where)}
         ORDER BY received_at_ms, request_id, seq LIMIT ${limit + 1}`,
      );
      const items = rows.slice(0, limit).map(toStoredEvent);
      const last = rows.length > limit ? rows[limit - 1] : undefined;
      return {
        items,
        ...(last ? { nextCursor: encodeCursor('e', [num(last.received_at_ms), last.request_id, num(last.seq)]) } : {}),
      };
    });
  }

  listRequests(query: RequestQuery): Promise<Page<StoredRequest>> {
    return this.track(async () => {
      const limit = pageLimit(query.limit);
      const where = timeBounds(query);
      if (query.stream !== undefined) where.push(`stream = ${quoteString(query.stream)}`);
      if (query.pageId !== undefined) where.push(`page_id = ${quoteString(query.pageId)}`);
      if (query.accountId !== undefined) where.push(`account_id = ${quoteString(query.accountId)}`);
      if (query.cursor !== undefined && query.cursor !== '') {
        const [at, requestId] = decodeCursor('r', query.cursor, 'ns');
        where.push(after(['received_at_ms', 'request_id'], [sqlInt(at as number, 'cursor'), quoteString(requestId as string)]));
      }
      const rows = await this.rows<RequestRow>(
        `SELECT * FROM ${this.table('requests')} FINAL ${whereClause(where)} ORDER BY received_at_ms, request_id LIMIT ${limit + 1}`,
      );
      const last = rows.length > limit ? rows[limit - 1] : undefined;
      return {
        items: rows.slice(0, limit).map(toStoredRequest),
        ...(last ? { nextCursor: encodeCursor('r', [num(last.received_at_ms), last.request_id]) } : {}),
      };
    });
  }

  listErrors(query: PageQuery): Promise<Page<StoredErrorReport>> {
    return this.track(async () => {
      const limit = pageLimit(query.limit);
      const where = timeBounds(query);
      if (query.cursor !== undefined && query.cursor !== '') {
        const [at, id] = decodeCursor('x', query.cursor, 'ns');
        where.push(after(['received_at_ms', 'id'], [sqlInt(at as number, 'cursor'), quoteString(id as string)]));
      }
      const rows = await this.rows<ErrorRow>(
        `SELECT * FROM ${this.table('errors')} FINAL ${whereClause(where)} ORDER BY received_at_ms, id LIMIT ${limit + 1}`,
      );
      const last = rows.length > limit ? rows[limit - 1] : undefined;
      return {
        items: rows.slice(0, limit).map(toStoredError),
        ...(last ? { nextCursor: encodeCursor('x', [num(last.received_at_ms), last.id]) } : {}),
      };
    });
  }

  stats(): Promise<CollectorStats> {
    return this.track(async () => {
      const [requests, endpoints, names, errors] = await Promise.all([
        this.rows<{ n: string; compressed: string; duplicates: string; refused: string }>(
          `SELECT count() AS n, sum(compressed) AS compressed, sum(duplicates) AS duplicates, sum(refused) AS refused
           FROM ${this.table('requests')} FINAL`,
        ),
        this.rows<{ endpoint: string; n: string }>(`SELECT endpoint, count() AS n FROM ${this.table('events')} FINAL GROUP BY endpoint`),
        this.rows<{ name: string; n: string }>(
          `SELECT name, count() AS n FROM ${this.table('events')} FINAL GROUP BY name ORDER BY n DESC, name LIMIT ${MAX_STATS_NAMES}`,
        ),
        this.rows<{ n: string }>(`SELECT count() AS n FROM ${this.table('errors')} FINAL`),
      ]);
      const byEndpoint = Object.fromEntries(COLLECTOR_ENDPOINTS.map((e) => [e, 0])) as Record<CollectorEndpoint, number>;
      let events = 0;
      for (const row of endpoints) {
        events += num(row.n);
        if (endpointOk(row.endpoint)) byEndpoint[row.endpoint] = num(row.n);
      }
      const r = requests[0];
      return {
        requests: num(r?.n ?? 0),
        compressedRequests: num(r?.compressed ?? 0),
        events,
        duplicatesDropped: num(r?.duplicates ?? 0),
        refusedEvents: num(r?.refused ?? 0),
        byEndpoint,
        byName: Object.fromEntries(names.map((row) => [row.name, num(row.n)])),
        errors: num(errors[0]?.n ?? 0),
      };
    });
  }

  /** Buckets aligned on multiples of `bucketMs` since the epoch, oldest first; only buckets with events or errors. */
  timeseries(query: TimeseriesQuery): Promise<TimeseriesBucket[]> {
    return this.track(async () => {
      const { sinceMs, untilMs, bucketMs } = query;
      if (![sinceMs, untilMs].every((v) => typeof v === 'number' && Number.isFinite(v))) {
        throw new StoreQueryError('sinceMs and untilMs must be times in ms since the epoch');
      }
      if (!Number.isSafeInteger(bucketMs) || bucketMs < 1) throw new StoreQueryError('bucketMs must be a whole number of milliseconds ≥ 1');
      const buckets = Math.ceil((untilMs - sinceMs) / bucketMs);
      if (buckets > MAX_TIMESERIES_BUCKETS) throw new StoreQueryError(`at most ${MAX_TIMESERIES_BUCKETS} buckets, asked for ${buckets}`);
      const bucket = sqlInt(bucketMs, 'bucketMs');
      const where = whereClause(timeBounds({ sinceMs, untilMs, limit: 1 }));
      const [events, errors] = await Promise.all([
        this.rows<{
          start: string;
          events: string;
          sessions: string;
          watch: number;
          state_changes: string;
          player_errors: string;
          latency_sum: number;
          latency_n: string;
        }>(
          `SELECT intDiv(received_at_ms, ${bucket}) * ${bucket} AS start,
                  count() AS events,
                  uniqExact(stream) AS sessions,
                  sumIf(ifNull(value, 0), name = 'watchTimeSegment') AS watch,
                  countIf(name = 'playerStateChange') AS state_changes,
                  countIf(name = 'playerError') AS player_errors,
                  sumIf(ifNull(value, 0), name = 'latencyReport' AND isNotNull(value)) AS latency_sum,
                  countIf(name = 'latencyReport' AND isNotNull(value)) AS latency_n
           FROM ${this.table('events')} FINAL ${where}
           GROUP BY start`,
        ),
        this.rows<{ start: string; n: string }>(
          `SELECT intDiv(received_at_ms, ${bucket}) * ${bucket} AS start, count() AS n
           FROM ${this.table('errors')} FINAL ${where} GROUP BY start`,
        ),
      ]);
      const byStart = new Map<number, TimeseriesBucket>();
      const at = (startMs: number): TimeseriesBucket => {
        let b = byStart.get(startMs);
        if (!b) byStart.set(startMs, (b = { startMs, events: 0, sessions: 0, watchTimeSec: 0, stateChanges: 0, errors: 0 }));
        return b;
      };
      for (const row of events) {
        const b = at(num(row.start));
        b.events = num(row.events);
        b.sessions = num(row.sessions);
        b.watchTimeSec = num(row.watch);
        b.stateChanges = num(row.state_changes);
        b.errors += num(row.player_errors);
        if (num(row.latency_n) > 0) b.latencyMeanMs = num(row.latency_sum) / num(row.latency_n);
      }
      for (const row of errors) at(num(row.start)).errors += num(row.n);
      return [...byStart.values()].sort((a, b) => a.startMs - b.startMs);
    });
  }

  deleteReceivedBefore(cutoffMs: number): Promise<number> {
    return this.track(async () => {
      if (typeof cutoffMs !== 'number' || Number.isNaN(cutoffMs)) throw new StoreQueryError('cutoffMs must be a number');
      const cutoff = sqlInt(Math.min(Math.max(Math.ceil(cutoffMs), 0), MAX_RECEIVED_AT_MS + 1), 'cutoffMs');
      const [counted] = await this.rows<{ n: string }>(`SELECT count() AS n FROM ${this.table('events')} FINAL WHERE received_at_ms < ${cutoff}`);
      for (const name of DATA_TABLES) {
        // Every stored version (not FINAL): a mutation is only started where there is something to delete.
        const [any] = await this.rows<{ n: string }>(`SELECT count() AS n FROM ${this.table(name)} WHERE received_at_ms < ${cutoff}`);
        if (num(any?.n ?? 0) === 0) continue;
        await this.client.command({ query: `ALTER TABLE ${this.table(name)} DELETE WHERE received_at_ms < ${cutoff}` });
        await this.waitForMutations(name);
      }
      return num(counted?.n ?? 0);
    });
  }

  /** 18.16 has no `mutations_sync`: polls `system.mutations` until the table's mutations are done. */
  private async waitForMutations(name: string): Promise<void> {
    const deadline = Date.now() + this.mutationTimeoutMs;
    for (;;) {
      const [row] = await this.rows<{ n: string }>(
        `SELECT count() AS n FROM system.mutations WHERE database = ${quoteString(this.db)} AND table = ${quoteString(name)} AND is_done = 0`,
      );
      if (num(row?.n ?? 0) === 0) return;
      if (Date.now() > deadline) throw new Error(`ClickHouse store: the delete on ${this.db}.${name} did not finish within ${this.mutationTimeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  ping(): Promise<void> {
    return this.track(async () => {
      const [row] = await this.rows<{ ok: number | string }>('SELECT 1 AS ok');
      if (num(row?.ok) !== 1) throw new Error('ClickHouse store: unexpected answer to SELECT 1');
    });
  }

  clear(): Promise<void> {
    return this.track(async () => {
      for (const name of DATA_TABLES) await this.client.command({ query: `TRUNCATE TABLE ${this.table(name)}` });
    });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled([...this.inflight]);
      await this.client.close();
    })();
    return this.closing;
  }
}

function toStoredEvent(row: EventRow): StoredEvent {
  return {
    stream: row.stream,
    dedupeKey: row.dedupe_key,
    ...(row.client_event_id !== null ? { clientEventId: row.client_event_id } : {}),
    name: row.name,
    endpoint: row.endpoint,
    ...(row.event_time_ms !== null ? { eventTimeMs: num(row.event_time_ms) } : {}),
    receivedAtMs: num(row.received_at_ms),
    requestId: row.request_id,
    ...(row.value !== null ? { value: num(row.value) } : {}),
    event: JSON.parse(row.json) as Record<string, unknown>,
    ...attribution(row),
  };
}

/** A row's `account_id` / `channel_id` as the lists show them: absent when NULL. */
function attribution(row: { account_id: string | null; channel_id: string | null }): ViewerAttribution {
  return {
    ...(row.account_id !== null && row.account_id !== undefined ? { accountId: row.account_id } : {}),
    ...(row.channel_id !== null && row.channel_id !== undefined ? { channelId: row.channel_id } : {}),
  };
}

function toStoredRequest(row: RequestRow): StoredRequest {
  const serialized = parseJson(row.serialized_client_event_id_json);
  const requestTime = parseJson(row.request_time_ms_json);
  const context = parseJson(row.context_json);
  return {
    requestId: row.request_id,
    stream: row.stream,
    endpoint: row.endpoint,
    receivedAtMs: num(row.received_at_ms),
    compressed: num(row.compressed) === 1,
    contentType: row.content_type,
    bodyBytes: num(row.body_bytes),
    decodedBytes: num(row.decoded_bytes),
    headers: JSON.parse(row.headers_json) as Record<string, string>,
    ...(serialized !== undefined ? { serializedClientEventId: serialized } : {}),
    ...(requestTime !== undefined ? { requestTimeMs: requestTime } : {}),
    ...(context !== undefined ? { context } : {}),
    eventCount: num(row.event_count),
    refused: num(row.refused),
    accepted: num(row.accepted),
    duplicates: num(row.duplicates),
    ...attribution(row),
  };
}

function toStoredError(row: ErrorRow): StoredErrorReport {
  const optional = (key: 'url' | 'file' | 'line' | 'stack' | 'type') => (row[key] !== null ? { [key]: row[key] as string } : {});
  return {
    id: row.id,
    receivedAtMs: num(row.received_at_ms),
    message: row.message,
    messageTruncated: num(row.message_truncated) === 1,
    ...optional('url'),
    ...optional('file'),
    ...optional('line'),
    ...optional('stack'),
    ...optional('type'),
    extra: JSON.parse(row.extra_json) as Record<string, string>,
  };
}

function toStoredPing(row: PingRow): StoredPing {
  return {
    id: row.id,
    kind: row.kind,
    docid: row.docid,
    ei: row.ei,
    cpn: row.cpn,
    seq: num(row.ping_seq),
    receivedAtMs: num(row.received_at_ms),
    cmt: num(row.cmt),
    rt: num(row.rt),
    ...(row.len !== null ? { len: num(row.len) } : {}),
    ...(row.state !== null ? { state: row.state } : {}),
    st: JSON.parse(row.st_json) as number[],
    et: JSON.parse(row.et_json) as number[],
    final: num(row.final) === 1,
  };
}
