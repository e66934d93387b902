import { DelayedEventTier } from '../scheduler/delayedEventTier';
import type { ClientEvent } from './stampEvent';

/**
 * The delayed-event tier of each logged event (spec §9), by name; every event not named waits at `DEFAULT` for the
 * main thread to be idle (at most the idle timeout), so the bulk of telemetry never competes with playback for a frame.
 *
 * - `IMMEDIATE`: a player error, at once (the page may be about to go).
 * - `FAST`: what the host or the viewer just did — a host command received, a navigation starting or ending. One
 *   event each, in the next frame ahead of the idle backlog that a load causes, so the cause is in the sink before the
 *   burst of state changes it brings about.
 * - `DISPATCH_TO_EMPTY`: changes of the page's situation — visibility, network, a new video loaded — in the next frame
 *   once no `FAST` event waits: a page turning hidden or losing its network is about to stop giving idle time. The
 *   session's opening `playerLoad` is at this tier too, logged first, so it stays the first event of the session.
 *
 * Every event keeps its `eventTimeMs`; within one tier the order is the order they happened.
 */
export const LOG_EVENT_TIERS: Readonly<Record<string, DelayedEventTier>> = {
  playerError: DelayedEventTier.IMMEDIATE,
  hostCommandReceived: DelayedEventTier.FAST,
  navigationStateChange: DelayedEventTier.FAST,
  playerLoad: DelayedEventTier.DISPATCH_TO_EMPTY,
  visibilityChange: DelayedEventTier.DISPATCH_TO_EMPTY,
  networkChange: DelayedEventTier.DISPATCH_TO_EMPTY,
  videoLoad: DelayedEventTier.DISPATCH_TO_EMPTY,
};

/** The tier `event` is dispatched at: its name's in {@link LOG_EVENT_TIERS}, else `DEFAULT`. */
export const logEventTier = (event: ClientEvent): DelayedEventTier => LOG_EVENT_TIERS[event.name] ?? DelayedEventTier.DEFAULT;
