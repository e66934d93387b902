import type { CreateRateLimitOptions, FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { createHash } from 'node:crypto';
import type { StateDatabase } from '../db/openStateDatabase';
import { RATE_LIMIT_KEY_MAX_CHARS } from './limits';

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

/**
 * `@fastify/rate-limit`'s store on the state database, so that servers sharing it count each client once: a fixed
 * window per bucket and key, as the plugin's own in-memory store counts. One statement per counted request (an
 * insert that, on conflict, adds one or starts a new window), so concurrent requests through several servers are
 * counted exactly. Only the plain fixed window is offered: a limit asking for `continueExceeding` or
 * `exponentialBackoff` is refused when it is made, not miscounted later.
 */
export function sharedRateLimitStore(state: StateDatabase, now: () => number): FastifyRateLimitStoreCtor {
  const increment = async (bucketKey: string, windowMs: number): Promise<{ current: number; ttl: number }> => {
    const t = now();
    const row = await state.db
      .insertInto('rate_limit_counts')
      .values({ bucket_key: bucketKey, hits: 1, expires_at_ms: t + windowMs })
      .onConflict((conflict) =>
        conflict.column('bucket_key').doUpdateSet((eb) => {
          const ended = eb('rate_limit_counts.expires_at_ms', '<=', t);
          return {
            hits: eb
              .case()
              .when(ended)
              .then(1)
              .else(eb('rate_limit_counts.hits', '+', 1))
              .end(),
            expires_at_ms: eb
              .case()
              .when(ended)
              .then(t + windowMs)
              .else(eb.ref('rate_limit_counts.expires_at_ms'))
              .end(),
          };
        }),
      )
      .returning(['hits', 'expires_at_ms'])
      .executeTakeFirstOrThrow();
    return { current: Number(row.hits), ttl: Math.max(0, Number(row.expires_at_ms) - t) };
  };

  return class SharedRateLimitStore implements FastifyRateLimitStore {
    private readonly bucket: string;
    constructor(options: StoreOptions, root = true) {
      if (options.continueExceeding || options.exponentialBackoff)
        throw new Error('The shared rate-limit store counts fixed windows only: no continueExceeding or exponentialBackoff');
      this.bucket = bucketOf(options, root);
    }
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
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
