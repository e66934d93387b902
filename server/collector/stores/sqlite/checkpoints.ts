import { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from '../../../db/openDatabase';
import { COLLECTOR_WAL_BACKSTOP_PAGES, COLLECTOR_WAL_CHECKPOINT_INTERVAL_MS, SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES } from '../../limits';
import type { CheckpointWorkerData } from './checkpointWorker';
import { workerEntry } from './workerEntry';

/** The store's checkpoints, run by a worker thread of their own. */
export interface Checkpoints {
  /** Stops the worker after a last checkpoint, its connection closed; resolves once it has exited. */
  close(): Promise<void>;
}

/**
 * Moves the checkpoints of the store's database file off the server's event loop (`checkpointWorker.ts`): the
 * server's connection `db` checkpoints by itself only past {@link COLLECTOR_WAL_BACKSTOP_PAGES} (should the worker fall
 * behind or die, the log stays bounded), and the worker checkpoints every `intervalMs`. The worker's connection closes
 * before the server's, so the server's close stays the last one, which checkpoints the rest and removes the log.
 */
export function startCheckpoints(
  db: SqliteDatabase,
  file: string,
  { intervalMs = COLLECTOR_WAL_CHECKPOINT_INTERVAL_MS }: { intervalMs?: number } = {},
): Checkpoints {
  db.pragma(`wal_autocheckpoint = ${COLLECTOR_WAL_BACKSTOP_PAGES}`);
  const entry = workerEntry('checkpointWorker');
  const data: CheckpointWorkerData = { file, intervalMs };
  const thread = new Worker(entry.entry, { workerData: data, eval: entry.eval });
  let stopping = false;
  // Waits for 'exit' alone: a worker that fails emits 'error' first, and that must neither reject the close nor go
  // unhandled (the server would stop on it).
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  // A worker that fails or exits unasked leaves the checkpoints to the server's connection, at SQLite's default.
  const fallBack = () => {
    if (!stopping && db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
  };
  thread.on('error', fallBack);
  thread.on('exit', fallBack);
  thread.unref();
  return {
    async close() {
      stopping = true;
      thread.postMessage({ stop: true });
      await exited;
    },
  };
}
