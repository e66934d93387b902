import type { CreateRateLimitOptions, FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { createHash } from 'node:crypto';
import type { StateDatabase } from '../db/openStateDatabase';
import { RATE_LIMIT_BATCH_MAX, RATE_LIMIT_KEY_MAX_CHARS, RATE_LIMIT_QUEUE_MAX } from './limits';

/** A limit made with `createRateLimit` names its bucket, so that every server counts it under the same name. */
export type NamedRateLimitOptions = CreateRateLimitOptions & { bucket: string };

/** What the plugin hands a store: the merged options, with the route's method and URL when a route's config asks. */
type StoreOptions = FastifyRateLimitOptions & {
  bucket?: string;
  routeInfo?: { method?: string | string[]; url?: string };
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
};

/**
 * The bucket a limit counts in: its own name, else its route's method and URL; the plugin's root store counts
 * nothing (the server turns limits on route by route).
 */
function bucketOf(options: StoreOptions, root: boolean): string {
  if (options.bucket) return options.bucket;
  const { method, url } = options.routeInfo ?? {};
  if (url) return `${[method].flat().join(',')} ${url}`;
  if (root) return 'root';
  throw new Error('A rate limit on the shared store needs a bucket name (NamedRateLimitOptions) or a route');
}

type Count = { current: number; ttl: number };
type Waiting = { windowMs: number; resolve(count: Count): void; reject(error: unknown): void };

/**
 * Counts on the state database, batched: one statement in flight per server; the counts that arrive meanwhile go in the
 * next statement, one row per key (a key counted n times in a batch adds n), keys in sorted order so that two servers'
 * statements lock shared rows in the same order and never deadlock. Each waiting request learns its own place in the
 * window, exactly as if it had been counted alone. At most {@link RATE_LIMIT_QUEUE_MAX} counts wait; beyond, a count
 * fails at once (the log routes answer it 503 with Retry-After).
 */
function batchedCounter(state: StateDatabase, now: () => number, queueMax: number): (bucketKey: string, windowMs: number) => Promise<Count> {
  const queue = new Map<string, Waiting[]>();
  let queued = 0;
  let inFlight = false;

  const upsert = (rows: { bucket_key: string; hits: number; expires_at_ms: number }[], t: number) =>
    state.db
      .insertInto('rate_limit_counts')
      .values(rows)
      .onConflict((conflict) =>
        conflict.column('bucket_key').doUpdateSet((eb) => {
          const ended = eb('rate_limit_counts.expires_at_ms', '<=', t);
          return {
            hits: eb
              .case()
              .when(ended)
              .then(eb.ref('excluded.hits'))
              .else(eb('rate_limit_counts.hits', '+', eb.ref('excluded.hits')))
              .end(),
            expires_at_ms: eb.case().when(ended).then(eb.ref('excluded.expires_at_ms')).else(eb.ref('rate_limit_counts.expires_at_ms')).end(),
          };
        }),
      )
      .returning(['bucket_key', 'hits', 'expires_at_ms'])
      .execute();

  const sendBatch = async (batch: Map<string, Waiting[]>) => {
    const t = now();
    const keys = [...batch.keys()].sort();
    try {
      const rows = await upsert(
        keys.map((key) => ({ bucket_key: key, hits: batch.get(key)!.length, expires_at_ms: t + batch.get(key)![0]!.windowMs })),
        t,
      );
      const byKey = new Map(rows.map((row) => [row.bucket_key, row]));
      for (const [key, waiting] of batch) {
        const row = byKey.get(key);
        if (!row) throw new Error(`The rate-limit count of ${key} did not come back`);
        const ttl = Math.max(0, Number(row.expires_at_ms) - t);
        waiting.forEach((w, i) => w.resolve({ current: Number(row.hits) - waiting.length + i + 1, ttl }));
      }
    } catch (error) {
      for (const waiting of batch.values()) for (const w of waiting) w.reject(error);
    }
  };

  const drain = async () => {
    inFlight = true;
    while (queue.size > 0) {
      const batch = new Map<string, Waiting[]>();
      for (const [key, waiting] of queue) {
        if (batch.size >= RATE_LIMIT_BATCH_MAX) break;
        batch.set(key, waiting);
        queue.delete(key);
        queued -= waiting.length;
      }
      await sendBatch(batch);
    }
    inFlight = false;
  };

  return (bucketKey, windowMs) =>
    new Promise<Count>((resolve, reject) => {
      // A database that has stopped answering must not let a flood of requests pile up in memory behind it.
      if (queued >= queueMax) {
        reject(new Error(`${queued} rate-limit counts are already waiting for the database`));
        return;
      }
      queued += 1;
      const waiting = queue.get(bucketKey) ?? [];
      waiting.push({ windowMs, resolve, reject });
      queue.set(bucketKey, waiting);
      if (!inFlight) void drain();
    });
}

/**
 * `@fastify/rate-limit`'s store on the state database, so that servers sharing it count each client once: a fixed
 * window per bucket and key, as the plugin's own in-memory store counts, every count an atomic add in the database
 * ({@link batchedCounter}), so concurrent requests through several servers are counted exactly. Only the plain fixed
 * window is offered: a limit asking for `continueExceeding` or `exponentialBackoff` is refused when it is made, not
 * miscounted later.
 */
export function sharedRateLimitStore(state: StateDatabase, now: () => number, queueMax = RATE_LIMIT_QUEUE_MAX): FastifyRateLimitStoreCtor {
  const increment = batchedCounter(state, now, queueMax);

  return class SharedRateLimitStore implements FastifyRateLimitStore {
    private readonly bucket: string;
    constructor(options: StoreOptions, root = true) {
      if (options.continueExceeding || options.exponentialBackoff)
        throw new Error('The shared rate-limit store counts fixed windows only: no continueExceeding or exponentialBackoff');
      this.bucket = bucketOf(options, root);
    }
    incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number): void {
      let bucketKey = `${this.bucket}|${key}`;
      if (bucketKey.length > RATE_LIMIT_KEY_MAX_CHARS) bucketKey = `${this.bucket.slice(0, 100)}|#${createHash('sha256').update(bucketKey).digest('hex')}`;
      increment(bucketKey, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    child(routeOptions: StoreOptions): FastifyRateLimitStore {
      return new SharedRateLimitStore(routeOptions, false);
    }
  };
}

/** Deletes the counters whose window ended before `at`; resolves with how many. */
export async function sweepRateLimits(state: StateDatabase, at: number): Promise<number> {
  const result = await state.db.deleteFrom('rate_limit_counts').where('expires_at_ms', '<=', at).executeTakeFirst();
  return Number(result.numDeletedRows);
}
