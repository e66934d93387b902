/**
 * `JSON.stringify(events)` for the `events` array of a log request, the same string, faster: the native
 * `JSON.stringify` of each `{eventTimeMs, clientEventId, [name]: {…}}` is most of the log sink's time.
 *
 * It knows the shape the log sink stamps: an envelope of exactly `eventTimeMs` (a finite number), `clientEventId` (a
 * string) and one payload key, whose value is usually a flat object of strings, numbers, booleans and nulls with the
 * same keys for the same event name. The quoted keys of each name are kept (a "plan"), so an event costs a check that
 * its keys are the plan's, in order, and the concatenation of its values. Each event's text is made of as few pieces
 * as possible (flattening the body copies every piece, and a piece costs more than its bytes): the plan keeps, for each key,
 * the last value and its piece (`,"key":value`; the first one with the payload's name in front), reused while the value
 * repeats (the same video id, the same state); the envelope up to the id is kept per `eventTimeMs` (events of one
 * millisecond share it). Numbers are written by `JSON.stringify`, which leaves V8's number-to-text caches alone
 * (`streams/shared/numberText.ts`).
 *
 * Anything else falls back to `JSON.stringify`, so the output is always the native one:
 * - a payload that is not flat (nested objects, arrays, `undefined` members) or does not match its name's plan: that
 *   payload alone goes to `JSON.stringify` (exact: it is a plain object without `toJSON`, so its text does not depend on
 *   where it sits);
 * - an envelope that is not of that shape, a `toJSON` or a prototype other than `Object.prototype` anywhere it looks, a
 *   non-array: `undefined` is returned and the caller serialises the whole body natively.
 * The one difference a caller could see: on a fallback a getter of the payload runs twice.
 *
 * The log sink tells it which arrays hold only ids it made ({@link markPlainClientEventIds}): those are not scanned.
 *
 * The text is made of V8 string pieces, not UTF-8 bytes written into a reused `Uint8Array` (bytes stored from JS are
 * slower than the pieces), and each event's text is written at the flush, not when the event is stamped (texts waiting
 * in the queue would survive young-generation collections).
 */

/** Plans are kept for this many event names at most (names are a fixed catalogue; this only bounds a bad page). */
const MAX_PLANS = 256;
/** A payload with more keys than this is not planned (it goes to `JSON.stringify`). */
const MAX_PLAN_KEYS = 32;

interface Plan {
  /** `","name":` — the end of the id and the payload key inside the envelope. */
  member: string;
  /** The payload's keys, in order. */
  keys: string[];
  /** `","name":{"key":` for the first key, `,"key":` for the others. */
  prefixes: string[];
  /** The last value of each key, and its piece: its prefix and the value's text. */
  values: unknown[];
  pieces: string[];
  /** Whether each piece was used more than once (and so made flat). */
  reused: boolean[];
}

const plans = new Map<string, Plan>();

/**
 * `text`, made flat: a string made by concatenation is a tree of its parts, which every copy of it walks again; a piece
 * used for many events is flattened once (`Number()` reads it, which makes V8 flatten it in place).
 */
export function flat(text: string): string {
  Number(text);
  return text;
}

/** True when `JSON.stringify` writes the string as it is between quotes (no `"`, `\`, control or surrogate). */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

const quote = (text: string): string => (isPlain(text) ? `"${text}"` : JSON.stringify(text));

/** The text of a flat value (string, number, boolean, null); `undefined` for anything else. */
function valueText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return JSON.stringify(value); // `null` when not finite, as the native writer; no number-to-text cache
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return value === null ? 'null' : undefined;
    default:
      return undefined; // undefined, function, symbol (left out by JSON), bigint
  }
}

