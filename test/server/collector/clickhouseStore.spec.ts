import { createClient, ClickHouseLogLevel, type ClickHouseClient } from '@clickhouse/client';
import { createServer } from 'node:net';
import type { CollectorStore, IncomingEvent } from '../../../server/collector/store';
import { createClickHouseStore } from '../../../server/collector/stores/clickhouse/createClickHouseStore';
import { parseClickHouseUrl } from '../../../server/collector/stores/clickhouse/parseClickHouseUrl';
import { createMigrationsTable, MIGRATIONS } from '../../../server/collector/stores/clickhouse/schema';
import { identifier, quoteString } from '../../../server/collector/stores/clickhouse/sql';
import { startClickHouse, type ClickHouseServer } from '../../helpers/clickhouseServer';
import { clientPage, describeStoreConformance, keyOf, walk, type PreviousVersion, type Sent } from './storeConformance';
import { playerEvents } from '../../../streams/logging/playerEvents';

/**
 * The ClickHouse store against a real Debian clickhouse-server (18.16) that this file starts on loopback: the shared
 * conformance suite, then what is particular to ClickHouse — several collectors on one database, a resend that
 * lost the race to the sorting key, quoting, the URL and the migration ladder.
 */
jest.setTimeout(60_000);

let server: ClickHouseServer;
let admin: ClickHouseClient;
let databases = 0;
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

beforeAll(async () => {
  server = await startClickHouse();
  admin = createClient({ url: `http://127.0.0.1:${server.httpPort}`, log: { level: ClickHouseLogLevel.OFF } });
});
afterAll(async () => {
  await admin?.close();
  await server?.close();
});

const newDatabase = () => `vf_test_${process.pid}_${++databases}`;
const rows = async <T>(query: string): Promise<T[]> => (await admin.query({ query, format: 'JSONEachRow' })).json<T>();

/** A fresh database for each test; `cleanup` closes every store opened on it and drops it. */
async function openFresh(): Promise<{ store: CollectorStore; url: string; reopen: () => Promise<CollectorStore>; cleanup(): Promise<void> }> {
  const db = newDatabase();
  const url = `${server.url}/${db}`;
  const opened: CollectorStore[] = [];
  const open = async () => {
    const store = await createClickHouseStore(url);
    opened.push(store);
    return store;
  };
  return {
    store: await open(),
    url,
    reopen: open,
    async cleanup() {
      for (const store of opened) await store.close();
      await admin.command({ query: `DROP DATABASE IF EXISTS ${db}` });
    },
  };
}

/** The ladder before viewers were kept: a database at this version is what the last release left. */
const PREVIOUS_VERSION = 1;

/** A new database at version 1, as that version's code built it (its own statements, its own rows, no account columns). */
async function databaseAtVersion1(db: string): Promise<void> {
  await admin.command({ query: `CREATE DATABASE ${identifier(db)}` });
  await admin.command({ query: createMigrationsTable(db) });
  for (const migration of MIGRATIONS.slice(0, PREVIOUS_VERSION)) {
    expect(migration.addColumns).toBeUndefined();
    for (const statement of migration.statements(db)) await admin.command({ query: statement });
    await admin.insert({ table: `${db}.schema_migrations`, format: 'JSONEachRow', values: [{ version: migration.version, applied_at_ms: 0 }] });
  }
}

