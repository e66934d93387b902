/**
 * The SQLite store's checkpoint worker (a `node:worker_threads` entry, started by `checkpoints.ts`): a connection of
 * its own to the store's WAL database file that copies the write-ahead log into the database every
 * `intervalMs`, with passive checkpoints (they never wait for a lock, nor hold the writer or a reader).
 *
 * What must stay true: the server's own connection checkpoints only as a backstop far above what this worker leaves
 * in the log, so the copying and its fsync run here, not in a commit on the server's event loop (a checkpoint held
 * back by a long read would otherwise copy all it could not copy before in the first commit after the read).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../../db/openDatabase';

export interface CheckpointWorkerData {
  file: string;
  intervalMs: number;
}

const port = parentPort;
if (!port) throw new Error('checkpointWorker runs as a worker thread, started by checkpoints.ts');

const { file, intervalMs } = workerData as CheckpointWorkerData;
const db = openDatabase(file);

const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy or failing checkpoint is retried at the next turn; the server's backstop bounds the log meanwhile.
  }
};
const timer = setInterval(checkpoint, intervalMs);

port.on('message', (message: { stop?: boolean }) => {
  if (!message.stop) return;
  clearInterval(timer);
  checkpoint();
  db.close();
  port.close();
});
port.postMessage({ ready: true });
