import type { SqliteDatabase } from '../../../db/openDatabase';
import type { IncomingEvent, IncomingRequest, RecordOutcome } from '../../store';
import { type PendingWrite, resolveEach } from '../pendingWrite';
import type { WriteLogRequest } from './writeLogRequest';

export interface GroupCommit {
  /** Queues one request; resolves only after the transaction that carries it has committed. */
  enqueue(request: IncomingRequest, events: readonly IncomingEvent[]): Promise<RecordOutcome>;
  /** Commits what is pending now, synchronously (before a clear or a close). */
  flush(): void;
}

/**
 * Durable acknowledgement with group commit: all requests that arrive before the next turn of the event loop are
 * written in one transaction (`synchronous = FULL`: fsynced), at most `maxRequestsPerCommit` per transaction, and each
 * promise resolves only after that commit. When a batch fails (a full disk), each request is retried in a transaction
 * of its own, so one bad request never fails the others.
 */
export function createGroupCommit(db: SqliteDatabase, writeOne: WriteLogRequest, maxRequestsPerCommit: number): GroupCommit {
  const pending: PendingWrite[] = [];
  let flushScheduled = false;

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
        resolveEach(batch, outcomes);
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

  return {
    enqueue: (request, events) =>
      new Promise<RecordOutcome>((resolve, reject) => {
        pending.push({ request, events, resolve, reject });
        if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(flush);
        }
      }),
    flush,
  };
}
