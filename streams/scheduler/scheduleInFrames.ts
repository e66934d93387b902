import { asyncScheduler, EMPTY, type MonoTypeOperatorFunction, Observable, type SchedulerLike, Subscription, take } from 'rxjs';
import { SCHEDULER_FRAME_BUDGET_MS } from '../timing';
import type { IdleDeadlineLike } from './idleCallback';

export interface ScheduleInFramesOptions<T> {
  /** One emission per animation frame (`animationFrames()` of RxJS). Subscribed only while frame work waits. */
  frames$: Observable<unknown>;
  /** One idle callback (`idleCallback$(window)`): emits a deadline once. Resubscribed while any work waits. */
  idle$: Observable<IdleDeadlineLike>;
  /** The priority of a value: higher runs first; equal priorities keep their order. Default 0. */
  priorityOf?: (value: T) => number;
  /** Values below this priority are idle-only: they never run in a frame. Default: every value may. */
  framesFrom?: number;
  /** Each emission runs everything waiting, at once and without a budget (e.g. on page disposal). */
  flush$?: Observable<unknown>;
  /** Work allowed per frame or idle slot, in ms of `now()`. */
  budgetMs?: number;
  /** The clock the budget is measured with. Default `scheduler.now()`; `performance.now()` is finer in a browser. */
  now?: () => number;
  scheduler?: SchedulerLike;
}

interface Waiting<T> {
  value: T;
  priority: number;
}

/** `priorityOf(value)`, or 0 when it throws or answers no number: a bad priority never stops the queue. */
function safePriority<T>(priorityOf: (value: T) => number, value: T): number {
  try {
    const p = priorityOf(value);
    return typeof p === 'number' && !Number.isNaN(p) ? p : 0;
  } catch {
    return 0;
  }
}

/** Puts `waiting` after every value of the same or a higher priority: highest first, FIFO within a priority. */
function insertByPriority<T>(queue: Waiting<T>[], waiting: Waiting<T>): void {
  const at = queue.findIndex((other) => other.priority < waiting.priority);
  queue.splice(at === -1 ? queue.length : at, 0, waiting);
}

/**
 * A frame-budgeted job scheduler as an operator (spec §9): values (jobs) wait in a priority queue and are emitted in
 * slots — an animation frame or an idle callback. The *work* of a job is what the subscriber does synchronously when
 * it receives the value (append `tap(job => job.run())` for function jobs); a slot keeps emitting while less than
 * {@link SCHEDULER_FRAME_BUDGET_MS} (13.7 ms) of `now()` has passed since it began, and the rest waits for the next slot.
 *
 * - A slot always runs at least one job, so a job longer than the budget cannot stall the queue.
 * - Frames run only values with priority ≥ `framesFrom`; idle callbacks run all, highest first, and also stop when
 *   the deadline has no time left. Idle callbacks keep progress going where frames pause (a background tab).
 * - Nothing is subscribed while nothing waits: `frames$` only while frame work waits, `idle$` only while any work does.
 * - `flush$` empties the queue synchronously (page disposal).
 * - When the source completes or fails, what waits is still delivered, then the completion or error (no data lost).
 *
 * ```
 * source:  -a-b-c------      a, b: 14 ms of work each (over the budget); c: idle-only
 * frames:  ----f--f--f-      subscribed from 1 (a waits) to 7 (no frame work left)
 * idle$:   asked for at 1, calls back at 11
 * result:  ----a--b---c
 * ```
 */
export function scheduleInFrames<T>({
  frames$,
  idle$,
  priorityOf = () => 0,
  framesFrom = -Infinity,
  flush$ = EMPTY,
  budgetMs = SCHEDULER_FRAME_BUDGET_MS,
  scheduler = asyncScheduler,
  now = () => scheduler.now(),
}: ScheduleInFramesOptions<T>): MonoTypeOperatorFunction<T> {
  return (source) =>
    // Hand-written: one priority queue drained in frame and idle slots, each subscribed only while work waits for it.
    new Observable<T>((subscriber) => {
      /** Sorted by priority, highest first; FIFO within a priority. */
      const queue: Waiting<T>[] = [];
      let ended: { error?: unknown; failed: boolean } | undefined;
      let frameSlot: Subscription | undefined;
      let idleSlot: Subscription | undefined;
      let running = false;
      /** A flush asked for while a slot runs (from inside a subscriber): that slot goes on without limits. */
      let flushAll = false;

      const enqueue = (value: T) => insertByPriority(queue, { value, priority: safePriority(priorityOf, value) });
      const frameWorkWaits = () => queue.length > 0 && (queue[0]?.priority ?? 0) >= framesFrom;

      /** Emits waiting values while `eligible` and within budget; `deadline` also limits idle slots. */
      const runSlot = (kind: 'frame' | 'idle' | 'flush', deadline?: IdleDeadlineLike) => {
        if (running) {
          if (kind === 'flush') flushAll = true;
          return;
        }
        running = true;
        flushAll = kind === 'flush';
        try {
          const start = now();
          let ran = 0;
          while (queue.length > 0 && !subscriber.closed) {
            if (flushAll) {
              // no budget, no eligibility: everything goes now
            } else if (kind === 'frame' && !frameWorkWaits()) {
              break;
            } else if (ran > 0) {
              if (now() - start >= budgetMs) break;
              if (deadline && !deadline.didTimeout && deadline.timeRemaining() <= 0) break;
            }
            const next = queue.shift();
            if (next === undefined) break;
            ran += 1;
            subscriber.next(next.value);
          }
        } finally {
          running = false;
          flushAll = false;
        }
        settle();
      };

      /** Subscribes or releases the slots the queue needs now, and ends when the source ended and nothing waits. */
      const settle = () => {
        if (subscriber.closed) return;
        if (queue.length === 0 && ended) {
          if (ended.failed) subscriber.error(ended.error);
          else subscriber.complete();
          return;
        }
        if (frameWorkWaits() && !frameSlot) {
          const slot = (frameSlot = new Subscription());
          slot.add(
            frames$.subscribe({
              next: () => runSlot('frame'),
              // a finite frames$ (a test's, never animationFrames()) is subscribed again when work next arrives
              complete: () => {
                if (frameSlot === slot) frameSlot = undefined;
              },
            }),
          );
        } else if (!frameWorkWaits() && frameSlot) {
          frameSlot.unsubscribe();
          frameSlot = undefined;
        }
        if (queue.length > 0 && !idleSlot) {
          const slot = (idleSlot = new Subscription());
          slot.add(
            idle$.pipe(take(1)).subscribe((deadline) => {
              slot.unsubscribe();
              if (idleSlot === slot) idleSlot = undefined;
              runSlot('idle', deadline);
            }),
          );
        } else if (queue.length === 0 && idleSlot) {
          idleSlot.unsubscribe();
          idleSlot = undefined;
        }
      };

      const flushing = flush$.subscribe(() => runSlot('flush'));
      const upstream = source.subscribe({
        next: (value) => {
          enqueue(value);
          if (!running) settle();
        },
        error: (error) => {
          ended = { error, failed: true };
          if (!running) settle();
        },
        complete: () => {
          ended = { failed: false };
          if (!running) settle();
        },
      });
      return () => {
        upstream.unsubscribe();
        flushing.unsubscribe();
        frameSlot?.unsubscribe();
        idleSlot?.unsubscribe();
      };
    });
}
