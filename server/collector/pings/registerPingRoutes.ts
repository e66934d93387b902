import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../http/errors';
import { COLLECTOR_STORE_RETRY_AFTER_SEC } from '../limits';
import { PING_KINDS, type CollectorStore } from '../store';
import { parsePing } from './parsePing';

/**
 * The ping beacons of spec §7: `GET /api/stats/playback` and `GET /api/stats/watchtime`, the URLs of the player
 * response's `playbackTracking` with the embed's parameters appended (see `parsePing.ts`). 204 once stored (or once
 * found stored already: a resent ping is one row); 400 naming the bad parameter; 503 with `Retry-After` when the
 * store cannot take it now (the embed resends a few times, then gives up). Never cached: each GET is a report.
 * Rate-limited per client address (a ping carries no stream token to count it by), each route with its own bucket.
 */
export function registerPingRoutes(
  scope: FastifyInstance,
  { store, rateLimit, now }: { store: CollectorStore; rateLimit: Record<string, unknown> | false; now: () => number },
): void {
  for (const kind of PING_KINDS) {
    scope.get(`/api/stats/${kind}`, { config: rateLimit ? { rateLimit } : {} }, async (request, reply) => {
      const ping = parsePing(kind, request.query, now());
      try {
        await store.recordPing(ping);
      } catch (error) {
        request.log.error({ err: error }, 'collector: the store refused a ping');
        return reply.code(503).header('retry-after', String(COLLECTOR_STORE_RETRY_AFTER_SEC)).send(errorBody(503, 'The ping could not be stored now'));
      }
      return reply.code(204).header('cache-control', 'no-store').send();
    });
  }
}
