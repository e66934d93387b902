import type { LogEvent } from './stampEvent';

/** The `serializedClientEventId` of spec §7: which page sent the request, and its request counter. */
export interface SerializedClientEventId {
  serializedEventId: string;
  clientCounter: number;
}

/** The body of a `log_event` / `video_stats` request, without `context` (the transport adds it). */
export interface LogRequestPayload {
  events: LogEvent[];
  requestTimeMs: number;
  serializedClientEventId: SerializedClientEventId;
  [key: string]: unknown;
}

/** The payload of one log request (spec §7: events, requestTimeMs, serializedClientEventId). Pure. */
export function buildLogRequestPayload(
  events: LogEvent[],
  { requestTimeMs, serializedEventId, clientCounter }: { requestTimeMs: number } & SerializedClientEventId,
): LogRequestPayload {
  return { events, requestTimeMs, serializedClientEventId: { serializedEventId, clientCounter } };
}
