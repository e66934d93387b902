import { migrate } from '../../../db/migrate';
import { openDatabase, type SqliteDatabase } from '../../../db/openDatabase';
import {
  type CollectorStats,
  type CollectorStore,
  type EventQuery,
  type IncomingErrorReport,
  type IncomingEvent,
  type IncomingPing,
  type IncomingRequest,
  type Page,
  type PingQuery,
  type PageQuery,
  type RecordOutcome,
  type RequestQuery,
  type StoredErrorReport,
  type StoredEvent,
  type StoredPing,
  type StoredRequest,
  StoreQueryError,
  type TimeseriesBucket,
  type TimeseriesQuery,
} from '../../store';
import { collectorMigrations } from './migrations';

export interface SqliteStoreOptions {
  /** Most requests committed in one transaction (group commit); the rest go in the next one. */
  maxRequestsPerCommit?: number;
  /** Rows deleted per transaction by the retention job, so a large deletion never stalls the server. */
  retentionChunkRows?: number;
}

interface PendingWrite {
  request: IncomingRequest;
  events: readonly IncomingEvent[];
  resolve(outcome: RecordOutcome): void;
  reject(error: unknown): void;
}

type EventRow = {
  seq: number;
  stream: string;
  dedupe_key: string;
  client_event_id: string | null;
  name: string;
  endpoint: 'log_event' | 'video_stats';
  event_time_ms: number | null;
  received_at_ms: number;
  request_id: string;
  value: number | null;
  json: string;
} & AttributionColumns;
/** Who sent a request (and its events): NULL for anonymous viewers and for rows stored before migration 2. */
/** A row as better-sqlite3 returns it: its columns are read one by one, with their types, in each page's mapper. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the driver's rows are untyped; `unknown` would need a cast per column
type SqlRow = Record<string, any>;

type AttributionColumns = { account_id: string | null; channel_id: string | null };

const cursorOf = (seq: number) => String(seq);
/** A cursor is the `seq` of the last item of the previous page. */
function seqAfter(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  if (!/^\d{1,15}$/.test(cursor)) throw new StoreQueryError(`Unknown cursor "${cursor.slice(0, 40)}": pass the nextCursor of a previous page`);
  return Number(cursor);
}
/** `%` and `_` are literal in a searched text. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** A row's `account_id` / `channel_id` as the lists show them: absent when NULL. */
const attribution = (r: AttributionColumns) => ({
  ...(r.account_id !== null ? { accountId: r.account_id } : {}),
  ...(r.channel_id !== null ? { channelId: r.channel_id } : {}),
});
const parseJson = (text: string | null): unknown => {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * The collector's embedded store: SQLite (`better-sqlite3`) in WAL mode, in the server's database file.
 *
 * - **Durable acknowledgement with group commit.** `recordLogRequest` queues the request; all requests that arrive
 *   before the next turn of the event loop are written in one transaction (`synchronous = FULL`: fsynced), and each
 *   promise resolves only after that commit. When a batch fails (a full disk), each request is retried in a
 *   transaction of its own, so one bad request never fails the others.
 * - **De-duplication is the unique key** (stream, dedupe_key): `INSERT … ON CONFLICT DO NOTHING`, counted per row.
 * - **Nothing in memory grows with the store**: the totals are rows updated in the same transaction; reads are
 *   pages by `seq` cursor; start-up only checks the migration ladder.
 */
export function createSqliteStore(file: string, { maxRequestsPerCommit = 500, retentionChunkRows = 5000 }: SqliteStoreOptions = {}): CollectorStore {
  const db: SqliteDatabase = openDatabase(file);
  migrate(db, 'collector', collectorMigrations);

  const insertEvent = db.prepare(
    `INSERT INTO collector_events (stream, dedupe_key, client_event_id, name, endpoint, event_time_ms, received_at_ms, request_id, value, json,
       account_id, channel_id)
     VALUES (@stream, @dedupeKey, @clientEventId, @name, @endpoint, @eventTimeMs, @receivedAtMs, @requestId, @value, @json,
       @accountId, @channelId)
     ON CONFLICT (stream, dedupe_key) DO NOTHING`,
  );
  const insertRequest = db.prepare(
    `INSERT INTO collector_requests (request_id, stream, endpoint, received_at_ms, compressed, content_type, body_bytes, decoded_bytes,
       headers_json, serialized_client_event_id_json, page_id, request_time_ms_json, context_json, event_count, refused, accepted, duplicates,
       account_id, channel_id)
     VALUES (@requestId, @stream, @endpoint, @receivedAtMs, @compressed, @contentType, @bodyBytes, @decodedBytes,
       @headersJson, @serializedJson, @pageId, @requestTimeJson, @contextJson, @eventCount, @refused, @accepted, @duplicates,
       @accountId, @channelId)`,
  );
  const insertError = db.prepare(
    `INSERT INTO collector_errors (received_at_ms, message, message_truncated, url, file, line, stack, type, extra_json)
     VALUES (@receivedAtMs, @message, @messageTruncated, @url, @file, @line, @stack, @type, @extraJson)`,
  );
  const insertPing = db.prepare(
    `INSERT INTO collector_pings (kind, docid, ei, cpn, ping_seq, received_at_ms, cmt, rt, len, state, st_json, et_json, final)
     VALUES (@kind, @docid, @ei, @cpn, @seq, @receivedAtMs, @cmt, @rt, @len, @state, @stJson, @etJson, @final)
     ON CONFLICT (ei, cpn, kind, ping_seq) DO NOTHING`,
  );
  const bumpTotal = db.prepare('INSERT INTO collector_totals (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value');
  const bumpName = db.prepare('INSERT INTO collector_name_totals (name, count) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET count = count + excluded.count');
  const bump = (key: string, by: number) => {
    if (by !== 0) bumpTotal.run(key, by);
  };

  /** Writes one request and its events; runs inside a transaction. */
  const writeOne = ({ request, events }: Pick<PendingWrite, 'request' | 'events'>): RecordOutcome => {
    let accepted = 0;
    let duplicates = 0;
    const byName = new Map<string, number>();
    // Who sent it, on the request and on each event it stores first (a resend keeps the first arrival's).
    const viewer = { accountId: request.viewer?.accountId ?? null, channelId: request.viewer?.channelId ?? null };
    for (const e of events) {
      const { changes } = insertEvent.run({
        stream: e.stream,
        dedupeKey: e.dedupeKey,
        clientEventId: e.clientEventId ?? null,
        name: e.name,
        endpoint: e.endpoint,
        eventTimeMs: e.eventTimeMs === undefined ? null : Math.trunc(e.eventTimeMs),
        receivedAtMs: request.receivedAtMs,
        requestId: request.requestId,
        value: e.value ?? null,
        json: e.json,
        ...viewer,
      });
      if (changes > 0) {
        accepted += 1;
        byName.set(e.name, (byName.get(e.name) ?? 0) + 1);
      } else {
        duplicates += 1;
      }
    }
    const serialized = request.serializedClientEventId as { serializedEventId?: unknown } | undefined;
    insertRequest.run({
      requestId: request.requestId,
      stream: request.stream,
      endpoint: request.endpoint,
      receivedAtMs: request.receivedAtMs,
      compressed: request.compressed ? 1 : 0,
      contentType: request.contentType,
      bodyBytes: request.bodyBytes,
      decodedBytes: request.decodedBytes,
      headersJson: JSON.stringify(request.headers),
      serializedJson: request.serializedClientEventId === undefined ? null : JSON.stringify(request.serializedClientEventId),
      pageId: serialized && typeof serialized === 'object' && typeof serialized.serializedEventId === 'string' ? serialized.serializedEventId : null,
      requestTimeJson: request.requestTimeMs === undefined ? null : JSON.stringify(request.requestTimeMs),
      contextJson: request.contextJson ?? null,
      eventCount: request.eventCount,
      refused: request.refused,
      accepted,
      duplicates,
      ...viewer,
    });
    bump('requests', 1);
    bump('compressedRequests', request.compressed ? 1 : 0);
    bump('events', accepted);
    bump(`endpoint:${request.endpoint}`, accepted);
    bump('duplicatesDropped', duplicates);
    bump('refusedEvents', request.refused);
    for (const [name, count] of byName) bumpName.run(name, count);
    return { accepted, duplicates };
  };

  const pending: PendingWrite[] = [];
  let flushScheduled = false;
  let closed = false;

  /** Commits what is pending, `maxRequestsPerCommit` at a time. */
  const flush = () => {
    flushScheduled = false;
    while (pending.length > 0) {
      const batch = pending.splice(0, maxRequestsPerCommit);
      let outcomes: RecordOutcome[] | undefined;
      try {
        outcomes = db.transaction(() => batch.map(writeOne)).immediate();
      } catch {
        outcomes = undefined; // rolled back whole: each request gets a transaction of its own below
      }
      if (outcomes) {
        batch.forEach((w, i) => w.resolve(outcomes![i]));
        continue;
      }
      for (const w of batch) {
        try {
          w.resolve(db.transaction(() => writeOne(w)).immediate());
        } catch (error) {
          w.reject(error);
        }
      }
    }
  };

  const rowToEvent = (r: EventRow): StoredEvent => ({
    stream: r.stream,
    dedupeKey: r.dedupe_key,
    ...(r.client_event_id !== null ? { clientEventId: r.client_event_id } : {}),
    name: r.name,
    endpoint: r.endpoint,
    ...(r.event_time_ms !== null ? { eventTimeMs: r.event_time_ms } : {}),
    receivedAtMs: r.received_at_ms,
    requestId: r.request_id,
    ...(r.value !== null ? { value: r.value } : {}),
    event: parseJson(r.json) as Record<string, unknown>,
    ...attribution(r),
  });

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
    return { items: items.map(map), ...(rows.length > limit ? { nextCursor: cursorOf(items[items.length - 1].seq) } : {}) };
  };

  const assertOpen = () => {
    if (closed) throw new Error('The collector store is closed');
  };

  return {
    kind: 'sqlite',

    recordLogRequest(request, events) {
      if (closed) return Promise.reject(new Error('The collector store is closed'));
      return new Promise<RecordOutcome>((resolve, reject) => {
        pending.push({ request, events, resolve, reject });
        if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(flush);
        }
      });
    },

    async recordError(report: IncomingErrorReport) {
      assertOpen();
      db.transaction(() => {
        insertError.run({
          receivedAtMs: report.receivedAtMs,
          message: report.message,
          messageTruncated: report.messageTruncated ? 1 : 0,
          url: report.url ?? null,
          file: report.file ?? null,
          line: report.line ?? null,
          stack: report.stack ?? null,
          type: report.type ?? null,
          extraJson: JSON.stringify(report.extra),
        });
        bump('errors', 1);
      }).immediate();
    },

    async recordPing(ping: IncomingPing) {
      assertOpen();
      const { changes } = db
        .transaction(() =>
          insertPing.run({
            kind: ping.kind,
            docid: ping.docid,
            ei: ping.ei,
            cpn: ping.cpn,
            seq: ping.seq,
            receivedAtMs: ping.receivedAtMs,
            cmt: ping.cmt,
            rt: ping.rt,
            len: ping.len ?? null,
            state: ping.state ?? null,
            stJson: JSON.stringify(ping.st),
            etJson: JSON.stringify(ping.et),
            final: ping.final ? 1 : 0,
          }),
        )
        .immediate();
      return { stored: changes > 0 };
    },

    async listPings(query: PingQuery) {
      assertOpen();
      const where: string[] = [];
      const params: unknown[] = [];
      if (query.docid !== undefined) {
        where.push('docid = ?');
        params.push(query.docid);
      }
      if (query.ei !== undefined) {
        where.push('ei = ?');
        params.push(query.ei);
      }
      if (query.cpn !== undefined) {
        where.push('cpn = ?');
        params.push(query.cpn);
      }
      if (query.kind !== undefined) {
        where.push('kind = ?');
        params.push(query.kind);
      }
      return page<SqlRow & { seq: number }, StoredPing>('collector_pings', where, params, query, (r) => ({
        id: String(r.seq),
        kind: r.kind,
        docid: r.docid,
        ei: r.ei,
        cpn: r.cpn,
        seq: r.ping_seq,
        receivedAtMs: r.received_at_ms,
        cmt: r.cmt,
        rt: r.rt,
        ...(r.len !== null ? { len: r.len } : {}),
        ...(r.state !== null ? { state: r.state } : {}),
        st: parseJson(r.st_json) as number[],
        et: parseJson(r.et_json) as number[],
        final: r.final === 1,
      }));
    },

    async listEvents(query: EventQuery) {
      assertOpen();
      const where: string[] = [];
      const params: unknown[] = [];
      if (query.name !== undefined) {
        where.push('name = ?');
        params.push(query.name);
      }
      if (query.endpoint !== undefined) {
        where.push('endpoint = ?');
        params.push(query.endpoint);
      }
      if (query.stream !== undefined) {
        where.push('stream = ?');
        params.push(query.stream);
      }
      if (query.accountId !== undefined) {
        where.push('account_id = ?');
        params.push(query.accountId);
      }
      if (query.clientEventIdPrefix !== undefined) {
        // A range on the indexed column: every id that starts with the prefix sorts between these two.
        where.push('client_event_id >= ? AND client_event_id < ?');
        params.push(query.clientEventIdPrefix, `${query.clientEventIdPrefix}\u{10FFFF}`);
      }
      if (query.text !== undefined && query.text !== '') {
        where.push("(name LIKE ? ESCAPE '\\' OR json LIKE ? ESCAPE '\\')");
        params.push(likePattern(query.text), likePattern(query.text));
      }
      return page<EventRow, StoredEvent>('collector_events', where, params, query, rowToEvent);
    },

    async listRequests(query: RequestQuery) {
      assertOpen();
      const where: string[] = [];
      const params: unknown[] = [];
      if (query.stream !== undefined) {
        where.push('stream = ?');
        params.push(query.stream);
      }
      if (query.pageId !== undefined) {
        where.push('page_id = ?');
        params.push(query.pageId);
      }
      if (query.accountId !== undefined) {
        where.push('account_id = ?');
        params.push(query.accountId);
      }
      return page<SqlRow & AttributionColumns & { seq: number }, StoredRequest>('collector_requests', where, params, query, (r) => ({
        requestId: r.request_id,
        stream: r.stream,
        endpoint: r.endpoint,
        receivedAtMs: r.received_at_ms,
        compressed: r.compressed === 1,
        contentType: r.content_type,
        bodyBytes: r.body_bytes,
        decodedBytes: r.decoded_bytes,
        headers: parseJson(r.headers_json) as Record<string, string>,
        ...(r.serialized_client_event_id_json !== null ? { serializedClientEventId: parseJson(r.serialized_client_event_id_json) } : {}),
        ...(r.request_time_ms_json !== null ? { requestTimeMs: parseJson(r.request_time_ms_json) } : {}),
        ...(r.context_json !== null ? { context: parseJson(r.context_json) } : {}),
        eventCount: r.event_count,
        refused: r.refused,
        accepted: r.accepted,
        duplicates: r.duplicates,
        ...attribution(r),
      }));
    },

    async listErrors(query: PageQuery) {
      assertOpen();
      return page<SqlRow & { seq: number }, StoredErrorReport>('collector_errors', [], [], query, (r) => ({
        id: String(r.seq),
        receivedAtMs: r.received_at_ms,
        message: r.message,
        messageTruncated: r.message_truncated === 1,
        ...(r.url !== null ? { url: r.url } : {}),
        ...(r.file !== null ? { file: r.file } : {}),
        ...(r.line !== null ? { line: r.line } : {}),
        ...(r.stack !== null ? { stack: r.stack } : {}),
        ...(r.type !== null ? { type: r.type } : {}),
        extra: parseJson(r.extra_json) as Record<string, string>,
      }));
    },

    async stats(): Promise<CollectorStats> {
      assertOpen();
      const totals = new Map((db.prepare('SELECT key, value FROM collector_totals').all() as { key: string; value: number }[]).map((r) => [r.key, r.value]));
      const t = (key: string) => totals.get(key) ?? 0;
      const byName: Record<string, number> = {};
      for (const { name, count } of db.prepare('SELECT name, count FROM collector_name_totals WHERE count > 0 ORDER BY name').all() as {
        name: string;
        count: number;
      }[]) {
        byName[name] = count;
      }
      return {
        requests: t('requests'),
        compressedRequests: t('compressedRequests'),
        events: t('events'),
        duplicatesDropped: t('duplicatesDropped'),
        refusedEvents: t('refusedEvents'),
        byEndpoint: { log_event: t('endpoint:log_event'), video_stats: t('endpoint:video_stats') },
        byName,
        errors: t('errors'),
      };
    },

    async timeseries({ sinceMs, untilMs, bucketMs }: TimeseriesQuery): Promise<TimeseriesBucket[]> {
      assertOpen();
      if (!Number.isInteger(bucketMs) || bucketMs < 1) throw new StoreQueryError('bucketMs must be a whole number of milliseconds ≥ 1');
      const events = db
        .prepare(
          `SELECT (received_at_ms / CAST(@bucket AS INTEGER)) * CAST(@bucket AS INTEGER) AS startMs, count(*) AS events, count(DISTINCT stream) AS sessions,
             total(CASE WHEN name = 'watchTimeSegment' THEN value END) AS watchTimeSec,
             sum(name = 'playerStateChange') AS stateChanges, sum(name = 'playerError') AS playerErrors,
             avg(CASE WHEN name = 'latencyReport' THEN value END) AS latencyMeanMs
           FROM collector_events WHERE received_at_ms >= @since AND received_at_ms < @until
           GROUP BY startMs ORDER BY startMs`,
        )
        .all({ bucket: bucketMs, since: Math.trunc(sinceMs), until: Math.trunc(untilMs) }) as (Omit<TimeseriesBucket, 'errors'> & {
        playerErrors: number;
        latencyMeanMs: number | null;
      })[];
      const errors = db
        .prepare(
          `SELECT (received_at_ms / CAST(@bucket AS INTEGER)) * CAST(@bucket AS INTEGER) AS startMs, count(*) AS n FROM collector_errors
           WHERE received_at_ms >= @since AND received_at_ms < @until GROUP BY startMs`,
        )
        .all({ bucket: bucketMs, since: Math.trunc(sinceMs), until: Math.trunc(untilMs) }) as { startMs: number; n: number }[];
      const buckets = new Map<number, TimeseriesBucket>();
      for (const { playerErrors, latencyMeanMs, ...b } of events) {
        buckets.set(b.startMs, { ...b, errors: playerErrors, ...(latencyMeanMs !== null ? { latencyMeanMs } : {}) });
      }
      for (const { startMs, n } of errors) {
        const b = buckets.get(startMs) ?? { startMs, events: 0, sessions: 0, watchTimeSec: 0, stateChanges: 0, errors: 0 };
        buckets.set(startMs, { ...b, errors: b.errors + n });
      }
      return [...buckets.values()].sort((a, b) => a.startMs - b.startMs);
    },

    async deleteReceivedBefore(cutoffMs: number) {
      assertOpen();
      const cutoff = Math.trunc(cutoffMs);
      const oldEvents = db.prepare('SELECT seq, name, endpoint FROM collector_events WHERE received_at_ms < ? ORDER BY received_at_ms LIMIT ?');
      const deleteEvent = db.prepare('DELETE FROM collector_events WHERE seq = ?');
      const oldRequests = db.prepare(
        'SELECT seq, compressed, duplicates, refused FROM collector_requests WHERE received_at_ms < ? ORDER BY received_at_ms LIMIT ?',
      );
      const deleteRequest = db.prepare('DELETE FROM collector_requests WHERE seq = ?');
      const oldErrors = db.prepare('SELECT seq FROM collector_errors WHERE received_at_ms < ? ORDER BY received_at_ms LIMIT ?');
      const deleteError = db.prepare('DELETE FROM collector_errors WHERE seq = ?');
      const oldPings = db.prepare('SELECT seq FROM collector_pings WHERE received_at_ms < ? ORDER BY received_at_ms LIMIT ?');
      const deletePing = db.prepare('DELETE FROM collector_pings WHERE seq = ?');

      // One chunk per transaction, the event loop free in between: a large deletion never stalls ingest.
      const chunk = db.transaction(() => {
        let deletedEvents = 0;
        let rows = 0;
        const byName = new Map<string, number>();
        for (const r of oldEvents.all(cutoff, retentionChunkRows) as { seq: number; name: string; endpoint: string }[]) {
          deleteEvent.run(r.seq);
          deletedEvents += 1;
          bump(`endpoint:${r.endpoint}`, -1);
          byName.set(r.name, (byName.get(r.name) ?? 0) - 1);
        }
        bump('events', -deletedEvents);
        for (const [name, delta] of byName) bumpName.run(name, delta);
        rows += deletedEvents;
        for (const r of oldRequests.all(cutoff, retentionChunkRows) as { seq: number; compressed: number; duplicates: number; refused: number }[]) {
          deleteRequest.run(r.seq);
          bump('requests', -1);
          bump('compressedRequests', -r.compressed);
          bump('duplicatesDropped', -r.duplicates);
          bump('refusedEvents', -r.refused);
          rows += 1;
        }
        for (const r of oldErrors.all(cutoff, retentionChunkRows) as { seq: number }[]) {
          deleteError.run(r.seq);
          bump('errors', -1);
          rows += 1;
        }
        for (const r of oldPings.all(cutoff, retentionChunkRows) as { seq: number }[]) {
          deletePing.run(r.seq);
          rows += 1;
        }
        return { deletedEvents, rows };
      });
      let total = 0;
      for (;;) {
        if (closed) break;
        const { deletedEvents, rows } = chunk.immediate();
        total += deletedEvents;
        if (rows === 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      return total;
    },

    async ping() {
      assertOpen();
      db.prepare('SELECT 1').get();
    },

    async clear() {
      assertOpen();
      flush();
      db.transaction(() => {
        for (const table of ['collector_events', 'collector_requests', 'collector_errors', 'collector_pings', 'collector_totals', 'collector_name_totals']) {
          db.prepare(`DELETE FROM ${table}`).run();
        }
      }).immediate();
    },

    async close() {
      if (closed) return;
      flush(); // what was accepted for writing is committed before the connection goes
      closed = true;
      db.close();
    },
  };
}
