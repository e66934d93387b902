/**
 * What any part of the page hands the log sink: one named payload. `name` becomes the payload's key on the wire
 * (`{ eventTimeMs, clientEventId, [name]: payload }`). `debug` events go to `video_stats` instead of `log_event`.
 */
export interface ClientEvent<N extends string = string, P = unknown> {
  name: N;
  payload: P;
  debug?: boolean;
  /** When the thing happened, if not "now" (ms since the epoch). */
  eventTimeMs?: number;
}

/** Keys of a {@link LogEvent} that are not the payload; a {@link ClientEvent} name may not be one of them. */
export const LOG_EVENT_RESERVED_KEYS = ['eventTimeMs', 'clientEventId', 'context'] as const;

/**
 * One entry of a request's `events` array. `clientEventId` is unique per client event — `{pageId}:{sequence}`, the
 * page id random per page and the sequence counting from 1 without wrapping — so the collector can count each event
 * exactly once, however often its request is resent.
 */
export interface LogEvent {
  eventTimeMs: number;
  clientEventId: string;
  [payloadName: string]: unknown;
}

/** A stamped event and where it goes. */
export interface StampedEvent {
  event: LogEvent;
  debug: boolean;
}

/**
 * Turns a {@link ClientEvent} into its wire form. A name that is empty, not a string or one of
 * {@link LOG_EVENT_RESERVED_KEYS} is logged as `invalidEvent` with the original name, so nothing is lost or overwritten.
 */
export function stampEvent(input: ClientEvent, stamp: { eventTimeMs: number; clientEventId: string }): StampedEvent;
/** The same with the stamp as two arguments: the log sink's form, which allocates no stamp object per event. */
export function stampEvent(input: ClientEvent, eventTimeMs: number, clientEventId: string): StampedEvent;
export function stampEvent(input: ClientEvent, stamp: { eventTimeMs: number; clientEventId: string } | number, clientEventId?: string): StampedEvent {
  const name = input?.name;
  const valid = typeof name === 'string' && name.length > 0 && !isReservedKey(name);
  const given = input?.eventTimeMs;
  const now = typeof stamp === 'number' ? stamp : stamp.eventTimeMs;
  const event: LogEvent = {
    eventTimeMs: typeof given === 'number' && Number.isFinite(given) ? given : now,
    clientEventId: typeof stamp === 'number' ? clientEventId! : stamp.clientEventId,
  };
  if (valid) event[name] = input.payload ?? {};
  else event.invalidEvent = { name: String(name), payload: input?.payload ?? null };
  return { event, debug: input?.debug === true };
}

const RESERVED_KEYS: ReadonlySet<string> = new Set(LOG_EVENT_RESERVED_KEYS);
const isReservedKey = (name: string) => RESERVED_KEYS.has(name);
