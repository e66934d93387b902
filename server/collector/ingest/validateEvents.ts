import { createHash } from 'node:crypto';
import type { CollectorEndpoint, IncomingEvent } from '../store';
import { COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS, COLLECTOR_MAX_EVENT_BYTES, COLLECTOR_MAX_EVENT_DEPTH, COLLECTOR_MAX_EVENT_NAME_CHARS } from '../limits';

/** One event that validation refused, as the reply lists it. */
export interface RefusedEvent {
  index: number;
  clientEventId?: string;
  reason: string;
}

/** Keys of a wire event that are not its payload (`streams/logging/stampEvent.ts`). */
const ENVELOPE_KEYS = new Set(['eventTimeMs', 'clientEventId', 'context']);
const NAME = new RegExp(`^[A-Za-z][A-Za-z0-9_]{0,${COLLECTOR_MAX_EVENT_NAME_CHARS - 1}}$`);

/**
 * The deepest nesting of objects and arrays in JSON text, found by one scan of its characters (strings skipped), so
 * that a pathological body (millions of levels in a few kilobytes of gzip) is refused before `JSON.parse` spends
 * seconds of the event loop on it. Stops counting once past `max`.
 */
export function jsonTextNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i += 1; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth -= 1;
  }
  return false;
}

/**
 * Whether `value` nests objects or arrays deeper than `max` (a top-level object is depth 1). Iterative: a
 * 10,000-deep event is measured without overflowing the stack, and refused before anything serialises it.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * The number the dashboard charts for an event: seconds watched, a latency or start-up time in milliseconds, or the
 * milliseconds a rebuffer lasted or a rendition played.
 */
export function chartValueOf(name: string, payload: unknown): number | undefined {
  if (!payload || typeof payload !== 'object') return undefined;
  const p = payload as Record<string, unknown>;
  const value =
    name === 'watchTimeSegment' && finite(p.startSec) && finite(p.endSec)
      ? Math.max(0, p.endSec - p.startSec)
      : name === 'latencyReport' && finite(p.durationMs)
        ? Math.max(0, p.durationMs)
        : name === 'playerReady' && finite(p.latencyMs)
          ? Math.max(0, p.latencyMs)
          : name === 'startupTime' && finite(p.startupMs)
            ? Math.max(0, p.startupMs)
            : (name === 'rebufferEnd' || name === 'renditionPlayed') && finite(p.durationMs)
              ? Math.max(0, p.durationMs)
              : undefined;
  // A difference of two huge finite numbers is Infinity: no chart value then, never a poison for the store.
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}

/**
 * Validates each event of a log request on its own: a malformed, too deep (measured here, or cut before parsing and
 * named in `tooDeep`) or too large event is refused with a reason, and the others are kept. A kept event carries its de-duplication key: its `clientEventId`, or a hash
 * of its content when it has none (a resend of the same body hashes the same).
 */
export function validateEvents(
  events: readonly unknown[],
  { stream, endpoint, tooDeep = new Set() }: { stream: string; endpoint: CollectorEndpoint; tooDeep?: ReadonlySet<number> },
): { valid: IncomingEvent[]; refused: RefusedEvent[] } {
  const valid: IncomingEvent[] = [];
  const refused: RefusedEvent[] = [];
  events.forEach((event, index) => {
    const refuse = (reason: string, clientEventId?: string) => refused.push({ index, ...(clientEventId !== undefined ? { clientEventId } : {}), reason });
    if (event === null || typeof event !== 'object' || Array.isArray(event)) return refuse('an event must be a JSON object');
    const e = event as Record<string, unknown>;
    const { clientEventId, eventTimeMs } = e;
    const shownId = typeof clientEventId === 'string' ? clientEventId.slice(0, COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS) : undefined;
    if (
      clientEventId !== undefined &&
      (typeof clientEventId !== 'string' || clientEventId === '' || clientEventId.length > COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS)
    ) {
      return refuse(`clientEventId must be a string of 1 to ${COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS} characters`, shownId);
    }
    if (eventTimeMs !== undefined && (!finite(eventTimeMs) || eventTimeMs < 0 || eventTimeMs > Number.MAX_SAFE_INTEGER)) {
      return refuse('eventTimeMs must be a whole-number-sized count of milliseconds from 0 to 2^53 − 1', shownId);
    }
    const payloadKeys = Object.keys(e).filter((k) => !ENVELOPE_KEYS.has(k));
    const [name, ...otherKeys] = payloadKeys;
    if (name === undefined || otherKeys.length > 0) {
      return refuse(`an event has exactly one payload key besides eventTimeMs/clientEventId, not ${payloadKeys.length}`, shownId);
    }
    if (!NAME.test(name)) return refuse(`the event name must be a word of at most ${COLLECTOR_MAX_EVENT_NAME_CHARS} characters`, shownId);
    if (tooDeep.has(index) || nestsDeeperThan(e, COLLECTOR_MAX_EVENT_DEPTH))
      return refuse(`the event nests deeper than ${COLLECTOR_MAX_EVENT_DEPTH} levels`, shownId);
    const json = JSON.stringify(e);
    const bytes = Buffer.byteLength(json);
    if (bytes > COLLECTOR_MAX_EVENT_BYTES) return refuse(`the event is ${bytes} bytes, more than ${COLLECTOR_MAX_EVENT_BYTES}`, shownId);
    const value = chartValueOf(name, e[name]);
    valid.push({
      stream,
      dedupeKey: typeof clientEventId === 'string' ? clientEventId : `sha256:${createHash('sha256').update(json).digest('base64url')}`,
      ...(typeof clientEventId === 'string' ? { clientEventId } : {}),
      name,
      endpoint,
      ...(finite(eventTimeMs) ? { eventTimeMs } : {}),
      ...(value !== undefined ? { value } : {}),
      json,
    });
  });
  return { valid, refused };
}
