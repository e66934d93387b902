import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { ADMIN_API_ACCOUNT_ID_PATTERN, ADMIN_API_MAX_ACCOUNT_ID_CHARS } from '../../../streams/collector/adminApi';
import { HttpError } from '../../errors';
import type { Metrics } from '../../metrics/createMetrics';
import {
  COLLECTOR_DEFAULT_PAGE_SIZE,
  COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS,
  COLLECTOR_MAX_EVENT_NAME_CHARS,
  COLLECTOR_MAX_PAGE_SIZE,
  COLLECTOR_MAX_SEARCH_CHARS,
  COLLECTOR_MAX_TIMESERIES_BUCKETS,
  COLLECTOR_MIN_TIMESERIES_BUCKET_MS,
} from '../limits';
import { type CollectorEndpoint, type CollectorStore, COLLECTOR_ENDPOINTS, PING_KINDS, type PingKind, StoreQueryError } from '../store';
import type { FaultInjector, InjectableFaultStatus } from '../testHooks/faultInjector';

const pageProperties = {
  limit: { type: 'integer', minimum: 1, maximum: COLLECTOR_MAX_PAGE_SIZE, default: COLLECTOR_DEFAULT_PAGE_SIZE },
  cursor: { type: 'string', maxLength: 200 },
  sinceMs: { type: 'integer', minimum: 0 },
  untilMs: { type: 'integer', minimum: 0 },
} as const;
/** The `accountId` filter: a bounded token (agreed with the dashboard in `streams/collector/adminApi.ts`). */
const accountIdProperty = { type: 'string', minLength: 1, maxLength: ADMIN_API_MAX_ACCOUNT_ID_CHARS, pattern: ADMIN_API_ACCOUNT_ID_PATTERN } as const;
const querystring = (properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, properties });

interface PageParams {
  limit: number;
  cursor?: string;
  sinceMs?: number;
  untilMs?: number;
}

/**
 * The collector's admin API under `/collector/api/`, every route behind the admin guard (bearer token, known Host),
 * every read a bounded page with a cursor, filtered in the store (issue 12 §4). The query strings are validated by
 * JSON Schema before a handler runs (an unknown parameter or an out-of-range limit is a 400).
 *
 * - `GET /collector/api/stats`, `GET /collector/api/timeseries?sinceMs&untilMs&bucketMs`
 * - `GET /collector/api/events?limit&cursor&name&endpoint&stream&text&sinceMs&untilMs&pageId&accountId`
 * - `GET /collector/api/requests?limit&cursor&stream&pageId&accountId&sinceMs&untilMs`, `GET /collector/api/errors?limit&cursor…`
 * - `GET /collector/api/pings?limit&cursor&docid&ei&cpn&kind&sinceMs&untilMs`: the ping beacons (spec §7)
 * - test hooks only: `DELETE /collector/api/events` (clears everything), `POST|DELETE /collector/api/faults`.
 *
 * `accountId` (issue 13) narrows the event and request lists to what that signed-in account sent, as the server
 * verified it on arrival (exact match; anonymous requests and events never match); it is a bounded token, so a bad
 * one is a 400 from the schema.
 */
