import type { IncomingEvent, IncomingRequest, RecordOutcome } from '../store';

/**
 * One log request waiting for its group commit, in either store: its promise settles only once the batch that
 * carries it is durable (or has failed).
 */
export interface PendingWrite {
  request: IncomingRequest;
  events: readonly IncomingEvent[];
  resolve(outcome: RecordOutcome): void;
  reject(error: unknown): void;
}

/**
 * Answers each write of a batch with the outcome at its position. A write the store returned no outcome for is
 * rejected, so its request fails with a clear error rather than being answered with nothing.
 */
export function resolveEach(batch: readonly PendingWrite[], outcomes: readonly RecordOutcome[]): void {
  batch.forEach((write, i) => {
    const outcome = outcomes[i];
    if (outcome) write.resolve(outcome);
    else write.reject(new Error(`The store returned ${outcomes.length} outcomes for a batch of ${batch.length} requests`));
  });
}
