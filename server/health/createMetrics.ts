import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * The server's Prometheus metrics (`prom-client`), in a registry of the app's own (two apps in one process, as in
 * tests, never share counters): HTTP requests by route and status, the collector's events by outcome, and the
 * store's latency by operation, plus Node's process metrics.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vidframe_' });
  const storeDuration = new Histogram({
    name: 'vidframe_collector_store_duration_seconds',
    help: 'Collector store latency, by operation (a write is measured until it is durable)',
    labelNames: ['store', 'operation'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    registry,
    httpRequests: new Counter({
      name: 'vidframe_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'vidframe_http_request_duration_seconds',
      help: 'Time from request to reply, by route pattern',
      labelNames: ['route'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    collectorEvents: new Counter({
      name: 'vidframe_collector_events_total',
      help: 'Events received by the collector, by outcome (accepted, duplicate, conflict, refused)',
      labelNames: ['outcome', 'endpoint'] as const,
      registers: [registry],
    }),
    collectorRequestsRefused: new Counter({
      name: 'vidframe_collector_requests_refused_total',
      help: 'Log requests refused whole, by reason (token, body, rate, identity)',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    storeDuration,
    /** Runs one store operation and records how long it took, failed or not. */
    async timeStore<T>(store: string, operation: string, work: () => Promise<T>): Promise<T> {
      const stop = storeDuration.startTimer({ store, operation });
      try {
        return await work();
      } finally {
        stop();
      }
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
