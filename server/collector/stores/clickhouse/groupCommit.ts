import type { IncomingEvent, IncomingRequest, RecordOutcome } from '../../store';
import { type PendingWrite, resolveEach } from '../pendingWrite';

/** Most log requests written by one insert. */
const MAX_REQUESTS_PER_INSERT = 500;
/**
 * Batches written at once, so that ClickHouse stays busy while one batch waits for its parts to be written.
 * De-duplication does not depend on their order (the engine's key and FINAL decide); only the best-effort `duplicates`
 * figure may miss a race between two of them, as it may between two collectors.
 */
const MAX_INSERTS_IN_FLIGHT = 2;

export interface GroupCommit {
  /** Queues one request; resolves once the insert that carries it is acknowledged. */
  enqueue(request: IncomingRequest, events: readonly IncomingEvent[]): Promise<RecordOutcome>;
}

/**
 * Group commit: the requests that arrive in one turn of the event loop go in batches of at most
 * {@link MAX_REQUESTS_PER_INSERT}, at most {@link MAX_INSERTS_IN_FLIGHT} at once (later ones wait), so many small
 * requests make few parts — what `async_insert` does server-side in a current ClickHouse. Each request is answered
 * only once its batch is acknowledged; when a batch fails, its requests are tried one by one, so one bad request never
 * fails the others.
 */
export function createGroupCommit(writeBatch: (batch: readonly PendingWrite[]) => Promise<RecordOutcome[]>): GroupCommit {
  const pending: PendingWrite[] = [];
  let insertsInFlight = 0;
  let pumpScheduled = false;

  /** Cuts the next batch on the next turn of the event loop, so that requests arriving together go together. */
  const pump = (): void => {
    if (pumpScheduled || pending.length === 0) return;
    pumpScheduled = true;
    setImmediate(() => {
      pumpScheduled = false;
      dispatch();
    });
  };

  const dispatch = (): void => {
    while (pending.length > 0 && insertsInFlight < MAX_INSERTS_IN_FLIGHT) {
      const batch = pending.splice(0, MAX_REQUESTS_PER_INSERT);
      insertsInFlight += 1;
      void commit(batch).finally(() => {
        insertsInFlight -= 1;
        pump();
      });
    }
  };

  /** Writes one batch and answers its requests; when it fails, its requests are tried one by one. */
  const commit = async (batch: PendingWrite[]): Promise<void> => {
    try {
      const outcomes = await writeBatch(batch);
      resolveEach(batch, outcomes);
    } catch (error) {
      const [only] = batch;
      if (only && batch.length === 1) {
        only.reject(error);
        return;
      }
      for (const write of batch) {
        try {
          resolveEach([write], await writeBatch([write]));
        } catch (single) {
          write.reject(single);
        }
      }
    }
  };

  return {
    enqueue: (request, events) =>
      new Promise<RecordOutcome>((resolve, reject) => {
        pending.push({ request, events, resolve, reject });
        pump();
      }),
  };
}
