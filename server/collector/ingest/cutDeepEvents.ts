/**
 * A bounded, iterative pass over a log request's JSON text before `JSON.parse` sees it, so that one poison event
 * never costs its neighbours. It checks the whole text's syntax with an explicit stack (no recursion a body can drive
 * past the call stack, and a linear cost whatever the nesting), and:
 *
 * - inside the top-level `events` array, cuts each value that would nest an event deeper than `maxEventDepth`
 *   (replacing it with `null`) and names that event's index, so the parse stays shallow and validation refuses that
 *   event alone, with its `clientEventId` still readable;
 * - anywhere else, refuses nesting deeper than `maxBodyDepth` (a request's metadata is never that deep).
 *
 * The cut text parses to the same value as the original wherever nothing was cut: the pass only removes whole values
 * it has checked are valid JSON.
 */
export type CutBody =
  | {
      ok: true;
      /** The body text with the too-deep values of events replaced by `null`. */
      text: string;
      /** Indices, in the `events` array that `JSON.parse` keeps (the last one), of the events cut for depth. */
      tooDeep: ReadonlySet<number>;
    }
  | { ok: false; problem: 'depth' | 'syntax'; message: string };

export interface CutLimits {
  /** Deepest nesting of one event, the event object itself being level 1. */
  maxEventDepth: number;
  /** Deepest nesting anywhere outside the events, the body itself being level 1. */
  maxBodyDepth: number;
}

const OBJECT = 1;
const ARRAY = 2;
/** What the pass expects next. */
const VALUE = 0;
const FIRST_VALUE_OR_CLOSE = 1;
const FIRST_KEY_OR_CLOSE = 2;
const KEY = 3;
const COLON = 4;
const COMMA_OR_CLOSE = 5;

const OPEN_OBJECT = 123; // {
const CLOSE_OBJECT = 125; // }
const OPEN_ARRAY = 91; // [
const CLOSE_ARRAY = 93; // ]
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON_CHAR = 58;
/** The body's own object and the events array: an event's level 1 is this many levels into the body, plus one. */
const EVENTS_ARRAY_DEPTH = 2;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPED = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));
const HEX = /^[0-9a-fA-F]{4}$/;

/** The index just after the JSON string starting at `start` (a quote), or -1 when it is not a valid string. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      const e = text.charCodeAt(i + 1);
      if (e === 117 /* u */) {
        if (!HEX.test(text.slice(i + 2, i + 6))) return -1;
        i += 5;
      } else if (ESCAPED.has(e)) i += 1;
      else return -1;
    }
  }
  return -1;
}

/** The index just after the number or literal starting at `start`, or -1 when there is none. */
function scalarEnd(text: string, start: number): number {
  for (const literal of ['true', 'false', 'null']) if (text.startsWith(literal, start)) return start + literal.length;
  NUMBER.lastIndex = start;
  return NUMBER.test(text) ? NUMBER.lastIndex : -1;
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** Cuts the too-deep values out of the events of a log request body's text (see the file comment). */
export function cutDeepEvents(text: string, { maxEventDepth, maxBodyDepth }: CutLimits): CutBody {
  // The container kind at each level (1-based); a level costs one character of text, so this is large enough.
  const stack = new Uint8Array(text.length + 1);
  let depth = 0;
  let next = VALUE;
  let done = false;
  let key: string | undefined; // the last key read in the top-level object
  let inEvents = false;
  let index = 0;
  let tooDeep = new Set<number>();
  let cutStart = -1;
  let cutDepth = 0;
  const pieces: string[] = [];
  let copied = 0;
  const syntax = (at: number): CutBody => ({
    ok: false,
    problem: 'syntax',
    message: at >= text.length ? 'Unexpected end of JSON input' : `Unexpected ${JSON.stringify(text.charAt(at))} at position ${at}`,
  });

  for (let i = 0; ;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (i >= text.length) break;
    if (done) return syntax(i);
    const c = text.charCodeAt(i);
    if (next === COLON) {
      if (c !== COLON_CHAR) return syntax(i);
      next = VALUE;
      i++;
      continue;
    }
    if (next === COMMA_OR_CLOSE || next === FIRST_KEY_OR_CLOSE || next === FIRST_VALUE_OR_CLOSE) {
      const closes = stack[depth] === OBJECT ? c === CLOSE_OBJECT && next !== FIRST_VALUE_OR_CLOSE : c === CLOSE_ARRAY && next !== FIRST_KEY_OR_CLOSE;
      if (closes) {
        if (cutStart >= 0 && depth === cutDepth) {
          pieces.push(text.slice(copied, cutStart), 'null');
          copied = i + 1;
          cutStart = -1;
        }
        if (inEvents && depth === EVENTS_ARRAY_DEPTH) inEvents = false;
        depth -= 1;
        done = depth === 0;
        next = COMMA_OR_CLOSE;
        i++;
        continue;
      }
      if (next === COMMA_OR_CLOSE) {
        if (c !== COMMA) return syntax(i);
        if (inEvents && depth === EVENTS_ARRAY_DEPTH) index += 1;
        next = stack[depth] === OBJECT ? KEY : VALUE;
        i++;
        continue;
      }
    }
    if (next === KEY || next === FIRST_KEY_OR_CLOSE) {
      const end = c === QUOTE ? stringEnd(text, i) : -1;
      if (end < 0) return syntax(i);
      if (depth === 1) key = JSON.parse(text.slice(i, end)) as string;
      next = COLON;
      i = end;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth += 1;
      stack[depth] = c === OPEN_OBJECT ? OBJECT : ARRAY;
      if (depth === EVENTS_ARRAY_DEPTH && stack[1] === OBJECT && key === 'events' && c === OPEN_ARRAY) {
        // A repeated key: JSON.parse keeps the last value, so the indices named are those of the last array.
        inEvents = true;
        index = 0;
        tooDeep = new Set();
      }
      if (cutStart < 0 && inEvents && depth - EVENTS_ARRAY_DEPTH > maxEventDepth) {
        cutStart = i;
        cutDepth = depth;
        tooDeep.add(index);
      } else if (!inEvents && depth > maxBodyDepth) {
        return { ok: false, problem: 'depth', message: `The body nests deeper than ${maxBodyDepth} levels` };
      }
      next = c === OPEN_OBJECT ? FIRST_KEY_OR_CLOSE : FIRST_VALUE_OR_CLOSE;
      i++;
      continue;
    }
    const end = c === QUOTE ? stringEnd(text, i) : scalarEnd(text, i);
    if (end < 0) return syntax(i);
    next = COMMA_OR_CLOSE;
    done = depth === 0;
    i = end;
  }
  if (!done) return syntax(text.length);
  pieces.push(text.slice(copied));
  return { ok: true, text: pieces.join(''), tooDeep };
}