/** Writes `sent` as the store at version 1 wrote it: each event once, then the requests with what they accepted. */
async function writeAtVersion1(db: string, sent: readonly Sent[]): Promise<void> {
  const seen = new Set<string>();
  for (const { request, events } of sent) {
    const fresh: { e: Sent['events'][number]; seq: number }[] = [];
    events.forEach((e, seq) => {
      if (seen.has(keyOf(e))) return;
      seen.add(keyOf(e));
      fresh.push({ e, seq });
    });
    if (fresh.length > 0) {
      await admin.insert({
        table: `${db}.events`,
        format: 'JSONEachRow',
        values: fresh.map(({ e, seq }) => ({
          stream: e.stream,
          dedupe_key: e.dedupeKey,
          client_event_id: e.clientEventId ?? null,
          name: e.name,
          endpoint: e.endpoint,
          event_time_ms: e.eventTimeMs ?? null,
          received_at_ms: request.receivedAtMs,
          request_id: request.requestId,
          seq,
          value: e.value ?? null,
          json: e.json,
        })),
      });
    }
    const serialized = request.serializedClientEventId as { serializedEventId?: string } | undefined;
    await admin.insert({
      table: `${db}.requests`,
      format: 'JSONEachRow',
      values: [
        {
          request_id: request.requestId,
          stream: request.stream,
          endpoint: request.endpoint,
          received_at_ms: request.receivedAtMs,
          compressed: request.compressed ? 1 : 0,
          content_type: request.contentType,
          body_bytes: request.bodyBytes,
          decoded_bytes: request.decodedBytes,
          headers_json: JSON.stringify(request.headers),
          serialized_client_event_id_json: request.serializedClientEventId === undefined ? null : JSON.stringify(request.serializedClientEventId),
          page_id: serialized?.serializedEventId ?? '',
          request_time_ms_json: request.requestTimeMs === undefined ? null : JSON.stringify(request.requestTimeMs),
          context_json: request.contextJson ?? null,
          event_count: request.eventCount,
          refused: request.refused,
          accepted: fresh.length,
          duplicates: events.length - fresh.length,
        },
      ],
    });
  }
}

const previousVersion: PreviousVersion = {
  async create(sent) {
    const db = newDatabase();
    await databaseAtVersion1(db);
    await writeAtVersion1(db, sent);
    const opened: CollectorStore[] = [];
    return {
      async open() {
        const store = await createClickHouseStore(`${server.url}/${db}`);
        opened.push(store);
        return store;
      },
      async cleanup() {
        for (const store of opened) await store.close();
        await admin.command({ query: `DROP DATABASE IF EXISTS ${db}` });
      },
    };
  },
};

describeStoreConformance('ClickHouse', openFresh, { previousVersion });

