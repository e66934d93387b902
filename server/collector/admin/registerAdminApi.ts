import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { Metrics } from '../../health/createMetrics';
import { HttpError } from '../../http/errors';
import { COLLECTOR_READ_RETRY_AFTER_SEC } from '../limits';
import { type CollectorStore, StoreBusyError, StoreQueryError } from '../store';
import type { FaultInjector } from '../testHooks/faultInjector';
import type { AdminContext } from './adminContext';
import { registerListRoutes } from './listRoutes';
import { registerSummaryRoutes } from './summaryRoutes';
import { registerTestHookRoutes } from './testHookRoutes';

/**
 * The collector's admin API under `/collector/api/`, every route behind the admin guard (bearer token, known Host),
 * every read a bounded page with a cursor, filtered in the store. The query strings are validated by JSON Schema
 * before a handler runs (an unknown parameter or an out-of-range limit is a 400).
 *
 * - `summaryRoutes.ts`: `GET /collector/api/stats`, `GET /collector/api/timeseries`;
 * - `listRoutes.ts`: the events, requests, errors and pings, each with its filters;
 * - `testHookRoutes.ts`, with `testHooks` only: clearing the store and injecting faults.
 *
 * `accountId` narrows the event and request lists to what that signed-in account sent, as the server verified it on
 * arrival (exact match; anonymous requests and events never match); it is a bounded token, so a bad one is a 400 from
 * the schema.
 *
 * A read the store could not answer in time (past its time bound, or too many waiting) is a 503 with `Retry-After`
 * and the store's message; the server goes on serving.
 */
export function registerAdminApi(
  scope: FastifyInstance,
  {
    store,
    guard,
    faults,
    testHooks,
    metrics,
  }: { store: CollectorStore; guard: onRequestAsyncHookHandler; faults: FaultInjector; testHooks: boolean; metrics: Metrics },
): void {
  const context: AdminContext = {
    store,
    guard,
    faults,
    testHooks,
    timed: (operation, read) =>
      metrics.timeStore(store.kind, operation, read).catch((error: unknown) => {
        if (error instanceof StoreQueryError) throw new HttpError(400, error.message);
        if (error instanceof StoreBusyError) throw new HttpError(503, error.message, { 'retry-after': String(COLLECTOR_READ_RETRY_AFTER_SEC) });
        throw error;
      }),
  };
  registerSummaryRoutes(scope, context);
  registerListRoutes(scope, context);
  if (testHooks) registerTestHookRoutes(scope, context);
}
