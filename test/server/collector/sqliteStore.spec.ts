import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../../server/db/migrate';
import { openDatabase } from '../../../server/db/openDatabase';
import { createSqliteStore } from '../../../server/collector/stores/sqlite/createSqliteStore';
import { collectorMigrations } from '../../../server/collector/stores/sqlite/migrations';
import type { IncomingEvent, IncomingRequest } from '../../../server/collector/store';
import { describeStoreConformance } from './storeConformance';

describeStoreConformance('SQLite store', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
  const file = join(dir, 'vidframe.sqlite');
  return {
    store: createSqliteStore(file),
    reopen: async () => createSqliteStore(file),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

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
    expect(db.prepare("SELECT domain, version FROM schema_migrations WHERE domain = 'collector'").all()).toEqual([{ domain: 'collector', version: 1 }]);
    db.close();
    return store.close();
  });

  it('refuses a database whose tables are newer than the code', () => {
    const db = openDatabase(join(dir, 'db.sqlite'));
    migrate(db, 'collector', collectorMigrations);
    db.prepare("INSERT INTO schema_migrations (domain, version, description, applied_at_ms) VALUES ('collector', 99, 'future', 0)").run();
    expect(() => migrate(db, 'collector', collectorMigrations)).toThrow('The collector tables are at version 99, newer than this server knows (1): upgrade the server.');
    db.close();
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
    await expect(pending).resolves.toEqual({ accepted: 1, duplicates: 0 });
    await expect(store.recordLogRequest({} as never, [])).rejects.toThrow('The collector store is closed');
    const again = createSqliteStore(join(dir, 'db.sqlite'));
    expect((await again.stats()).events).toBe(1);
    await again.close();
  });
});
