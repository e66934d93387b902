import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../../server/db/migrate';
import { openDatabase } from '../../../server/db/openDatabase';
import { createSqliteStore } from '../../../server/collector/stores/sqlite/createSqliteStore';
import { collectorMigrations } from '../../../server/collector/stores/sqlite/migrations';
import type { IncomingEvent, IncomingRequest } from '../../../server/collector/store';
import type { SqliteDatabase } from '../../../server/db/openDatabase';
import { describeStoreConformance, type PreviousVersion, type Sent } from './storeConformance';

/** The ladder before viewers were kept: a database at this version is what the last release left. */
const PREVIOUS_VERSION = 1;

/**
 * Writes `sent` as the store at version 1 wrote it (its own columns, no account or channel): events first, each once
 * per (stream, dedupe_key), then the request with what it accepted, then the running totals.
 */
function writeAtVersion1(db: SqliteDatabase, { request, events }: Sent): void {
  db.transaction(() => {
    const insertEvent = db.prepare(
      `INSERT INTO collector_events (stream, dedupe_key, client_event_id, name, endpoint, event_time_ms, received_at_ms, request_id, value, json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (stream, dedupe_key) DO NOTHING`,
    );
    const bump = db.prepare('INSERT INTO collector_totals (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value');
    const bumpName = db.prepare('INSERT INTO collector_name_totals (name, count) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET count = count + 1');
    let accepted = 0;
    for (const e of events) {
      const { changes } = insertEvent.run(
        e.stream,
        e.dedupeKey,
        e.clientEventId ?? null,
        e.name,
        e.endpoint,
        e.eventTimeMs ?? null,
        request.receivedAtMs,
        request.requestId,
        e.value ?? null,
        e.json,
      );
      if (changes === 0) continue;
      accepted += 1;
      bumpName.run(e.name);
    }
    const serialized = request.serializedClientEventId as { serializedEventId?: string } | undefined;
    db.prepare(
      `INSERT INTO collector_requests (request_id, stream, endpoint, received_at_ms, compressed, content_type, body_bytes, decoded_bytes, headers_json,
         serialized_client_event_id_json, page_id, request_time_ms_json, context_json, event_count, refused, accepted, duplicates)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      request.requestId,
      request.stream,
      request.endpoint,
      request.receivedAtMs,
      request.compressed ? 1 : 0,
      request.contentType,
      request.bodyBytes,
      request.decodedBytes,
      JSON.stringify(request.headers),
      request.serializedClientEventId === undefined ? null : JSON.stringify(request.serializedClientEventId),
      serialized?.serializedEventId ?? null,
      request.requestTimeMs === undefined ? null : JSON.stringify(request.requestTimeMs),
      request.contextJson ?? null,
      request.eventCount,
      request.refused,
      accepted,
      events.length - accepted,
    );
    for (const [key, value] of [
      ['requests', 1],
      ['compressedRequests', request.compressed ? 1 : 0],
      ['events', accepted],
      [`endpoint:${request.endpoint}`, accepted],
      ['duplicatesDropped', events.length - accepted],
      ['refusedEvents', request.refused],
    ] as const) {
      bump.run(key, value);
    }
  }).immediate();
}

const previousVersion: PreviousVersion = {
  async create(sent) {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-previous-'));
    const file = join(dir, 'vidframe.sqlite');
    const db = openDatabase(file);
    expect(migrate(db, 'collector', collectorMigrations.slice(0, PREVIOUS_VERSION))).toEqual([1]);
    for (const s of sent) writeAtVersion1(db, s);
    db.close();
    const opened: ReturnType<typeof createSqliteStore>[] = [];
    return {
      async open() {
        const store = createSqliteStore(file);
        opened.push(store);
        return store;
      },
      async cleanup() {
        for (const store of opened) await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

describeStoreConformance(
  'SQLite store',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
    const file = join(dir, 'vidframe.sqlite');
    // Closed before the files go: a store left open keeps workers that would find its directory gone.
    const opened = [createSqliteStore(file)];
    return {
      store: opened[0]!,
      reopen: async () => {
        opened.push(createSqliteStore(file));
        return opened.at(-1)!;
      },
      cleanup: async () => {
        for (const store of opened) await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  { previousVersion },
);

/** A minimal request and event of stream `s`, as the ingest route hands them over. */
const request = (requestId: string): IncomingRequest => ({
  requestId,
  stream: 's',
  endpoint: 'log_event',
  receivedAtMs: 1,
  compressed: false,
  contentType: 'application/json',
  bodyBytes: 1,
  decodedBytes: 1,
  headers: {},
  eventCount: 1,
  refused: 0,
});
const event = (id: string): IncomingEvent => ({ stream: 's', dedupeKey: id, clientEventId: id, name: 'x', endpoint: 'log_event', json: '{}' });

describe('SQLite store specifics', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sqlite-specific-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('opens in WAL mode and records its migration ladder', () => {
    const file = join(dir, 'db.sqlite');
    const store = createSqliteStore(file);
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare("SELECT domain, version FROM schema_migrations WHERE domain = 'collector' ORDER BY version").all()).toEqual([
      { domain: 'collector', version: 1 },
      { domain: 'collector', version: 2 },
      { domain: 'collector', version: 3 },
      { domain: 'collector', version: 4 },
      { domain: 'collector', version: 5 },
    ]);
    db.close();
    return store.close();
  });

  it('refuses a database whose tables are newer than the code', () => {
    const db = openDatabase(join(dir, 'db.sqlite'));
    migrate(db, 'collector', collectorMigrations);
    db.prepare("INSERT INTO schema_migrations (domain, version, description, applied_at_ms) VALUES ('collector', 99, 'future', 0)").run();
    expect(() => migrate(db, 'collector', collectorMigrations)).toThrow(
      'The collector tables are at version 99, newer than this server knows (5): upgrade the server.',
    );
    db.close();
  });

  it('climbs from version 1 to 2 in place: the account and channel columns, nullable, on requests and events, and their indexes', async () => {
    const file = join(dir, 'db.sqlite');
    const db = openDatabase(file);
    migrate(db, 'collector', collectorMigrations.slice(0, 1));
    writeAtVersion1(db, { request: request('old'), events: [event('p:1')] });
    // Steps 3 (the pings table) and 4 (payload hashes, conflicts) follow in the same climb.
    expect(migrate(db, 'collector', collectorMigrations)).toEqual([2, 3, 4, 5]);
    const columns = (table: string) =>
      db.prepare(`SELECT name, type, "notnull" AS not_null FROM pragma_table_info(?) WHERE name IN ('account_id', 'channel_id')`).all(table);
    for (const table of ['collector_requests', 'collector_events']) {
      expect(columns(table)).toEqual([
        { name: 'account_id', type: 'TEXT', not_null: 0 },
        { name: 'channel_id', type: 'TEXT', not_null: 0 },
      ]);
    }
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE '%account' ORDER BY name").all()).toEqual([
      { name: 'collector_events_account' },
      { name: 'collector_requests_account' },
    ]);
    // The filter reads the account's rows through its index, in seq order, not the whole table.
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT * FROM collector_events WHERE seq > ? AND account_id = ? ORDER BY seq LIMIT ?').all(0, 'a', 10) as {
      detail: string;
    }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/collector_events_account/);
    expect(db.prepare('SELECT account_id, channel_id FROM collector_events').all()).toEqual([{ account_id: null, channel_id: null }]);
    db.close();
    const store = createSqliteStore(file);
    expect((await store.listEvents({ limit: 10 })).items.map((e) => [e.dedupeKey, 'accountId' in e])).toEqual([['p:1', false]]);
    expect((await store.stats()).events).toBe(1);
    // A row stored before payload hashes were kept compares by its JSON: the same JSON is a resend, another a conflict.
    await expect(store.recordLogRequest(request('resend'), [event('p:1')])).resolves.toEqual({ accepted: 0, duplicates: 1, conflicts: 0 });
    await expect(store.recordLogRequest(request('other'), [{ ...event('p:1'), json: '{"x":1}' }])).resolves.toEqual({
      accepted: 0,
      duplicates: 0,
      conflicts: 1,
    });
    expect((await store.listConflicts({ limit: 10 })).items.map((e) => [e.dedupeKey, e.event])).toEqual([['p:1', { x: 1 }]]);
    await store.close();
  });

  it('refuses a ladder whose steps are not numbered 1, 2, 3…', () => {
    const db = openDatabase(':memory:');
    expect(() => migrate(db, 'x', [{ version: 2, description: 'skips one', up: () => undefined }])).toThrow('x migration ladder: step 1 is numbered 2');
    db.close();
  });

  it('commits concurrent requests in one transaction and resolves each only after it', async () => {
    const store = createSqliteStore(join(dir, 'db.sqlite'));
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => store.recordLogRequest(request(`r${i}`), [event(`p:${i}`), event(`p:${i % 10}`)])));
    // Every request is answered for what it holds: its own id is new unless an earlier one in the batch took it.
    expect(outcomes.reduce((n, o) => n + o.accepted, 0)).toBe(50);
    expect(outcomes.reduce((n, o) => n + o.duplicates, 0)).toBe(50);
    expect((await store.stats()).events).toBe(50);
    await store.close();
  });

  it('retries a failed batch request by request, so one failing request does not fail the others', async () => {
    const store = createSqliteStore(join(dir, 'db.sqlite'));
    // The same request id twice breaks the UNIQUE(request_id) constraint: only the second write can fail.
    const results = await Promise.allSettled([
      store.recordLogRequest(request('same'), [event('a')]),
      store.recordLogRequest(request('same'), [event('b')]),
      store.recordLogRequest(request('other'), [event('c')]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await store.stats()).events).toBe(2);
    await store.close();
  });

  it('finishes pending writes on close, and refuses writes after it', async () => {
    const store = createSqliteStore(join(dir, 'db.sqlite'));
    const pending = store.recordLogRequest(request('r'), [event('k')]);
    await store.close();
    await expect(pending).resolves.toEqual({ accepted: 1, duplicates: 0, conflicts: 0 });
    await expect(store.recordLogRequest({} as never, [])).rejects.toThrow('The collector store is closed');
    const again = createSqliteStore(join(dir, 'db.sqlite'));
    expect((await again.stats()).events).toBe(1);
    await again.close();
  });
});
