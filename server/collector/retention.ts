import type { FastifyBaseLogger } from 'fastify';
import { COLLECTOR_RETENTION_INTERVAL_MS } from './limits';
import type { CollectorStore } from './store';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Deletes what the collector received more than `retentionDays` ago, in the background: once soon after start and
 * then every {@link COLLECTOR_RETENTION_INTERVAL_MS}. The store deletes in small transactions, so ingest never waits
 * long; a failed run is logged and tried again at the next interval. The timer does not keep the process alive.
 */
export function startRetention(
  store: CollectorStore,
  {
    retentionDays,
    now,
    log,
    intervalMs = COLLECTOR_RETENTION_INTERVAL_MS,
  }: { retentionDays: number; now: () => number; log: FastifyBaseLogger; intervalMs?: number },
) {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return running;
    running = store
      .deleteReceivedBefore(now() - retentionDays * DAY_MS)
      .then((deleted) => {
        if (deleted > 0) log.info({ deleted, retentionDays }, 'collector: retention deleted old events');
      })
      .catch((error) => log.error({ err: error }, 'collector: retention run failed'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const first = setTimeout(run, 10_000);
  const every = setInterval(run, intervalMs);
  first.unref();
  every.unref();
  return {
    /** Runs now (tests, or an operator) and resolves when done. */
    run,
    stop() {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
