import { filter, map, type Observable } from 'rxjs';
import { sampleStorageEvent } from '../sampling/sampleStorageEvent';
import { sampleStoredLog } from '../sampling/sampleStoredLog';
import { playerEvents, type PlayerLogEvent } from './playerEvents';

/**
 * The storage-report kinds that are always logged, the "most kinds" exception of spec §9: the ones that mean the
 * viewer's stored data is being lost or cannot be written at all.
 */
export const ALWAYS_LOGGED_STORAGE_EVENTS: readonly string[] = ['QUOTA_EXCEEDED', 'QUOTA_MAYBE_EXCEEDED', 'INCOMPATIBLE_DB_VERSION'];

export interface SamplingOptions {
  /** The random source of every draw (`Math.random`); injected so a test can force a draw in or out. */
  random?: () => number;
  rate?: number;
}

/**
 * Storage reports (the spec §8 codes the local database reports) as `storageEvent` log events: most kinds are sampled
 * at {@link STORAGE_EVENT_SAMPLE_RATE} (20 %, spec §9), one draw per report; {@link ALWAYS_LOGGED_STORAGE_EVENTS}
 * are logged every time.
 *
 * ```
 * reports: -a-b-q-    random(): 0.1, 0.3 (a in, b out); q QUOTA_EXCEEDED, no draw
 * result:  -a---q-
 * ```
 */
export function storageLogEvents(reports$: Observable<{ type: string; message: string }>, { random, rate }: SamplingOptions = {}): Observable<PlayerLogEvent> {
  return reports$.pipe(
    map((report) => ({ report, always: ALWAYS_LOGGED_STORAGE_EVENTS.includes(report.type) })),
    filter(({ always }) => always || sampleStorageEvent(random, rate)),
    map(({ report, always }) => playerEvents.storageEvent({ type: report.type, message: report.message, sampled: !always })),
  );
}

/** What the retry queue's drain reports, reduced to what {@link storedLogEvents} reads. */
export type StoredLogOutcome =
  { type: 'sent'; request: { sendCount: number } } | { type: 'failed'; outcome: 'requeued' | 'dropped'; request: { sendCount: number } } | { type: string };

/**
 * Log requests stored in the retry queue, once their fate is known — resent, or dropped after their resends — as
 * `storedLogRequest` events sampled at {@link STORED_LOG_SAMPLE_RATE} (10 %, spec §9), one draw each. A request
 * failing again and kept (`requeued`) is not logged: only the end of its life is.
 */
export function storedLogEvents(outcomes$: Observable<StoredLogOutcome>, { random, rate }: SamplingOptions = {}): Observable<PlayerLogEvent> {
  return outcomes$.pipe(
    map((o) => {
      const sendCount = (o as { request?: { sendCount?: unknown } }).request?.sendCount;
      const count = typeof sendCount === 'number' ? sendCount : 0;
      if (o.type === 'sent') return { action: 'resent' as const, sendCount: count };
      if (o.type === 'failed' && (o as { outcome?: string }).outcome === 'dropped') return { action: 'dropped' as const, sendCount: count };
      return null;
    }),
    filter((p): p is NonNullable<typeof p> => p !== null),
    filter(() => sampleStoredLog(random, rate)),
    map((p) => playerEvents.storedLogRequest(p)),
  );
}
