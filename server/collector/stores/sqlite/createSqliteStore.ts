import { migrate } from '../../../db/migrate';
import { openDatabase, type SqliteDatabase } from '../../../db/openDatabase';
import type { CollectorStore } from '../../store';
import { type Checkpoints, startCheckpoints } from './checkpoints';
import { createGroupCommit } from './groupCommit';
import { collectorMigrations } from './migrations';
import { COLLECTOR_READ_QUEUE_MAX, COLLECTOR_READ_TIMEOUT_MS, COLLECTOR_WAL_CHECKPOINT_INTERVAL_MS } from '../../limits';
import type { ReadMethod, StoreReads } from './readProtocol';
import { createSqliteReads } from './reads';
import { createReadWorkers } from './readWorkers';
import { prepareReportWrites } from './reportWrites';
import { deleteReceivedBefore } from './retention';
import { createSqliteRollups } from './rollups';
import { runningTotals } from './totals';
import { prepareWriteLogRequest } from './writeLogRequest';

export interface SqliteStoreOptions {
  /** Most requests committed in one transaction (group commit); the rest go in the next one. */
  maxRequestsPerCommit?: number;
  /** Rows deleted per transaction by the retention job, so a large deletion never stalls the server. */
  retentionChunkRows?: number;
  /** Longest one admin read may run in the read worker before it is stopped and the read refused (503). */
  readTimeoutMs?: number;
  /** How often the checkpoint worker copies the write-ahead log into the database file. */
  checkpointIntervalMs?: number;
}

/** The collector's tables, emptied by `clear()`. */
const TABLES = [
  'collector_events',
  'collector_conflicts',
  'collector_requests',
  'collector_errors',
  'collector_pings',
  'collector_totals',
  'collector_name_totals',
  'collector_minutes',
  'collector_minute_streams',
];

/**
 * The collector's embedded store: SQLite (`better-sqlite3`) in WAL mode, in the server's database file.
 *
 * - **Durable acknowledgement with group commit** (`groupCommit.ts`): `recordLogRequest` resolves only after the
 *   transaction that carries its request has committed (fsynced); a failed batch is retried one request at a time.
 * - **De-duplication is the unique key** (stream, dedupe_key): `INSERT … ON CONFLICT DO NOTHING`, counted per row
 *   (`writeLogRequest.ts`).
 * - **Nothing in memory grows with the store**: the totals are rows updated in the same transaction (`totals.ts`);
 *   reads are pages by `seq` cursor (`reads.ts`); start-up only checks the migration ladder (`migrations.ts`).
 *
 * - **Reads never run on the event loop** (`readWorkers.ts`): the lists and the dashboard's aggregations run in a worker
 *   thread on its own read-only connection (WAL: it reads while the writer commits), one at a time, each within a
 *   time bound; a read that takes long delays other reads, never a write or another route. An in-memory store
 *   (`:memory:`) is one connection that no worker can open, so its reads stay on the main connection.
 * - **Nor do the checkpoints** (`checkpoints.ts`): a worker of their own copies the log into the database file, so a
 *   commit on the event loop never carries the copy a long read held back.
 *
 * Error reports and pings are written by `reportWrites.ts`, the stats and the time series read by `rollups.ts`, and
 * retention deletes in chunks (`retention.ts`).
 */
export function createSqliteStore(
  file: string,
  {
    maxRequestsPerCommit = 500,
    retentionChunkRows = 5000,
    readTimeoutMs = COLLECTOR_READ_TIMEOUT_MS,
    checkpointIntervalMs = COLLECTOR_WAL_CHECKPOINT_INTERVAL_MS,
  }: SqliteStoreOptions = {},
): CollectorStore {
  const db: SqliteDatabase = openDatabase(file);
  migrate(db, 'collector', collectorMigrations);

  const totals = runningTotals(db);
  const commits = createGroupCommit(db, prepareWriteLogRequest(db, totals), maxRequestsPerCommit);
  const reports = prepareReportWrites(db, totals);
  const workers = file === ':memory:' ? undefined : createReadWorkers(file, { timeoutMs: readTimeoutMs, queueMax: COLLECTOR_READ_QUEUE_MAX });
  // Started with the first log request: a store that only reads, or takes a few reports, checkpoints as SQLite does.
  let checkpoints: Checkpoints | undefined;
  const checkpointOffTheLoop = () => {
    if (!checkpoints && file !== ':memory:') checkpoints = startCheckpoints(db, file, { intervalMs: checkpointIntervalMs });
  };
  const inProcess: StoreReads = { ...createSqliteReads(db), ...createSqliteRollups(db) };
  /** One read: in the worker when there is one, else on the main connection. */
  const read =
    <M extends ReadMethod>(method: M) =>
    (...args: Parameters<StoreReads[M]>): Promise<ReturnType<StoreReads[M]>> =>
      workers ? workers.run(method, ...args) : Promise.resolve((inProcess[method] as (...a: typeof args) => ReturnType<StoreReads[M]>)(...args));

  let closed = false;
  const assertOpen = () => {
    if (closed) throw new Error('The collector store is closed');
  };
  /** An operation of the open store: refused (a rejection) once the store is closed. */
  const whenOpen =
    <A extends unknown[], R>(operation: (...args: A) => R | PromiseLike<R>) =>
    async (...args: A): Promise<R> => {
      assertOpen();
      return operation(...args);
    };

  return {
    kind: 'sqlite',
    recordLogRequest(request, events) {
      if (closed) return Promise.reject(new Error('The collector store is closed'));
      checkpointOffTheLoop();
      return commits.enqueue(request, events);
    },
    recordError: whenOpen(reports.recordError),
    recordPing: whenOpen(reports.recordPing),
    listPings: whenOpen(read('listPings')),
    listEvents: whenOpen(read('listEvents')),
    listConflicts: whenOpen(read('listConflicts')),
    listRequests: whenOpen(read('listRequests')),
    listErrors: whenOpen(read('listErrors')),
    stats: whenOpen(read('stats')),
    timeseries: whenOpen(read('timeseries')),
    deleteReceivedBefore: whenOpen((cutoffMs: number) => deleteReceivedBefore(db, totals, cutoffMs, retentionChunkRows, () => closed)),
    ping: whenOpen(() => {
      db.prepare('SELECT 1').get();
    }),
    clear: whenOpen(() => {
      commits.flush();
      db.transaction(() => {
        for (const table of TABLES) db.prepare(`DELETE FROM ${table}`).run();
      }).immediate();
    }),
    async close() {
      if (closed) return;
      commits.flush(); // what was accepted for writing is committed before the connection goes
      closed = true;
      await workers?.close();
      await checkpoints?.close();
      db.close();
    },
  };
}
