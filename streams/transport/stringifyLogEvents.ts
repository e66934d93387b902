/**
 * `JSON.stringify(events)` for the `events` array of a log request, the same string, faster (issue 15): Node 20's
 * `JSON.stringify` spends ≈ 0.6–0.8 µs on each `{eventTimeMs, clientEventId, [name]: {…}}`, most of the log sink's time.
 *
 * It knows the shape the log sink stamps: an envelope of exactly `eventTimeMs` (a finite number), `clientEventId` (a
 * string) and one payload key, whose value is usually a flat object of strings, numbers, booleans and nulls with the
 * same keys for the same event name. The quoted keys of each name are kept (a "plan"), so an event costs a check that
 * its keys are the plan's, in order, and the concatenation of its values; repeated values (the same video id, the same
 * millisecond) reuse their text.
 *
 * Anything else falls back to `JSON.stringify`, so the output is always the native one:
 * - a payload that is not flat (nested objects, arrays, `undefined` members) or does not match its name's plan: that
 *   payload alone goes to `JSON.stringify` (exact: it is a plain object without `toJSON`, so its text does not depend on
 *   where it sits);
 * - an envelope that is not of that shape, a `toJSON` or a prototype other than `Object.prototype` anywhere it looks, a
 *   non-array: `undefined` is returned and the caller serialises the whole body natively.
 * The one difference a caller could see: on a fallback a getter of the payload runs twice.
 */

/** Plans are kept for this many event names at most (names are a fixed catalogue; this only bounds a bad page). */
const MAX_PLANS = 256;
/** A payload with more keys than this is not planned (it goes to `JSON.stringify`). */
const MAX_PLAN_KEYS = 32;

interface Plan {
  /** `,"name":` — the payload key inside the envelope. */
  member: string;
  /** The payload's keys, in order, and `{"key":` / `,"key":` for each. */
  keys: string[];
  prefixes: string[];
}

const plans = new Map<string, Plan>();

/** True when `JSON.stringify` writes the string as it is between quotes (no `"`, `\`, control or surrogate). */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

let lastText = '';
let lastQuoted = '""';
const quote = (text: string): string => {
  if (text === lastText) return lastQuoted;
  const quoted = isPlain(text) ? `"${text}"` : JSON.stringify(text);
  lastText = text;
  lastQuoted = quoted;
  return quoted;
};

let lastNumber = Number.NaN;
let lastNumberText = 'null';
const numberText = (n: number): string => {
  if (n === lastNumber) return lastNumberText;
  lastNumber = n;
  lastNumberText = Number.isFinite(n) ? `${n}` : 'null';
  return lastNumberText;
};

function planFor(name: string, payload: object): Plan {
  const keys = Object.keys(payload);
  return {
    member: `,${JSON.stringify(name)}:`,
    keys: keys.length <= MAX_PLAN_KEYS ? keys : [],
    prefixes: keys.map((key, i) => `${i === 0 ? '{' : ','}${JSON.stringify(key)}:`),
  };
}

const objectPrototype = Object.prototype;
const getPrototypeOf = Object.getPrototypeOf;

/** The payload's text by its plan, or `undefined` when it does not fit the plan (the caller uses `JSON.stringify`). */
function byPlan(plan: Plan, payload: Record<string, unknown>): string | undefined {
  const { keys, prefixes } = plan;
  let out = '';
  let i = 0;
  for (const key in payload) {
    if (key !== keys[i]) return undefined;
    const value = payload[key];
    let text: string;
    switch (typeof value) {
      case 'string':
        text = quote(value);
        break;
      case 'number':
        text = numberText(value);
        break;
      case 'boolean':
        text = value ? 'true' : 'false';
        break;
      case 'object':
        if (value !== null) return undefined;
        text = 'null';
        break;
      default:
        return undefined; // undefined, function, symbol (left out by JSON), bigint
    }
    out += prefixes[i] + text;
    i++;
  }
  if (i !== keys.length) return undefined;
  return i === 0 ? '{}' : `${out}}`;
}

/** The payload member's value text; `undefined` to give the whole body to `JSON.stringify`. */
function payloadText(name: string, payload: unknown, plan: Plan): string | undefined {
  switch (typeof payload) {
    case 'string':
      return quote(payload);
    case 'number':
      return numberText(payload);
    case 'boolean':
      return payload ? 'true' : 'false';
    case 'object': {
      if (payload === null) return 'null';
      if (getPrototypeOf(payload) !== objectPrototype || (payload as { toJSON?: unknown }).toJSON !== undefined) return undefined;
      const text = byPlan(plan, payload as Record<string, unknown>);
      if (text !== undefined) return text;
      // Another shape for this name: this payload natively, and its shape is the plan from now on.
      if (plans.has(name)) plans.set(name, planFor(name, payload));
      return JSON.stringify(payload);
    }
    default:
      return undefined;
  }
}

/** `JSON.stringify(events)` when `events` is an array of log events; `undefined` when the caller must do it natively. */
export function stringifyLogEvents(events: unknown): string | undefined {
  const texts = logEventTexts(events);
  return texts && `[${texts.join(',')}]`;
}

/**
 * The text of each event of {@link stringifyLogEvents} (`[` + their join by `,` + `]` is the array's text), for a
 * caller that joins them into a larger text at once; `undefined` when the caller must serialise natively.
 */
export function logEventTexts(events: unknown): string[] | undefined {
  if (!Array.isArray(events) || getPrototypeOf(events) !== Array.prototype || (events as { toJSON?: unknown }).toJSON !== undefined) return undefined;
  const parts = new Array<string>(events.length);
  for (let e = 0; e < events.length; e++) {
    const event: unknown = events[e];
    if (typeof event !== 'object' || event === null || getPrototypeOf(event) !== objectPrototype) return undefined;
    if ((event as { toJSON?: unknown }).toJSON !== undefined) return undefined;
    let eventTimeMs: unknown;
    let clientEventId: unknown;
    let name: string | undefined;
    let payload: unknown;
    let i = 0;
    for (const key in event) {
      const value = (event as Record<string, unknown>)[key];
      if (i === 0 && key === 'eventTimeMs') eventTimeMs = value;
      else if (i === 1 && key === 'clientEventId') clientEventId = value;
      else if (i === 2) {
        name = key;
        payload = value;
      } else return undefined;
      i++;
    }
    if (name === undefined || typeof eventTimeMs !== 'number' || !Number.isFinite(eventTimeMs) || typeof clientEventId !== 'string') return undefined;
    let plan = plans.get(name);
    if (plan === undefined) {
      plan = typeof payload === 'object' && payload !== null ? planFor(name, payload) : { member: `,${JSON.stringify(name)}:`, keys: [], prefixes: [] };
      if (plans.size < MAX_PLANS) plans.set(name, plan);
    }
    const text = payloadText(name, payload, plan);
    if (text === undefined) return undefined;
    // Each id is new: quoted without the cache of repeated values (which it would only evict).
    const id = isPlain(clientEventId) ? `"${clientEventId}"` : JSON.stringify(clientEventId);
    parts[e] = `{"eventTimeMs":${numberText(eventTimeMs)},"clientEventId":${id}${plan.member}${text}}`;
  }
  return parts;
}
