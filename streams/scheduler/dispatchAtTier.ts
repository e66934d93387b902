import { asyncScheduler, connect, filter, map, merge, type Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import { SCHEDULER_FRAME_BUDGET_MS } from '../timing';
import { DelayedEventTier } from './delayedEventTier';
import type { IdleDeadlineLike } from './idleCallback';
import { scheduleInFrames } from './scheduleInFrames';

/** An event with the tier it is to be dispatched at. */
export interface TieredEvent<T> {
  tier: DelayedEventTier;
  event: T;
}

export interface DispatchAtTierOptions {
  /** One emission per animation frame (`animationFrames()`). */
  frames$: Observable<unknown>;
  /** One idle callback (`idleCallback$(window)`). */
  idle$: Observable<IdleDeadlineLike>;
  /** Dispatches everything waiting at once, e.g. the page lifecycle's disposal states. */
  flush$?: Observable<unknown>;
  budgetMs?: number;
  now?: () => number;
  scheduler?: SchedulerLike;
}

/**
 * Dispatches logging events at their delayed-event tier (spec §9), so that telemetry never janks playback: one
 * `scheduleInFrames` queue for all tiers, in the order of {@link DelayedEventTier}.
 *
 * - `IMMEDIATE` (400, or any higher number) is emitted at once, synchronously, bypassing the queue.
 * - `FAST` (300) and `DISPATCH_TO_EMPTY` (200) are emitted in the next animation frame within the
 *   {@link SCHEDULER_FRAME_BUDGET_MS} budget, `FAST` first; what does not fit waits for the next frame.
 * - `DEFAULT` (100, or any lower or unreadable tier) waits for an idle callback and never requests a frame.
 * - `flush$` dispatches everything waiting at once; a value that is not a `{ tier, event }` object is dropped; when the source completes, what waits is still dispatched.
 *
 * The *work* budgeted is what the subscriber does synchronously with each event (e.g. append it to the batch).
 *
 * ```
 * source:  -d-f-i-----      d = DEFAULT, f = FAST, i = IMMEDIATE
 * frames:  ---------F-      (the first frame after f)
 * idle$:   asked for at 1 (d waits), calls back at 10
 * result:  -----i---fd-
 * ```
 */
export function dispatchAtTier<T>({
  frames$,
  idle$,
  flush$,
  budgetMs = SCHEDULER_FRAME_BUDGET_MS,
  scheduler = asyncScheduler,
  now,
}: DispatchAtTierOptions): OperatorFunction<TieredEvent<T>, T> {
  const tierOf = (tiered: TieredEvent<T>): number => (typeof tiered.tier === 'number' && !Number.isNaN(tiered.tier) ? tiered.tier : DelayedEventTier.DEFAULT);
  return (source) =>
    source.pipe(
      filter((tiered): tiered is TieredEvent<T> => tiered !== null && typeof tiered === 'object'),
      // connect() subscribes both branches before the source, so a synchronous source loses nothing.
      connect((tiered$) =>
        merge(
          tiered$.pipe(filter((tiered) => tierOf(tiered) >= DelayedEventTier.IMMEDIATE)),
          tiered$.pipe(
            filter((tiered) => tierOf(tiered) < DelayedEventTier.IMMEDIATE),
            scheduleInFrames<TieredEvent<T>>({
              frames$,
              idle$,
              flush$,
              budgetMs,
              scheduler,
              now,
              priorityOf: tierOf,
              framesFrom: DelayedEventTier.DISPATCH_TO_EMPTY,
            }),
          ),
        ),
      ),
      map((tiered) => tiered.event),
    );
}
