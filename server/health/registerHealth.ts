import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { errorBody } from '../http/errors';
import type { CurrentCatalog } from '../media/catalogSource';
import type { Metrics } from './createMetrics';
import { registerMetrics } from './registerMetrics';

/** What readiness asks of the collector's store: its kind, and whether it answers. */
export interface StoreProbe {
  kind: string;
  ping(): Promise<unknown>;
}

export interface HealthOptions {
  catalog: CurrentCatalog;
  /** The collector's store, which readiness asks. */
  store: StoreProbe;
  metrics: Metrics;
  /** Guards `/metrics` (the admin token). */
  guard: onRequestAsyncHookHandler;
}

/**
 * The server's health, for load balancers and monitoring: liveness (`GET /healthz`: the process answers), readiness
 * (`GET /readyz`: the collector's store answers too, so traffic comes only then; 503 otherwise) and the Prometheus
 * metrics of every reply (`GET /metrics`, behind the admin guard). Registered on the root, so the metrics hook counts
 * every route of every domain.
 */
export function registerHealth(app: FastifyInstance, { catalog, store, metrics, guard }: HealthOptions): void {
  registerMetrics(app, { metrics, guard });
  app.get('/healthz', () => ({ ok: true, videos: catalog.current().videos.length }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await store.ping();
      return { ready: true, store: store.kind };
    } catch {
      return reply.code(503).send({ ready: false, store: store.kind, error: errorBody(503, 'The collector store does not answer').error });
    }
  });
}
