import { filter, type Observable } from 'rxjs';
import { eventsOf } from './eventsOf';

/**
 * One uncaught error of the page (spec §8 "Window errors and unhandled promise rejections are reported"), read out of
 * its event into plain data at the moment it happened: nothing here holds on to the event or the thrown value.
 */
export interface WindowError {
  /**
   * `error`: an uncaught exception (`ErrorEvent`); `unhandledrejection`: a promise rejected with no handler;
   * `handled`: an error the page caught and reports on purpose (see {@link handledError}).
   */
  kind: 'error' | 'unhandledrejection' | 'handled';
  /** The browser's message (`Uncaught Error: boom`), or the rejection reason described as text. Never empty. */
  message: string;
  /** The script URL the error came from, when the browser says. */
  file?: string;
  /** 1-based line and column in `file`, when the browser says (0 means "unknown" and is left out). */
  line?: number;
  column?: number;
  /** The thrown value's `stack`, when it has one. */
  stack?: string;
}

/** Prefix of the message of an unhandled rejection, so it reads apart from an uncaught exception. */
const REJECTION_PREFIX = 'Unhandled promise rejection: ';

/** Reads `value[key]` without ever throwing (a getter, a revoked proxy or a cross-realm object may throw). */
function read(value: unknown, key: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const position = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);

/**
 * Any thrown or rejected value as text, never throwing: an `Error` (or anything with a string `message`) as
 * `Name: message`, a string as itself, `undefined`/`null`/numbers as `String(value)`, an object as JSON (its
 * `toString` when JSON fails, e.g. a cycle), and `(unprintable value)` when even that throws.
 */
export function describeThrown(value: unknown): string {
  if (typeof value === 'string') return value === '' ? '(empty string)' : value;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value);
  const message = read(value, 'message');
  if (typeof message === 'string') {
    const name = text(read(value, 'name')) ?? 'Error';
    return message === '' ? name : `${name}: ${message}`;
  }
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // a cycle, a BigInt, a throwing toJSON: fall through to toString
  }
  try {
    return Object.prototype.toString.call(value);
  } catch {
    return '(unprintable value)';
  }
}

/** An `error` event as data; `undefined` for an `error` event that is not a script error (no message, no error). */
function fromErrorEvent(event: Event): WindowError | undefined {
  const error = read(event, 'error');
  const message = text(read(event, 'message')) ?? (error !== undefined && error !== null ? describeThrown(error) : undefined);
  if (message === undefined) return undefined;
  const file = text(read(event, 'filename'));
  const line = position(read(event, 'lineno'));
  const column = position(read(event, 'colno'));
  const stack = text(read(error, 'stack'));
  return {
    kind: 'error',
    message,
    ...(file !== undefined ? { file } : {}),
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
    ...(stack !== undefined ? { stack } : {}),
  };
}

/** An `unhandledrejection` event as data: the reason may be an `Error` or any value at all. */
function fromRejectionEvent(event: Event): WindowError {
  const reason = read(event, 'reason');
  const stack = text(read(reason, 'stack'));
  return { kind: 'unhandledrejection', message: REJECTION_PREFIX + describeThrown(reason), ...(stack !== undefined ? { stack } : {}) };
}

/**
 * The page's uncaught errors: `error` events (an `ErrorEvent`'s message, filename, lineno, colno and `error.stack`)
 * and `unhandledrejection` events (the `reason`, an `Error` or any value), as plain {@link WindowError} records. An
 * `error` event with neither a message nor an error (a synthetic `new Event('error')`) is not a script error and is
 * skipped. Reading an event never throws. The target is a parameter (never a global); listeners are removed on
 * unsubscribe. Events are read by their fields, not `instanceof`, so plain `EventTarget`s work in tests.
 *
 * ```
 * window:  ---error(boom)------unhandledrejection("nope")---
 * result:  ---e----------------r----------------------------
 * ```
 *
 * @param target the window (it receives both events; they do not bubble up from elements).
 */
export function windowErrors$(target: EventTarget): Observable<WindowError> {
  return eventsOf(target, ['error', 'unhandledrejection'], (e) => (e.type === 'error' ? fromErrorEvent(e) : fromRejectionEvent(e))).pipe(
    filter((e): e is WindowError => e !== undefined),
  );
}

/**
 * An error the page caught itself and still wants reported (a platform call's "API fetch failed"), as the same plain
 * record, so it goes through the same cap, de-duplication and truncation as an uncaught one. `context` (where it was
 * caught) prefixes the message, so two callers' identical errors read apart. Never throws, whatever was thrown.
 */
export function handledError(error: unknown, context?: string): WindowError {
  const stack = text(read(error, 'stack'));
  const message = describeThrown(error);
  return { kind: 'handled', message: context ? `${context}: ${message}` : message, ...(stack !== undefined ? { stack } : {}) };
}
