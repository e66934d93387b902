import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { Metrics } from './createMetrics';

/**
 * Counts every reply (by route pattern, never the raw URL, so label cardinality stays bounded) and serves
 * `GET /metrics` in Prometheus' text format behind the admin guard (a Prometheus job sends the admin token as its
 * bearer token).
 */
export function registerMetrics(app: FastifyInstance, { metrics, guard }: { metrics: Metrics; guard: onRequestAsyncHookHandler }) {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ route }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { onRequest: guard }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
