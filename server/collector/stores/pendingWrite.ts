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
