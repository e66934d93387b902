import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { Database } from '../storage/Database';
import { RETRY_QUEUE_DEFAULT_RESENDS, RETRY_QUEUE_EXPIRY_MS, RETRY_QUEUE_POTENTIAL_ERROR_LIMIT, RETRY_QUEUE_STALE_QUEUED_MS } from '../timing';
import type { LogsDatabaseSchema } from './logsDatabase';
import type { LogRequest, QueuedLogRequest } from './QueuedLogRequest';

export interface RetryQueueOptions {
  /** The client interface of this page; only its requests are picked up (see {@link QueuedLogRequest}). */
  interfaceNumber: number;
  /** A request refused outright is sent at most 1 + this many times from the queue. */
  maxResends?: number;
  /** A request failing with potential errors (network, 5xx) is sent at most this many times from the queue. */
  potentialErrorLimit?: number;
  /** A request untouched this long is deleted instead of sent. */
  expiryMs?: number;
  /** A request left QUEUED this long (its tab died mid-send) may be picked up again. */
  staleQueuedMs?: number;
  /** The clock used when a method is called without `now`; the drain passes its scheduler's time explicitly. */
  clock?: Pick<SchedulerLike, 'now'>;
}

/** What became of a request after a failed send. */
export type FailedSendOutcome = 'requeued' | 'dropped';

/** The retry queue over the logs database: every state change of spec §4 as one atomic transaction. */
export interface RetryQueue {
  /** Stores a failed request as NEW with sendCount 0 (the log sink's `store(request)`). Resolves with the record. */
  enqueue(request: LogRequest, options?: { skipRetry?: boolean; now?: number }): Promise<QueuedLogRequest>;
  /**
   * Picks the oldest request of this interface that may be sent — NEW, or QUEUED for `staleQueuedMs` — and marks
   * it QUEUED with `timestamp = now`, in **one readwrite transaction**: of two tabs (or two consumers) racing for
   * the same request, exactly one gets it. Expired requests met on the way are deleted. Resolves `undefined` when
   * nothing is due.
   */
  claimNext(now?: number): Promise<QueuedLogRequest | undefined>;
  /** Deletes a request after a successful send. */
  markSent(request: QueuedLogRequest): Promise<void>;
  /**
   * After a failed send: back to NEW with sendCount + 1, or deleted when its sends are used up — at once when
   * `skipRetry` is set; when sendCount + 1 exceeds `maxResends` for a definite failure; when it reaches
   * `potentialErrorLimit` for a potential one. Resolves `'dropped'` too when the request is already gone.
   */
  markFailed(request: QueuedLogRequest, failure: { potential: boolean }): Promise<FailedSendOutcome>;
  /** Puts a picked-up request back to NEW without counting a send (the send never started). */
  release(request: QueuedLogRequest): Promise<void>;
  /** Deletes every request of any interface untouched for `expiryMs`. Resolves with how many. */
  removeExpired(now?: number): Promise<number>;
  /** Every stored request of any interface, in id order. */
  list(): Promise<QueuedLogRequest[]>;
}

const STORE = 'LogsRequestsStore';

/**
 * The retry queue of spec §3/§4/§9 over a logs database (IndexedDB or its in-memory fallback). This is the
 * Promise edge; `retryQueueDrain` is the stream that drives it.
 */
