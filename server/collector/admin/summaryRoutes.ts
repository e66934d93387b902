import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/errors';
import { COLLECTOR_MAX_TIMESERIES_BUCKETS, COLLECTOR_MIN_TIMESERIES_BUCKET_MS } from '../limits';
import { querystring, type AdminContext } from './adminContext';

/** `GET /collector/api/stats` and `GET /collector/api/timeseries?sinceMs&untilMs&bucketMs`. */
export function registerSummaryRoutes(scope: FastifyInstance, { store, guard, faults, testHooks, timed }: AdminContext): void {
  scope.get('/collector/api/stats', { onRequest: guard }, async () => ({
    store: store.kind,
    ...(await timed('stats', () => store.stats())),
    ...(testHooks ? faults.state() : {}),
  }));

  scope.get<{ Querystring: { sinceMs: number; untilMs: number; bucketMs: number } }>(
    '/collector/api/timeseries',
    {
      onRequest: guard,
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
}
