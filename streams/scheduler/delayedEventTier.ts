import { DELAYED_EVENT_TIER_DEFAULT, DELAYED_EVENT_TIER_DISPATCH_TO_EMPTY, DELAYED_EVENT_TIER_FAST, DELAYED_EVENT_TIER_IMMEDIATE } from '../timing';

/**
 * The delayed-event tiers of spec §9, as priorities: the higher the number, the sooner an event is dispatched.
 * How `dispatchAtTier` treats each one:
 *
 * | tier | value | dispatched |
 * |---|---|---|
 * | `IMMEDIATE` | 400 | at once, synchronously, bypassing the scheduler |
 * | `FAST` | 300 | in the next animation frame (within its budget), before any lower tier |
 * | `DISPATCH_TO_EMPTY` | 200 | in the next animation frame once no `FAST` event waits |
 * | `DEFAULT` | 100 | only in an idle callback, so it never takes frame time from playback |
 */
export const DelayedEventTier = {
  DEFAULT: DELAYED_EVENT_TIER_DEFAULT,
  DISPATCH_TO_EMPTY: DELAYED_EVENT_TIER_DISPATCH_TO_EMPTY,
  FAST: DELAYED_EVENT_TIER_FAST,
  IMMEDIATE: DELAYED_EVENT_TIER_IMMEDIATE,
} as const;

/** One of the four tier values. */
export type DelayedEventTier = (typeof DelayedEventTier)[keyof typeof DelayedEventTier];
