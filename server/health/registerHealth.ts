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
  /** The state database (accounts, sessions, limits), which readiness asks too. */
  state: StoreProbe;
  metrics: Metrics;
  /** Guards `/metrics` (the admin token). */
  guard: onRequestAsyncHookHandler;
}

/**
 * The server's health, for load balancers and monitoring: liveness (`GET /healthz`: the process answers), readiness
 * (`GET /readyz`: the collector's store and the state database answer too, so traffic comes only then; 503 otherwise,
 * naming which does not, never why: its error may name hosts and users) and the Prometheus
 * metrics of every reply (`GET /metrics`, behind the admin guard). Registered on the root, so the metrics hook counts
 * every route of every domain.
 */
export function registerHealth(app: FastifyInstance, { catalog, store, state, metrics, guard }: HealthOptions): void {
  registerMetrics(app, { metrics, guard });
  app.get('/healthz', () => ({ ok: true, videos: catalog.current().videos.length }));
  app.get('/readyz', async (_request, reply) => {
    const [storeAnswers, stateAnswers] = await Promise.all(
      [store.ping(), state.ping()].map((ping) =>
        ping.then(
          () => true,
          () => false,
        ),
      ),
    );
    const kinds = { store: store.kind, state: state.kind };
    if (storeAnswers && stateAnswers) return { ready: true, ...kinds };
    const silent = !storeAnswers ? 'The collector store does not answer' : 'The state database does not answer';
    return reply.code(503).send({ ready: false, ...kinds, error: errorBody(503, silent).error });
  });
}
