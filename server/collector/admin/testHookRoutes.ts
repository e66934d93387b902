import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/errors';
import type { InjectableFaultStatus } from '../testHooks/faultInjector';
import type { AdminContext } from './adminContext';

/**
 * The routes that change the collector from outside, which exist only with `testHooks` (`VIDFRAME_TEST_HOOKS=1`):
 * `DELETE /collector/api/events` (clears everything), `POST|DELETE /collector/api/faults`.
 */
export function registerTestHookRoutes(scope: FastifyInstance, { store, guard, faults }: AdminContext): void {
  scope.delete('/collector/api/events', { onRequest: guard }, async () => {
    await store.clear();
    faults.resetCount();
    return { cleared: true };
  });
  scope.post('/collector/api/faults', { onRequest: guard }, async (request) => {
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
  scope.delete('/collector/api/faults', { onRequest: guard }, async () => {
    faults.clear();
    return { cleared: true };
  });
}