export function createRetryQueue(
  db: Database<LogsDatabaseSchema>,
  {
    interfaceNumber,
    maxResends = RETRY_QUEUE_DEFAULT_RESENDS,
    potentialErrorLimit = RETRY_QUEUE_POTENTIAL_ERROR_LIMIT,
    expiryMs = RETRY_QUEUE_EXPIRY_MS,
    staleQueuedMs = RETRY_QUEUE_STALE_QUEUED_MS,
    clock = asyncScheduler,
  }: RetryQueueOptions,
): RetryQueue {
  const expired = (request: QueuedLogRequest, now: number) => now - request.timestamp >= expiryMs;

  return {
    async enqueue(request, { skipRetry, now = clock.now() } = {}) {
      if (!isLogRequest(request)) throw new TypeError('A queued log request needs a string url and POST options with string headers and body.');
      const record: Omit<QueuedLogRequest, 'id'> = {
        url: request.url,
        options: { method: 'POST', headers: { ...request.options.headers }, body: request.options.body },
        timestamp: now,
        status: 'NEW',
        sendCount: 0,
        interfaceNumber,
        ...(skipRetry ? { skipRetry: true } : {}),
      };
      const id = await db.transact(STORE, 'readwrite', (tx) => tx.add(STORE, record as QueuedLogRequest));
      return { ...record, id };
    },

    claimNext(now = clock.now()) {
      return db.transact(STORE, 'readwrite', async (tx) => {
        // Only the oldest NEW request is read, never all of them: a drain of n stored requests would otherwise read
        // O(n²) records (`npm run bench -- retry`). QUEUED ones are the few in flight.
        const stale = (await tx.getAllFromIndex(STORE, 'byInterfaceAndStatus', [interfaceNumber, 'QUEUED']))
          .filter((request) => now - request.timestamp >= staleQueuedMs)
          .sort((a, b) => a.id - b.id);
        for (let nextStale = 0; ;) {
          const [fresh] = await tx.getAllFromIndex(STORE, 'byInterfaceAndStatus', [interfaceNumber, 'NEW'], 1);
          const queued = stale[nextStale];
          // The oldest candidate (NEW, or QUEUED and stale) by id, as before.
          const request = fresh === undefined || (queued !== undefined && queued.id < fresh.id) ? queued : fresh;
          if (request === undefined) return undefined;
          if (request === queued) nextStale++;
          if (expired(request, now)) {
            await tx.delete(STORE, request.id); // the next NEW read starts after it
            continue;
          }
          const picked: QueuedLogRequest = { ...request, status: 'QUEUED', timestamp: now };
          await tx.put(STORE, picked);
          return picked;
        }
      });
    },

    markSent(request) {
      return db.transact(STORE, 'readwrite', (tx) => tx.delete(STORE, request.id));
    },

    markFailed(request, { potential }) {
      return db.transact(STORE, 'readwrite', async (tx): Promise<FailedSendOutcome> => {
        const current = await tx.get(STORE, request.id);
        if (current === undefined) return 'dropped';
        const sendCount = current.sendCount + 1;
        // A potential error never gets fewer sends than a definite one.
        const usedUp = current.skipRetry === true || (potential ? sendCount >= Math.max(potentialErrorLimit, maxResends + 1) : sendCount > maxResends);
        if (usedUp) {
          await tx.delete(STORE, current.id);
          return 'dropped';
        }
        await tx.put(STORE, { ...current, status: 'NEW', sendCount });
        return 'requeued';
      });
    },

    release(request) {
      return db.transact(STORE, 'readwrite', async (tx) => {
        const current = await tx.get(STORE, request.id);
        // Only our own pick-up is undone: another tab may have picked the request up since.
        if (current?.status === 'QUEUED' && current.timestamp === request.timestamp) await tx.put(STORE, { ...current, status: 'NEW' });
      });
    },

    removeExpired(now = clock.now()) {
      return db.transact(STORE, 'readwrite', async (tx) => {
        const old = (await tx.getAll(STORE)).filter((request) => expired(request, now));
        for (const request of old) await tx.delete(STORE, request.id);
        return old.length;
      });
    },

    list() {
      return db.transact(STORE, 'readonly', (tx) => tx.getAll(STORE));
    },
  };
}

/** True for the `{ url, options: { method: 'POST', headers, body } }` shape the log sink hands over. */
function isLogRequest(request: unknown): request is LogRequest {
  if (typeof request !== 'object' || request === null) return false;
  const { url, options } = request as Partial<LogRequest>;
  return (
    typeof url === 'string' &&
    typeof options === 'object' &&
    options !== null &&
    options.method === 'POST' &&
    typeof options.body === 'string' &&
    typeof options.headers === 'object' &&
    options.headers !== null &&
    Object.values(options.headers).every((value) => typeof value === 'string')
  );
}