function planFor(name: string, payload: unknown): Plan {
  const member = flat(`",${JSON.stringify(name)}:`);
  const all = typeof payload === 'object' && payload !== null ? Object.keys(payload) : [];
  const keys = all.length <= MAX_PLAN_KEYS ? all : [];
  const prefixes = keys.map((key, i) => flat(`${i === 0 ? `${member}{` : ','}${JSON.stringify(key)}:`));
  // `NaN` never equals a value: the first event of the plan makes every piece.
  return { member, keys, prefixes, values: keys.map(() => Number.NaN), pieces: [...prefixes], reused: keys.map(() => true) };
}

const objectPrototype = Object.prototype;
const getPrototypeOf = Object.getPrototypeOf;

/** `member` + the payload's text + `}` by its plan, or `undefined` when it does not fit the plan. */
function tailByPlan(plan: Plan, payload: Record<string, unknown>): string | undefined {
  const { keys, values, pieces, reused } = plan;
  let out = '';
  let i = 0;
  for (const key in payload) {
    // A key past the plan's (it has no piece there) or another key than the plan's: the payload does not fit.
    let piece = pieces[i];
    if (piece === undefined || key !== keys[i]) return undefined;
    const value = payload[key];
    if (value !== values[i]) {
      const text = valueText(value);
      if (text === undefined) return undefined;
      piece = plan.prefixes[i] + text;
      values[i] = value;
      pieces[i] = piece;
      reused[i] = false;
    } else if (!reused[i]) {
      // Used a second time: worth flattening (a value that changes with every event is not).
      flat(piece);
      reused[i] = true;
    }
    out = i === 0 ? piece : out + piece;
    i++;
  }
  if (i !== keys.length) return undefined;
  return i === 0 ? `${plan.member}{}}` : `${out}}}`;
}

/** The event's text after its id: `","name":` + the payload's text + `}`; `undefined` for the native path. */
function eventTail(name: string, payload: unknown, plan: Plan): string | undefined {
  if (typeof payload === 'object' && payload !== null) {
    if (getPrototypeOf(payload) !== objectPrototype || (payload as { toJSON?: unknown }).toJSON !== undefined) return undefined;
    const tail = tailByPlan(plan, payload as Record<string, unknown>);
    if (tail !== undefined) return tail;
    // Another shape for this name: this payload natively, and its shape is the plan from now on.
    if (plans.get(name) === plan) plans.set(name, planFor(name, payload));
    return `${plan.member}${JSON.stringify(payload)}}`;
  }
  const text = valueText(payload);
  return text === undefined ? undefined : `${plan.member}${text}}`;
}

let lastTime = Number.NaN;
let lastHead = '';
/** The same after the `,` that separates it from the event before. */
let lastHeadAfterComma = '';

/**
 * `JSON.stringify(event)` of one log event (see the header); `undefined` when the caller must serialise natively.
 * `plainId`: the caller knows the id needs no escaping (it is not scanned). `comma`: the text starts with the `,` that
 * separates it from the event before (one piece fewer than adding it).
 */
function logEventText(event: unknown, plainId: boolean, comma = false): string | undefined {
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
    plan = planFor(name, payload);
    if (plans.size < MAX_PLANS) plans.set(name, plan);
  }
  const tail = eventTail(name, payload, plan);
  if (tail === undefined) return undefined;
  if (eventTimeMs !== lastTime) {
    lastHead = flat(`{"eventTimeMs":${JSON.stringify(eventTimeMs)},"clientEventId":"`);
    lastHeadAfterComma = flat(`,${lastHead}`);
    lastTime = eventTimeMs;
  }
  // The head ends with the id's opening quote and the tail starts with its closing one.
  return (comma ? lastHeadAfterComma : lastHead) + (plainId || isPlain(clientEventId) ? clientEventId : JSON.stringify(clientEventId).slice(1, -1)) + tail;
}

/**
 * `before + JSON.stringify(events) + after`, one flat string, when `events` is an array of log events; `undefined` when
 * the caller must serialise natively. The texts are concatenated and the result flattened once, which is faster than
 * `Array.join` of a request's event texts.
 */
