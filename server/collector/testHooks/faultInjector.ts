/** Statuses the fault injector can play back (spec §8: 400/415 on logs mean "compression failed"). */
export type InjectableFaultStatus = 500 | 415 | 400 | 429;

/**
 * The collector's fault injector (test hooks only): the next `count` log requests fail with `status`. 415 and 400
 * only hit gzip bodies, to play "compression unsupported"; 429 carries `Retry-After`.
 */
export function createFaultInjector() {
  let fault: { status: InjectableFaultStatus; remaining: number; retryAfterSec?: number } | undefined;
  let played = 0;
  return {
    set(status: InjectableFaultStatus, count: number, retryAfterSec?: number) {
      fault = { status, remaining: count, retryAfterSec };
    },
    clear() {
      fault = undefined;
    },
    /** The status the next request must fail with, if any (and counts it). */
    take(compressed: boolean): { status: InjectableFaultStatus; retryAfterSec?: number } | undefined {
      if (!fault || !(fault.status === 500 || fault.status === 429 || compressed)) return undefined;
      const { status, retryAfterSec } = fault;
      fault.remaining -= 1;
      if (fault.remaining <= 0) fault = undefined;
      played += 1;
      return { status, retryAfterSec };
    },
    state: () => ({ faultsPlayed: played, pendingFault: fault ? { status: fault.status, count: fault.remaining } : null }),
    resetCount() {
      played = 0;
    },
  };
}
export type FaultInjector = ReturnType<typeof createFaultInjector>;