describe('ClickHouse store: several collectors, one database', () => {
  let fresh: Awaited<ReturnType<typeof openFresh>>;
  beforeEach(async () => {
    fresh = await openFresh();
  });
  afterEach(() => fresh.cleanup());

  it('two collectors writing overlapping batches at once lose and duplicate nothing', async () => {
    const [a, b] = [fresh.store, await fresh.reopen()];
    const streams = 6;
    const perStream = 32;
    const sends: Promise<{ accepted: number; duplicates: number }>[] = [];
    const expected: string[] = [];
    let arrivals = 0;
    for (let s = 0; s < streams; s++) {
      const page = clientPage(`pgMulti${s}`, `st-multi-${s}`);
      const wire = Array.from({ length: perStream }, (_, i) =>
        page.event(
          i % 4 === 0
            ? playerEvents.watchTimeSegment({ videoId: 'v', startSec: i, endSec: i + 2, playbackRate: 1, muted: false, volume: 100 })
            : playerEvents.stateChange({ videoId: 'v', previousState: 1, state: 2, mediaTimeSec: i }),
        ),
      );
      expected.push(...wire.map((e) => `st-multi-${s}/${e.clientEventId}`));
      // Batches of 10 starting every 5 events, each sent through both collectors: every event arrives 2–4 times.
      for (let start = 0; start < perStream; start += 5) {
        const batch = wire.slice(start, start + 10);
        arrivals += 2 * batch.length;
        sends.push(a.recordLogRequest(...args(page.request(T0 + start, batch))));
        sends.push(b.recordLogRequest(...args(page.request(T0 + start, batch))));
      }
    }
    const outcomes = await Promise.all(sends);
    const total = streams * perStream;

    // Every event was accepted by at least one collector (two racing ones may both count it: best effort).
    const accepted = outcomes.reduce((n, o) => n + o.accepted, 0);
    expect(accepted).toBeGreaterThanOrEqual(total);
    expect(arrivals).toBeGreaterThan(3 * total);

    // Read through a third collector: each event exactly once.
    const reader = await fresh.reopen();
    const { items } = await walk((cursor) => reader.listEvents({ limit: 37, cursor }));
    expect(items).toHaveLength(total);
    expect(items.map(keyOf).sort()).toEqual([...expected].sort());
    const stats = await reader.stats();
    expect(stats.events).toBe(total);
    expect(stats.byName).toEqual({ watchTimeSegment: total / 4, playerStateChange: (total * 3) / 4 });
    const buckets = await reader.timeseries({ sinceMs: T0, untilMs: T0 + 60_000, bucketMs: 60_000 });
    expect(buckets).toEqual([{ startMs: T0, events: total, sessions: streams, watchTimeSec: (total / 4) * 2, stateChanges: (total * 3) / 4, errors: 0 }]);
    for (let s = 0; s < streams; s++) expect((await reader.listEvents({ limit: 100, stream: `st-multi-${s}` })).items).toHaveLength(perStream);
  });

  it('a resend that lost the race is a second row until merged, and reads still show the first arrival once', async () => {
    const db = new URL(fresh.url).pathname.slice(1);
    const page = clientPage('pgRace', 'st-race');
    const first = page.request(T0 + 1_000, [page.event(playerEvents.stateChange({ videoId: 'v', previousState: -1, state: 1, mediaTimeSec: 0 }))]);
    await fresh.store.recordLogRequest(...args(first));
    // Merges stopped, another collector's insert of the same event, later: two rows for one key.
    await admin.command({ query: `SYSTEM STOP MERGES ${db}.events` });
    const e = first.events[0];
    await admin.insert({
      table: `${db}.events`,
      format: 'JSONEachRow',
      values: [
        {
          stream: e.stream,
          dedupe_key: e.dedupeKey,
          client_event_id: e.clientEventId,
          name: e.name,
          endpoint: e.endpoint,
          event_time_ms: e.eventTimeMs,
          received_at_ms: T0 + 9_000,
          request_id: 'req-late',
          seq: 0,
          value: null,
          json: e.json,
        },
      ],
    });
    const [raw] = await rows<{ n: string }>(`SELECT count() AS n FROM ${db}.events`);
    expect(Number(raw.n)).toBe(2);

    const expectOnceAsFirst = async () => {
      expect((await fresh.store.listEvents({ limit: 10 })).items.map((x) => [x.requestId, x.receivedAtMs])).toEqual([[first.request.requestId, T0 + 1_000]]);
      // The filter applies after FINAL: the late row does not surface through a time filter or a cursor.
      expect((await fresh.store.listEvents({ limit: 10, sinceMs: T0 + 5_000 })).items).toEqual([]);
      expect((await walk((cursor) => fresh.store.listEvents({ limit: 1, cursor }))).items).toHaveLength(1);
      expect((await fresh.store.stats()).events).toBe(1);
      expect(await fresh.store.timeseries({ sinceMs: T0, untilMs: T0 + 10_000, bucketMs: 10_000 })).toMatchObject([{ events: 1, sessions: 1 }]);
    };
    await expectOnceAsFirst();

    await admin.command({ query: `SYSTEM START MERGES ${db}.events` });
    await admin.command({ query: `OPTIMIZE TABLE ${db}.events FINAL` });
    const [merged] = await rows<{ n: string }>(`SELECT count() AS n FROM ${db}.events`);
    expect(Number(merged.n)).toBe(1);
    await expectOnceAsFirst();
  });

  it('a batch that cannot be written is retried request by request: the good requests of it are stored in full', async () => {
    const page = clientPage('pgRetry', 'st-retry');
    const state = (mediaTimeSec: number) => page.event(playerEvents.stateChange({ videoId: 'v', previousState: 1, state: 2, mediaTimeSec }));
    const good = page.request(T0 + 1, [state(1), state(2)]);
    const bad = page.request(T0 + 2, [state(3)]);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic; // cannot be serialised: the batch holding it fails before anything is written
    const results = await Promise.allSettled([
      fresh.store.recordLogRequest(...args(good)),
      fresh.store.recordLogRequest({ ...bad.request, serializedClientEventId: cyclic }, bad.events),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect((results[0] as PromiseFulfilledResult<{ accepted: number; duplicates: number }>).value).toEqual({ accepted: 2, duplicates: 0, conflicts: 0 });
    expect((await fresh.store.stats()).events).toBe(2);
  });

  it('climbs its migration ladder once, from any number of collectors, and refuses a newer schema', async () => {
    const db = new URL(fresh.url).pathname.slice(1);
    const versions = async (name: string) =>
      (await rows<{ version: number }>(`SELECT version FROM ${name}.schema_migrations FINAL ORDER BY version`)).map((r) => Number(r.version));
    expect(await versions(db)).toEqual([1, 2, 3, 4]);
    await fresh.reopen();
    expect(await versions(db)).toEqual([1, 2, 3, 4]);
    const tables = (await rows<{ name: string }>(`SELECT name FROM system.tables WHERE database = ${quoteString(db)} ORDER BY name`)).map((r) => r.name);
    expect(tables).toEqual(['conflicts', 'errors', 'events', 'pings', 'requests', 'schema_migrations']);

    // Two collectors starting together on a new database.
    const other = newDatabase();
    const both = await Promise.all([createClickHouseStore(`${server.url}/${other}`), createClickHouseStore(`${server.url}/${other}`)]);
    try {
      expect(await versions(other)).toEqual([1, 2, 3, 4]);
      await both[0].recordLogRequest(
        ...args(clientPage('pgMig', 'st-mig').request(T0, [{ eventTimeMs: T0, clientEventId: 'pgMig:1', playerLoad: { videoId: 'v', autoplay: false } }])),
      );
      expect((await both[1].stats()).events).toBe(1);
    } finally {
      for (const s of both) await s.close();
    }

    await admin.insert({ table: `${other}.schema_migrations`, format: 'JSONEachRow', values: [{ version: 999, applied_at_ms: 0 }] });
    await expect(createClickHouseStore(`${server.url}/${other}`)).rejects.toThrow(/schema version 999, newer than this VidFrame knows \(4\)/);
    await admin.command({ query: `DROP DATABASE ${other}` });
  });
});

describe('ClickHouse store: the account columns (migration 2)', () => {
  const columnsOf = async (db: string) =>
    (
      await rows<{ table: string; name: string; type: string }>(
        `SELECT table, name, type FROM system.columns WHERE database = ${quoteString(db)} AND table IN ('events', 'requests') AND name IN ('account_id', 'channel_id')
         ORDER BY table, name`,
      )
    ).map((c) => `${c.table}.${c.name} ${c.type}`);
  const expected = [
    'events.account_id Nullable(String)',
    'events.channel_id Nullable(String)',
    'requests.account_id Nullable(String)',
    'requests.channel_id Nullable(String)',
  ];

  it('adds them to a version 1 database in place, once, from collectors climbing together', async () => {
    const db = newDatabase();
    await databaseAtVersion1(db);
    const page = clientPage('pgCols', 'st-cols');
    const old = page.request(T0, [page.event(playerEvents.load({ videoId: 'v', autoplay: false }))]);
    await writeAtVersion1(db, [old]);
    expect(await columnsOf(db)).toEqual([]);
    // Several collectors start on the old database at once: all find the columns missing, one adds each, the others
    // are refused ("already exists"), see it listed and go on.
    const stores = await Promise.all(Array.from({ length: 4 }, () => createClickHouseStore(`${server.url}/${db}`)));
    try {
      expect(await columnsOf(db)).toEqual(expected);
      const [row] = await rows<{ n: string }>(`SELECT count() AS n FROM ${db}.schema_migrations FINAL WHERE version = 2`);
      expect(Number(row.n)).toBe(1);
      for (const store of stores)
        expect((await store.listEvents({ limit: 10 })).items.map((e) => [e.dedupeKey, 'accountId' in e])).toEqual([[old.events[0].dedupeKey, false]]);
      const [raw] = await rows<{ account_id: string | null }>(`SELECT account_id FROM ${db}.events`);
      expect(raw.account_id).toBeNull();
      // A row stored before payload hashes were kept compares by its JSON: the same JSON is a resend, another a conflict.
      const [store] = stores;
      const resend = page.request(T0 + 1, [JSON.parse(old.events[0].json) as Record<string, unknown>]);
      await expect(store.recordLogRequest(...args(resend))).resolves.toEqual({ accepted: 0, duplicates: 1, conflicts: 0 });
      const other = { ...resend, request: { ...resend.request, requestId: 'req-other-payload' }, events: [{ ...resend.events[0], json: '{"x":1}' }] };
      await expect(store.recordLogRequest(...args(other))).resolves.toEqual({ accepted: 0, duplicates: 0, conflicts: 1 });
      expect((await store.listConflicts({ limit: 10 })).items.map((e) => e.event)).toEqual([{ x: 1 }]);
    } finally {
      for (const store of stores) await store.close();
      await admin.command({ query: `DROP DATABASE IF EXISTS ${db}` });
    }
  });

  it('creates them on a new database with the rest', async () => {
    const fresh = await openFresh();
    try {
      expect(await columnsOf(new URL(fresh.url).pathname.slice(1))).toEqual(expected);
    } finally {
      await fresh.cleanup();
    }
  });
});

describe('ClickHouse store: quoting', () => {
  const hostile = ["it's", 'back\\slash', "'); DROP TABLE x; --", "\\'", "'\\", 'nul\u0000nl\ncr\rtab\t', '\u2028😀é', '{x:String}', '?', '\\x41\\n'];

  it('quoteString escapes backslash and quote, and nothing else', () => {
    expect(quoteString("a'b\\c")).toBe("'a\\'b\\\\c'");
    expect(quoteString("'); DROP TABLE x; --")).toBe("'\\'); DROP TABLE x; --'");
    expect(quoteString('')).toBe("''");
    expect(quoteString('lone \ud800 surrogate')).toBe("'lone \ufffd surrogate'");
    expect(() => quoteString(42 as unknown as string)).toThrow(TypeError);
  });

  it('identifier takes plain names only', () => {
    expect(identifier('vf_test_1')).toBe('vf_test_1');
    expect(identifier('_x')).toBe('_x');
    for (const bad of ['', '1db', 'a-b', 'db; DROP TABLE x', 'db.events', '`db`', 'é', 'a b']) expect(() => identifier(bad)).toThrow(/not a plain identifier/);
  });

  it('every hostile string comes back from the real server as it was sent', async () => {
    for (const text of hostile) {
      const [row] = await rows<{ s: string }>(`SELECT ${quoteString(text)} AS s`);
      expect(row.s).toBe(text);
    }
  });

  it('stores hostile names, streams and keys verbatim, finds them by filter, and runs nothing', async () => {
    const fresh = await openFresh();
    try {
      await admin.command({ query: 'CREATE TABLE IF NOT EXISTS default.x (n UInt8) ENGINE = Memory' });
      const name = "it's \\ '); DROP TABLE x; --";
      const events: IncomingEvent[] = hostile.map((text, i) => ({
        stream: `st-${text}`,
        dedupeKey: `key-${text}`,
        clientEventId: `pg${text}:${i + 1}`,
        name,
        endpoint: 'log_event',
        eventTimeMs: T0,
        json: JSON.stringify({ eventTimeMs: T0, clientEventId: `pg${text}:${i + 1}`, [name]: { text } }),
      }));
      const request: Sent['request'] = { ...clientPage('pgQ', `st-${hostile[2]}`).request(T0, []).request, eventCount: events.length };
      // Each hostile page named by a request of its own stream, so that the `pageId` filter finds its events.
      for (const text of hostile) await fresh.store.recordLogRequest(clientPage(`pg${text}`, `st-${text}`).request(T0 - 1, []).request, []);
      await expect(fresh.store.recordLogRequest(request, events)).resolves.toEqual({ accepted: hostile.length, duplicates: 0, conflicts: 0 });
      await expect(fresh.store.recordLogRequest({ ...request, requestId: 'req-again', receivedAtMs: T0 + 1 }, events)).resolves.toEqual({
        accepted: 0,
        duplicates: hostile.length,
        conflicts: 0,
      });

      const listed = (await fresh.store.listEvents({ limit: 100, name })).items;
      expect(listed.map((e) => [e.stream, e.dedupeKey, e.clientEventId, e.name])).toEqual(events.map((e) => [e.stream, e.dedupeKey, e.clientEventId, e.name]));
      for (const [i, text] of hostile.entries()) {
        const byStream = (await fresh.store.listEvents({ limit: 10, stream: `st-${text}` })).items;
        expect(byStream.map((e) => e.event)).toEqual([{ eventTimeMs: T0, clientEventId: `pg${text}:${i + 1}`, [name]: { text } }]);
        expect((await fresh.store.listEvents({ limit: 10, pageId: `pg${text}` })).items.map((e) => e.dedupeKey)).toEqual([`key-${text}`]);
      }
      expect((await fresh.store.listRequests({ limit: 10, stream: `st-${hostile[2]}` })).items).toHaveLength(3);
      expect((await fresh.store.stats()).byName).toEqual({ [name]: hostile.length });
      const [canary] = await rows<{ n: string }>("SELECT count() AS n FROM system.tables WHERE database = 'default' AND name = 'x'");
      expect(Number(canary.n)).toBe(1);
    } finally {
      await admin.command({ query: 'DROP TABLE IF EXISTS default.x' });
      await fresh.cleanup();
    }
  });

  it('keeps a lone UTF-16 surrogate exactly inside JSON, and stores one in a plain field (which JSONEachRow refuses) as U+FFFD', async () => {
    const fresh = await openFresh();
    try {
      const page = clientPage('pgSur', 'st-surrogate');
      const sent = page.request(T0, [
        page.event(playerEvents.error({ internalError: 'x', hostErrorCode: 5, message: 'half \ud83d of an emoji' })),
        page.event(playerEvents.load({ videoId: 'v', autoplay: true })),
      ]);
      sent.events[1] = { ...sent.events[1], clientEventId: 'pgSur:\udc00', dedupeKey: 'pgSur:\udc00' };
      await expect(fresh.store.recordLogRequest(...args(sent))).resolves.toEqual({ accepted: 2, duplicates: 0, conflicts: 0 });
      const [error, load] = (await fresh.store.listEvents({ limit: 10 })).items;
      expect(error.event).toEqual({ ...JSON.parse(sent.events[0].json), playerError: expect.objectContaining({ message: 'half \ud83d of an emoji' }) });
      expect(load.clientEventId).toBe('pgSur:\ufffd');
      await fresh.store.recordError({ receivedAtMs: T0, message: 'lone \ud800', messageTruncated: false, extra: { ['k\udfff']: 'v' } });
      // The message is a plain column (U+FFFD); `extra` is kept as JSON, where the surrogate stays escaped and exact.
      expect((await fresh.store.listErrors({ limit: 1 })).items[0]).toMatchObject({ message: 'lone \ufffd', extra: { 'k\udfff': 'v' } });
    } finally {
      await fresh.cleanup();
    }
  });
});

describe('ClickHouse store: its URL', () => {
  it('reads host, port, database and credentials, with defaults', () => {
    expect(parseClickHouseUrl('clickhouse://ch.internal')).toEqual({ httpUrl: 'http://ch.internal:8123', database: 'vidframe' });
    expect(parseClickHouseUrl('clickhouse://127.0.0.1:18123/vf_1')).toEqual({ httpUrl: 'http://127.0.0.1:18123', database: 'vf_1' });
    expect(parseClickHouseUrl('http://h:8124/events_db/')).toEqual({ httpUrl: 'http://h:8124', database: 'events_db' });
    expect(parseClickHouseUrl('clickhouse+https://ingest:p%40ss@ch.example/prod')).toEqual({
      httpUrl: 'https://ch.example:8443',
      database: 'prod',
      username: 'ingest',
      password: 'p@ss',
    });
    expect(parseClickHouseUrl('clickhouse://[::1]:8123/db').httpUrl).toBe('http://[::1]:8123');
  });

  it.each([
    ['mysql://h/db', /unknown scheme mysql:/],
    ['not a url', /not a URL/],
    ['', /empty/],
    ['clickhouse://h:8123/bad-name', /database name "bad-name" is not a plain identifier/],
    ['clickhouse://h:8123/db;DROP', /is not a plain identifier/],
    ['clickhouse://h:8123/a/b', /the path must be one database name/],
    ['clickhouse://h:8123/db?async_insert=1', /no query string/],
    ['clickhouse://h:0/db', /bad port 0/],
    ['clickhouse://h:8123/%E0%A4', /malformed %-escape in the database name/],
  ])('refuses %j with a clear error', async (url, reason) => {
    await expect(createClickHouseStore(url)).rejects.toThrow(reason);
    await expect(createClickHouseStore(url)).rejects.toThrow(/expected clickhouse:\/\/\[user\[:password\]@\]host\[:port\]\/database/);
  });

  it('never repeats a password in its errors', async () => {
    const error = (await createClickHouseStore('clickhouse://user:hunter2@h:8123/a/b').catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/user:\*\*\*@h/);
    expect(error.message).not.toContain('hunter2');
  });

  it('says which server it could not reach', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const started = Date.now();
    await expect(createClickHouseStore(`clickhouse://127.0.0.1:${port}/vf`)).rejects.toThrow(
      new RegExp(`ClickHouse store at http://127\\.0\\.0\\.1:${port}/vf could not be opened: .*ECONNREFUSED`),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

/** `recordLogRequest`'s arguments from a sent request. */
const args = (sent: Sent): [Sent['request'], Sent['events']] => [sent.request, sent.events];