export function stringifyLogEvents(events: unknown, before = '', after = ''): string | undefined {
  if (!Array.isArray(events) || getPrototypeOf(events) !== Array.prototype || (events as { toJSON?: unknown }).toJSON !== undefined) return undefined;
  const plainIds = plainIdArrays.has(events);
  let out = `${before}[`;
  for (let e = 0; e < events.length; e++) {
    const text = logEventText(events[e], plainIds, e > 0);
    if (text === undefined) return undefined;
    out += text;
  }
  return flat(`${out}]${after}`);
}

/** The text of a flat value, or of a plain object of flat values (`serializedClientEventId`); `undefined` for anything else. */
function memberText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return valueText(value);
  if (getPrototypeOf(value) !== objectPrototype || (value as { toJSON?: unknown }).toJSON !== undefined) return undefined;
  let out = '{';
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return undefined;
    const text = valueText((value as Record<string, unknown>)[key]);
    if (text === undefined) return undefined; // `undefined` members (left out by JSON), nested objects: natively
    out += `${out.length === 1 ? '' : ','}${quote(key)}:${text}`;
  }
  return `${out}}`;
}

/**
 * `JSON.stringify({ context, ...rest })` of a log request whose `rest` is its `events` and flat members (the request
 * time, the anti-forgery token) or plain objects of flat members (`serializedClientEventId`), with the context's text
 * given: the members written by the rules the events are written by (an epoch-millisecond `requestTimeMs` through the
 * two halves, not V8's slow double-to-text path), so no `JSON.stringify` runs for the request. `undefined` for any other body, which the caller writes otherwise. `rest` must have no
 * integer-like key (they would come first) and no `toJSON`.
 */
export function stringifyLogRequest(contextText: string, rest: Record<string, unknown>): string | undefined {
  let before = `{"context":${contextText}`;
  let after = '';
  let events: unknown;
  let found = false;
  for (const key in rest) {
    if (!Object.hasOwn(rest, key)) return undefined;
    const value = rest[key];
    if (key === 'events') {
      events = value;
      found = true;
      continue;
    }
    const text = memberText(value);
    if (text === undefined) return undefined;
    if (found) after += `,${quote(key)}:${text}`;
    else before += `,${quote(key)}:${text}`;
  }
  return found ? stringifyLogEvents(events, `${before},"events":`, `${after}}`) : undefined;
}

/** Arrays of events whose every `clientEventId` is known to need no escaping (see {@link markPlainClientEventIds}). */
const plainIdArrays = new WeakSet<readonly unknown[]>();

/**
 * Tells {@link stringifyLogEvents} (and {@link logEventTexts}) that no `clientEventId` of these events needs escaping, so
 * they are not scanned (the log sink makes every id of a page id it checked once and a sequence number). Only for
 * events nobody changes later.
 */
export function markPlainClientEventIds(events: readonly unknown[]): void {
  plainIdArrays.add(events);
}

/** True when `JSON.stringify` writes the page id of `{pageId}:{sequence}` ids as it is (see {@link markPlainClientEventIds}). */
export const isPlainClientEventIdPrefix = (pageId: string): boolean => isPlain(pageId);

/**
 * The text of each event of {@link stringifyLogEvents} (`[` + their join by `,` + `]` is the array's text); `undefined`
 * when the caller must serialise natively. The log sink's path is {@link stringifyLogEvents}; this form is for the tests
 * that compare each event's text with `JSON.stringify`.
 */
export function logEventTexts(events: unknown): string[] | undefined {
  if (!Array.isArray(events) || getPrototypeOf(events) !== Array.prototype || (events as { toJSON?: unknown }).toJSON !== undefined) return undefined;
  const plainIds = plainIdArrays.has(events);
  const texts = new Array<string>(events.length);
  for (let e = 0; e < events.length; e++) {
    const text = logEventText(events[e], plainIds);
    if (text === undefined) return undefined;
    texts[e] = text;
  }
  return texts;
}
