import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { NamedRateLimitOptions } from '../../cluster/rateLimitStore';
import type { Metrics } from '../../health/createMetrics';
import { HttpError } from '../../http/errors';
import { COLLECTOR_STORE_RETRY_AFTER_SEC } from '../limits';
import type { StreamTokens } from '../../tokens/streamTokens';

/** The header a log request carries its stream token in (set by the client's transport). */
export const STREAM_TOKEN_HEADER = 'x-vidframe-stream-token';

/** The write rate limits of one log route, each a count of requests per `windowMs`. */
export interface LogRateLimits {
  /** Requests with a verified stream token, per stream. */
  perStreamMax: number;
  /** Requests with a verified stream token, per client address. */
  perAddressMax: number;
  /** Requests without a stream token that verifies, per client address. */
  unverifiedMax: number;
  windowMs: number;
}

type Verdict = ReturnType<StreamTokens['verify']>;
const verdicts = new WeakMap<FastifyRequest, Verdict>();

/**
 * The request's stream token verified, once per request (the rate limit and the handler read the same verdict).
 * Verifying is a bounded regular expression and one HMAC; any header value, an array or garbage included, gives a
 * verdict and never throws.
 */
export function streamVerdictOf(request: FastifyRequest, streamTokens: StreamTokens): Verdict {
  let verdict = verdicts.get(request);
  if (verdict === undefined) {
    verdict = streamTokens.verify(request.headers[STREAM_TOKEN_HEADER]);
    verdicts.set(request, verdict);
  }
  return verdict;
}

/**
 * The rate limit of one log route, run before the body is read. Unverified requests (no stream token, or one that
 * does not verify: they are all refused, 401) count per client address in their own bucket, so junk never uses up
 * the allowance of the real viewers behind the same address. Verified requests count per stream, so one stream cannot
 * use up its neighbours' allowance, and per client address too, since anyone can mint streams by loading embed pages.
 * The address is `request.ip`: the peer, or the address the trusted proxies name (`VIDFRAME_TRUST_PROXY`).
 * Beyond a bucket: 429 with `Retry-After`, which the client's retry queue waits out before resending.
 */
export function logRateLimitHook(
  scope: FastifyInstance,
  { route, limits, streamTokens, metrics }: { route: string; limits: LogRateLimits; streamTokens: StreamTokens; metrics: Metrics },
): onRequestAsyncHookHandler {
  // The address buckets keep the plugin's own key: the address, an IPv6 one taken by its /64 (one subscriber's). Each
  // bucket is named after its route, so that servers counting in one shared store count the same bucket together.
  const bucket = (name: string, max: number, keyGenerator?: (request: FastifyRequest) => string) => {
    const options: NamedRateLimitOptions = { bucket: `${route} ${name}`, max, timeWindow: limits.windowMs, ...(keyGenerator && { keyGenerator }) };
    return scope.createRateLimit(options);
  };
  const perStream = bucket('per stream', limits.perStreamMax, (request) => {
    const verdict = streamVerdictOf(request, streamTokens);
    return verdict.ok ? verdict.stream : '';
  });
  const perAddress = bucket('per address', limits.perAddressMax);
  const unverified = bucket('unverified', limits.unverifiedMax);

  return async (request) => {
    const checks: [typeof perStream, string][] = streamVerdictOf(request, streamTokens).ok
      ? [
          [perStream, 'log requests for this stream'],
          [perAddress, 'log requests'],
        ]
      : [[unverified, 'log requests without a valid stream token']];
    for (const [check, what] of checks) {
      // A store that cannot count (the shared database unreachable) refuses for now rather than failing: the client's
      // retry queue keeps the request and sends it again after Retry-After.
      const result = await check(request).catch((error: unknown) => {
        request.log.error({ err: error }, 'collector: the rate limits could not be counted');
        throw new HttpError(503, 'The collector cannot count its rate limits now; send the request again later', {
          'retry-after': String(COLLECTOR_STORE_RETRY_AFTER_SEC),
        });
      });
      if (!result.isAllowed && result.isExceeded) {
        metrics.collectorRequestsRefused.inc({ reason: 'rate' });
        throw new HttpError(429, `Too many ${what} (${result.max} per window): retry after ${result.ttlInSeconds} s`, {
          'retry-after': String(result.ttlInSeconds),
        });
      }
    }
  };
}
