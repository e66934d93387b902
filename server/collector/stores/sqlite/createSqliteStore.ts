import { migrate } from '../../../db/migrate';
import { openDatabase, type SqliteDatabase } from '../../../db/openDatabase';
import type { CollectorStore } from '../../store';
import { createGroupCommit } from './groupCommit';
import { collectorMigrations } from './migrations';
import { createSqliteReads } from './reads';
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
 * Error reports and pings are written by `reportWrites.ts`, the stats and the time series read by `rollups.ts`, and
 * retention deletes in chunks (`retention.ts`).
 */
export function createSqliteStore(file: string, { maxRequestsPerCommit = 500, retentionChunkRows = 5000 }: SqliteStoreOptions = {}): CollectorStore {
  const db: SqliteDatabase = openDatabase(file);
  migrate(db, 'collector', collectorMigrations);

  const totals = runningTotals(db);
  const commits = createGroupCommit(db, prepareWriteLogRequest(db, totals), maxRequestsPerCommit);
  const reports = prepareReportWrites(db, totals);
  const reads = createSqliteReads(db);
  const rollups = createSqliteRollups(db);

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
      return commits.enqueue(request, events);
    },
    recordError: whenOpen(reports.recordError),
    recordPing: whenOpen(reports.recordPing),
    listPings: whenOpen(reads.listPings),
    listEvents: whenOpen(reads.listEvents),
    listConflicts: whenOpen(reads.listConflicts),
    listRequests: whenOpen(reads.listRequests),
    listErrors: whenOpen(reads.listErrors),
    stats: whenOpen(rollups.stats),
    timeseries: whenOpen(rollups.timeseries),
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
      db.close();
    },
  };
}
