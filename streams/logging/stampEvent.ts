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

/**
 * Makes `{ eventTimeMs, clientEventId }` — a plain object (its prototype is `Object.prototype`, as a literal's) — with
 * room for the payload key added next. A literal of two members has no room for a third: V8 gives every event a separate
 * property store, and its `JSON.stringify` of such events is much slower (docs/performance.md). Objects made by a
 * constructor get spare in-object slots, and this one's prototype is `Object.prototype`, so nobody can tell them apart.
 */
const PlainLogEvent = function (this: LogEvent, eventTimeMs: number, clientEventId: string) {
  this.eventTimeMs = eventTimeMs;
  this.clientEventId = clientEventId;
} as unknown as new (eventTimeMs: number, clientEventId: string) => LogEvent;
PlainLogEvent.prototype = Object.prototype;

/** A stamped event and where it goes. */
export interface StampedEvent {
  event: LogEvent;
  debug: boolean;
}

/**
 * Turns a {@link ClientEvent} into its wire form. A name that is empty, not a string or one of
 * {@link LOG_EVENT_RESERVED_KEYS} is logged as `invalidEvent` with the original name, so nothing is lost or overwritten.
 */
export function stampEvent(input: ClientEvent, stamp: { eventTimeMs: number; clientEventId: string }): StampedEvent {
  return { event: stampLogEvent(input, stamp.eventTimeMs, stamp.clientEventId), debug: input?.debug === true };
}

/**
 * The `event` of {@link stampEvent} alone, the stamp as two arguments: the log sink's form (it runs for every event, and
 * allocates neither a stamp nor a {@link StampedEvent}). `eventTimeMs` is used when the input brings no finite time.
 */
export function stampLogEvent(input: ClientEvent, eventTimeMs: number, clientEventId: string): LogEvent {
  const name = input?.name;
  const given = input?.eventTimeMs;
  const event = new PlainLogEvent(typeof given === 'number' && Number.isFinite(given) ? given : eventTimeMs, clientEventId);
  // Not one of LOG_EVENT_RESERVED_KEYS, compared one by one: cheaper per event than a `Set` lookup.
  if (typeof name === 'string' && name.length > 0 && name !== 'eventTimeMs' && name !== 'clientEventId' && name !== 'context') {
    event[name] = input.payload ?? {};
  } else event.invalidEvent = { name: String(name), payload: input?.payload ?? null };
  return event;
}
