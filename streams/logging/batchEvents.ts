import { asyncScheduler, EMPTY, Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import {
  LOG_BATCH_DEBOUNCE_MS,
  LOG_BATCH_FORCE_FLUSH_QUEUED_EVENTS,
  LOG_BATCH_INITIAL_TIMEOUT_MS,
  LOG_BATCH_MAX_EVENTS,
  LOG_BATCH_MAX_QUEUE_WAIT_MS,
  LOG_BATCH_MIN_EVENTS,
  LOG_PAYLOAD_EXTRACTION_LIMIT,
} from '../timing';

/** Why a flush happened. `lifecycle` is the page-lifecycle flush (`document_disposed_preventable` / `document_disposed`). */
export type FlushReason = 'initial' | 'debounce' | 'maxWait' | 'force' | 'lifecycle' | 'complete';

/** One flush of the queue: the extracted events cut into request-sized batches (each ≤ `maxBatchEvents`). */
export interface EventFlush<T> {
  reason: FlushReason;
  batches: T[][];
}

export interface BatchEventsOptions {
  /** Each emission flushes everything queued at once (reason `lifecycle`); then batching goes on as before. */
  flush$?: Observable<unknown>;
  /** The first flush comes this long after the first event, whatever the queue size. */
  initialTimeoutMs?: number;
  /** After the first flush, the queue is flushed this long after the latest event — if it holds ≥ `minBatchEvents`. */
  debounceMs?: number;
  /** No event waits longer than this: measured from the oldest queued event, regardless of the queue size. */
  maxQueueWaitMs?: number;
  /** A debounce flush needs at least this many queued events. */
  minBatchEvents?: number;
  /** At most this many events per batch (per request). */
  maxBatchEvents?: number;
  /** Reaching this many queued events flushes at once. */
  forceFlushQueuedEvents?: number;
  /** One flush takes at most this many events from the queue (the `lifecycle` and `complete` flushes repeat until empty). */
  payloadExtractionLimit?: number;
  scheduler?: SchedulerLike;
  /**
   * The time the event being queued arrived, when the caller has just read the clock for it (the log sink's stamp):
   * called while the event is handed over, instead of reading `scheduler.now()` a second time.
   */
  arrivedAt?: () => number;
}

/**
 * The queue of a batcher: the events as they are (no wrapper object per event), and when they were queued, as runs (a
 * time and how many events in a row were queued at it): events come in bursts within one instant, and one run per
 * instant costs less than a time per event.
 */
class TimedQueue<T> {
  private events: T[] = [];
  private runTimes: number[] = [];
  private runLengths: number[] = [];

  get length(): number {
    return this.events.length;
  }

  /** When the oldest event still queued was queued; undefined when the queue is empty. */
  get oldestTime(): number | undefined {
    return this.runTimes[0];
  }

  push(value: T, now: number): void {
    this.events.push(value);
    const last = this.runLengths.length - 1;
    const lastLength = this.runLengths[last];
    if (lastLength !== undefined && this.runTimes[last] === now) this.runLengths[last] = lastLength + 1;
    else {
      this.runTimes.push(now);
      this.runLengths.push(1);
    }
  }

  /** Takes the `limit` oldest events; when that is all of them, the array is handed over, not copied. */
  take(limit: number): T[] {
    if (this.events.length <= limit) {
      const taken = this.events;
      this.events = [];
      this.runTimes = [];
      this.runLengths = [];
      return taken;
    }
    const taken = this.events.splice(0, limit);
    // Drop the runs of the events taken; the first run left may lose some of its events.
    let left = limit;
    let runs = 0;
    for (const length of this.runLengths) {
      if (length > left) {
        this.runLengths[runs] = length - left;
        break;
      }
      left -= length;
      runs++;
    }
    this.runTimes.splice(0, runs);
    this.runLengths.splice(0, runs);
    return taken;
  }
}

/** `taken` cut into batches of at most `maxBatchEvents`; one batch is `taken` itself. */
function batchesOf<T>(taken: T[], batchSize: number): T[][] {
  if (taken.length <= batchSize) return [taken];
  const batches: T[][] = [];
  for (let i = 0; i < taken.length; i += batchSize) batches.push(taken.slice(i, i + batchSize));
  return batches;
}

/**
 * Batches log events with the constants of spec §9. The rules, in the order they are checked:
 *
 * 1. **Forced flush** — when an event makes the queue reach `forceFlushQueuedEvents` (1000), flush at once.
 * 2. **Initial timeout** — the first flush of the page happens `initialTimeoutMs` (2000 ms) after the first event,
 *    however few events are queued; this timer is not restarted by later events.
 * 3. **Debounce with a minimum batch** — after the first flush, every event restarts a `debounceMs` (10000 ms) timer.
 *    When it fires, the queue is flushed only if it holds at least `minBatchEvents` (5); otherwise nothing happens
 *    and the events wait for more events (which restart the debounce) or for rule 4.
 * 4. **Max queue wait** — `maxQueueWaitMs` (60000 ms) after the oldest queued event the queue is flushed regardless of
 *    its size, even while events keep arriving faster than the debounce.
 * 5. **Lifecycle flush** — each `flush$` emission flushes everything queued (reason `lifecycle`), skipping all timers.
 *
 * A flush takes at most `payloadExtractionLimit` (1000) events, cut into batches of `maxBatchEvents` (100) in arrival
 * order, and resets every timer; events left behind keep their max-wait clock (from the oldest of them). On completion
 * or error of the source the queue is drained (reason `complete`) first. Unsubscribing drops the queue — flush first.
 * A flush with nothing queued emits nothing.
 *
 * ```
 * events:  a-b---------c-d-e-f-g----------------   (initialTimeoutMs = 3, debounceMs = 4, minBatchEvents = 5)
 * result:  ---I----------------------D---------    I = initial [a,b]; D = debounce [c..g], 4 frames after g
 * ```
 */
export function batchEvents<T>({
  flush$ = EMPTY,
  initialTimeoutMs = LOG_BATCH_INITIAL_TIMEOUT_MS,
  debounceMs = LOG_BATCH_DEBOUNCE_MS,
  maxQueueWaitMs = LOG_BATCH_MAX_QUEUE_WAIT_MS,
  minBatchEvents = LOG_BATCH_MIN_EVENTS,
  maxBatchEvents = LOG_BATCH_MAX_EVENTS,
  forceFlushQueuedEvents = LOG_BATCH_FORCE_FLUSH_QUEUED_EVENTS,
  payloadExtractionLimit = LOG_PAYLOAD_EXTRACTION_LIMIT,
  scheduler = asyncScheduler,
  arrivedAt,
}: BatchEventsOptions = {}): OperatorFunction<T, EventFlush<T>> {
  const batchSize = Math.max(1, Math.floor(maxBatchEvents));
  const extractionLimit = Math.max(1, Math.floor(payloadExtractionLimit));
  return (source) =>
    // Hand-written: the five flush rules share one queue and its timers; no composition of built-in operators keeps rule 3's minimum batch.
    new Observable<EventFlush<T>>((subscriber) => {
      const queue = new TimedQueue<T>();
      let firstFlushDone = false;
      let initialTimer: Subscription | undefined;
      let debounceTimer: Subscription | undefined;
      let maxWaitTimer: Subscription | undefined;

      const after = (delayMs: number, work: () => void) => scheduler.schedule(work, Math.max(0, delayMs));
      const clearTimers = () => {
        initialTimer?.unsubscribe();
        debounceTimer?.unsubscribe();
        maxWaitTimer?.unsubscribe();
        initialTimer = debounceTimer = maxWaitTimer = undefined;
      };
      const armMaxWait = () => {
        maxWaitTimer?.unsubscribe();
        // Armed only while events are queued; an empty queue would wait the whole maxQueueWaitMs.
        const oldestTime = queue.oldestTime ?? scheduler.now();
        maxWaitTimer = after(oldestTime + maxQueueWaitMs - scheduler.now(), () => {
          maxWaitTimer = undefined;
          flush('maxWait');
        });
      };
      /**
       * The debounce restarts on every event, but its timer is not: the running timer, when it fires, finds the due
       * time moved by later events and waits out the rest. One timer per quiet period instead of one per event (a
       * burst of events cost a cancel and a schedule each); it fires at the same instant.
       */
      let debounceDue = 0;
      const onDebounce = () => {
        const rest = debounceDue - scheduler.now();
        if (rest > 0) {
          debounceTimer = after(rest, onDebounce);
          return;
        }
        debounceTimer = undefined;
        if (queue.length >= minBatchEvents) flush('debounce');
      };
      const armDebounce = (now = scheduler.now()) => {
        debounceDue = now + debounceMs;
        debounceTimer ??= after(debounceMs, onDebounce);
      };

      function flush(reason: FlushReason, drain = reason === 'lifecycle' || reason === 'complete') {
        clearTimers();
        while (queue.length > 0) {
          const batches = batchesOf(queue.take(extractionLimit), batchSize);
          firstFlushDone = true;
          subscriber.next({ reason, batches });
          if (!drain && queue.length < forceFlushQueuedEvents) break;
        }
        if (queue.length > 0) {
          armMaxWait();
          armDebounce();
        }
      }

      // A broken lifecycle source must not stop logging: its errors and completion are ignored.
      const flushSubscription = flush$.subscribe({ next: () => flush('lifecycle'), error: () => undefined });
      const sourceSubscription = source.subscribe({
        next(value) {
          const now = arrivedAt ? arrivedAt() : scheduler.now();
          queue.push(value, now);
          if (queue.length >= forceFlushQueuedEvents) {
            flush('force');
            return;
          }
          if (!maxWaitTimer) armMaxWait();
          if (!firstFlushDone) {
            initialTimer ??= after(initialTimeoutMs, () => {
              initialTimer = undefined;
              flush('initial');
            });
          } else {
            armDebounce(now);
          }
        },
        error(error: unknown) {
          flush('complete');
          subscriber.error(error);
        },
        complete() {
          flush('complete');
          subscriber.complete();
        },
      });

      return () => {
        clearTimers();
        flushSubscription.unsubscribe();
        sourceSubscription.unsubscribe();
      };
    });
}