export function registerAdminApi(
  scope: FastifyInstance,
  {
    store,
    guard,
    faults,
    testHooks,
    metrics,
  }: { store: CollectorStore; guard: preHandlerAsyncHookHandler; faults: FaultInjector; testHooks: boolean; metrics: Metrics },
): void {
  /** A timed read; a read the store cannot answer as asked is the client's 400. */
  const timed = <T>(operation: string, read: () => Promise<T>): Promise<T> =>
    metrics.timeStore(store.kind, operation, read).catch((error: unknown) => {
      throw error instanceof StoreQueryError ? new HttpError(400, error.message) : error;
    });

  scope.get('/collector/api/stats', { preHandler: guard }, async () => ({
    store: store.kind,
    ...(await timed('stats', () => store.stats())),
    ...(testHooks ? faults.state() : {}),
  }));

  scope.get<{ Querystring: { sinceMs: number; untilMs: number; bucketMs: number } }>(
    '/collector/api/timeseries',
    {
      preHandler: guard,
      schema: {
        querystring: {
          ...querystring({
            sinceMs: { type: 'integer', minimum: 0 },
            untilMs: { type: 'integer', minimum: 0 },
            bucketMs: { type: 'integer', minimum: COLLECTOR_MIN_TIMESERIES_BUCKET_MS },
          }),
          required: ['sinceMs', 'untilMs', 'bucketMs'],
        },
      },
    },
    async (request) => {
      const { sinceMs, untilMs, bucketMs } = request.query;
      if (untilMs <= sinceMs) throw new HttpError(400, 'untilMs must be after sinceMs');
      if ((untilMs - sinceMs) / bucketMs > COLLECTOR_MAX_TIMESERIES_BUCKETS) {
        throw new HttpError(400, `At most ${COLLECTOR_MAX_TIMESERIES_BUCKETS} buckets per read: widen bucketMs or narrow the range`);
      }
      return { buckets: await timed('timeseries', () => store.timeseries({ sinceMs, untilMs, bucketMs })) };
    },
  );

  scope.get<{
    Querystring: PageParams & { name?: string; endpoint?: CollectorEndpoint; stream?: string; text?: string; pageId?: string; accountId?: string };
  }>(
    '/collector/api/events',
    {
      preHandler: guard,
      schema: {
        querystring: querystring({
          ...pageProperties,
          name: { type: 'string', minLength: 1, maxLength: COLLECTOR_MAX_EVENT_NAME_CHARS },
          endpoint: { type: 'string', enum: COLLECTOR_ENDPOINTS },
          stream: { type: 'string', minLength: 1, maxLength: 64 },
          text: { type: 'string', maxLength: COLLECTOR_MAX_SEARCH_CHARS },
          pageId: { type: 'string', minLength: 1, maxLength: COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS },
          accountId: accountIdProperty,
        }),
      },
    },
    async (request) => {
      const { pageId, ...query } = request.query;
      return timed('listEvents', () => store.listEvents({ ...query, ...(pageId !== undefined ? { clientEventIdPrefix: `${pageId}:` } : {}) }));
    },
  );

  scope.get<{ Querystring: PageParams & { stream?: string; pageId?: string; accountId?: string } }>(
    '/collector/api/requests',
    {
      preHandler: guard,
      schema: {
        querystring: querystring({
          ...pageProperties,
          stream: { type: 'string', minLength: 1, maxLength: 64 },
          pageId: { type: 'string', minLength: 1, maxLength: COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS },
          accountId: accountIdProperty,
        }),
      },
    },
    async (request) => timed('listRequests', () => store.listRequests(request.query)),
  );

  scope.get<{ Querystring: PageParams }>(
    '/collector/api/errors',
    { preHandler: guard, schema: { querystring: querystring(pageProperties) } },
    async (request) => timed('listErrors', () => store.listErrors(request.query)),
  );

  scope.get<{ Querystring: PageParams & { docid?: string; ei?: string; cpn?: string; kind?: PingKind } }>(
    '/collector/api/pings',
    {
      preHandler: guard,
      schema: {
        querystring: querystring({
          ...pageProperties,
          docid: { type: 'string', minLength: 1, maxLength: 64 },
          ei: { type: 'string', minLength: 1, maxLength: 64 },
          cpn: { type: 'string', minLength: 1, maxLength: 64 },
          kind: { type: 'string', enum: PING_KINDS },
        }),
      },
    },
    async (request) => timed('listPings', () => store.listPings(request.query)),
  );

  if (!testHooks) return;
  // Test hooks: routes that change the collector from outside exist only with testHooks (VIDFRAME_TEST_HOOKS=1).
  scope.delete('/collector/api/events', { preHandler: guard }, async () => {
    await store.clear();
    faults.resetCount();
    return { cleared: true };
  });
  scope.post('/collector/api/faults', { preHandler: guard }, async (request) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '');
    } catch {
      throw new HttpError(400, 'Body must be JSON: {"status": 500|415|400|429, "count": n, "retryAfterSec"?: n}');
    }
    const { status, count, retryAfterSec } = (parsed ?? {}) as { status?: unknown; count?: unknown; retryAfterSec?: unknown };
    if (status !== 500 && status !== 415 && status !== 400 && status !== 429) throw new HttpError(400, '"status" must be 500, 415, 400 or 429');
    if (!Number.isInteger(count) || (count as number) < 1) throw new HttpError(400, '"count" must be a whole number ≥ 1');
    if (retryAfterSec !== undefined && (!Number.isInteger(retryAfterSec) || (retryAfterSec as number) < 0)) {
      throw new HttpError(400, '"retryAfterSec" must be a whole number ≥ 0');
    }
    faults.set(status as InjectableFaultStatus, count as number, retryAfterSec as number | undefined);
    return { status, count };
  });
  scope.delete('/collector/api/faults', { preHandler: guard }, async () => {
    faults.clear();
    return { cleared: true };
  });
}
