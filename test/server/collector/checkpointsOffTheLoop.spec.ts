import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_FILE_NAME, openDatabase } from '../../../server/db/openDatabase';
import type { CollectorStore, IncomingEvent, IncomingRequest } from '../../../server/collector/store';
import { createSqliteStore } from '../../../server/collector/stores/sqlite/createSqliteStore';
import { startCheckpoints } from '../../../server/collector/stores/sqlite/checkpoints';
import { SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES } from '../../../server/collector/limits';

const request = (n: number): [IncomingRequest, IncomingEvent[]] => [
  {
    requestId: `rq-${n}`,
    stream: 'st-1',
    endpoint: 'log_event',
    receivedAtMs: 1_700_000_000_000 + n,
    compressed: false,
    contentType: 'application/json',
    bodyBytes: 10,
    decodedBytes: 10,
    headers: {},
    eventCount: 1,
    refused: 0,
  },
  [{ stream: 'st-1', dedupeKey: `e-${n}`, clientEventId: `p:${n}`, name: 'playerReady', endpoint: 'log_event', json: `{"n":${n}}` }],
];

/** Events in the database file itself, without its write-ahead log: what checkpoints have copied there (none before the tables). */
function eventsInDatabaseFile(dir: string): number {
  const copy = join(dir, 'copy.sqlite');
  copyFileSync(join(dir, DATABASE_FILE_NAME), copy);
  const db = openDatabase(copy, { readonly: true });
  try {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'collector_events'").get() as { n: number };
    return tables.n === 0 ? 0 : (db.prepare('SELECT count(*) AS n FROM collector_events').get() as { n: number }).n;
  } finally {
    db.close();
    rmSync(copy, { force: true });
  }
}

const waitFor = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 25));
};

describe('checkpoints of the SQLite store, off the event loop', () => {
  let dir: string;
  let store: CollectorStore | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
  });
  afterEach(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies committed events into the database file from its worker, far below the size at which a commit would', async () => {
    store = createSqliteStore(join(dir, DATABASE_FILE_NAME), { checkpointIntervalMs: 20 });
    // A few pages of log: SQLite's own checkpoint, in a commit, would wait for a thousand.
    for (let n = 0; n < 30; n++) await store.recordLogRequest(...request(n));
    await waitFor(() => eventsInDatabaseFile(dir) === 30);
    expect(eventsInDatabaseFile(dir)).toBe(30);
  });

  it('stops its worker before the store closes, so the close checkpoints the rest and removes the log', async () => {
    store = createSqliteStore(join(dir, DATABASE_FILE_NAME), { checkpointIntervalMs: 60_000 });
    for (let n = 0; n < 5; n++) await store.recordLogRequest(...request(n));
    await store.close();
    store = undefined;
    expect(existsSync(join(dir, `${DATABASE_FILE_NAME}-wal`))).toBe(false);
    expect(eventsInDatabaseFile(dir)).toBe(5);
  });

  it('leaves the checkpoints to the server connection when its worker cannot open the file, and still closes', async () => {
    const db = openDatabase(join(dir, DATABASE_FILE_NAME));
    try {
      // A path under a file, not a directory: the worker's open fails as soon as it starts.
      const checkpoints = startCheckpoints(db, join('/dev/null', DATABASE_FILE_NAME), { intervalMs: 20 });
      await waitFor(() => db.pragma('wal_autocheckpoint', { simple: true }) === SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES);
      await expect(checkpoints.close()).resolves.toBeUndefined();
    } finally {
      db.close();
    }
  });
});
