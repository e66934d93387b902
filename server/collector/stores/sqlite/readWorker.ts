/**
 * The SQLite store's read worker (a `node:worker_threads` entry, started by `readWorkers.ts`): a read-only connection
 * to the store's WAL database file that answers the admin and dashboard reads, one message at a time, with the very
 * queries of `reads.ts` and `rollups.ts`. A read here never runs on the server's event loop, so however long it takes
 * the writes and every other route keep their pace; WAL lets it read while the main connection commits.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../../db/openDatabase';
import { COLLECTOR_READ_WORKER_NICENESS } from '../../limits';
import { createSqliteReads } from './reads';
import type { ReadReply, ReadRequest, ReadWorkerData } from './readProtocol';
import { createSqliteRollups } from './rollups';

const port = parentPort;
if (!port) throw new Error('readWorker runs as a worker thread, started by readWorkers.ts');

/**
 * Lowers this thread's priority, and only this thread's (Linux keeps a niceness per thread, named by its id in
 * `/proc/thread-self`). Elsewhere, or when refused, the reads run at the server's priority.
 */
function yieldTheCoresToWriters(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, COLLECTOR_READ_WORKER_NICENESS);
  } catch {
    /* not Linux, or not allowed */
  }
}
yieldTheCoresToWriters();

const { file } = workerData as ReadWorkerData;
const db = openDatabase(file, { readonly: true });
const reads = { ...createSqliteReads(db), ...createSqliteRollups(db) };

port.on('message', ({ id, method, args }: ReadRequest) => {
  let reply: ReadReply;
  try {
    const read = reads[method] as (...a: unknown[]) => unknown;
    reply = { id, value: read(...args) };
  } catch (error) {
    reply = { id, error: { name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) } };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
