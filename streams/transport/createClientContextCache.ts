import { buildClientContext, type ClientContext, type ClientEnvironment, webDisplayMode } from './buildClientContext';
import { sealClientContext } from './sealClientContext';

/** An ad-signal pair the page adds after the environment's (`bisc`, `adst`). */
export interface AdSignal {
  key: string;
  value: string;
}

/** Markers of a plain object, an array and an object's end in a {@link Recording}. */
const OBJECT = Symbol('object');
const ARRAY = Symbol('array');
const END = Symbol('end');

/**
 * What a context was built from, as one flat list: the environment and the page signals walked in order — each plain
 * object as {@link OBJECT}, its own keys each followed by its value, {@link END}; each array as {@link ARRAY}, its
 * length, its items — and every other value (a string, a number, a function, a class instance such as the browser's
 * `NavigatorUAData`) as it is, compared by identity. A flat list is compared with one pass over the new inputs and no
 * allocation (it runs for every request); a nested copy costs far more.
 */
type Recording = unknown[];

/** Objects nested deeper than this are compared by identity (a context's inputs are 4 deep). */
const MAX_DEPTH = 16;

const objectPrototype = Object.prototype;
const arrayPrototype = Array.prototype;
const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === objectPrototype || proto === null;
};

function record(value: unknown, into: Recording, depth: number): void {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) into.push(value);
  else if (Array.isArray(value) && Object.getPrototypeOf(value) === arrayPrototype) {
    into.push(ARRAY, value.length);
    for (let i = 0; i < value.length; i++) record(value[i], into, depth + 1);
  } else if (isPlainObject(value)) {
    into.push(OBJECT);
    // Every enumerable key, own or inherited, in both walks: what `buildClientContext` reads is among them.
    for (const key in value) {
      into.push(key);
      record((value as Record<string, unknown>)[key], into, depth + 1);
    }
    into.push(END);
  } else into.push(value);
}

/** Where {@link matches} is in the recording it compares with. */
let cursor = 0;

/** True when `value` walks exactly as `recording` from {@link cursor} on (`Object.is` for every leaf). */
function matches(value: unknown, recording: Recording, depth: number): boolean {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) {
    const kept = recording[cursor++];
    // `Object.is` without its call: NaN equals NaN (0 and -0 are the same text, and equal here).
    return kept === value || (kept !== kept && value !== value);
  }
  if (Array.isArray(value) && Object.getPrototypeOf(value) === arrayPrototype) {
    if (recording[cursor++] !== ARRAY || recording[cursor++] !== value.length) return false;
    for (let i = 0; i < value.length; i++) if (!matches(value[i], recording, depth + 1)) return false;
    return true;
  }
  if (!isPlainObject(value)) return recording[cursor++] === value;
  if (recording[cursor++] !== OBJECT) return false;
  for (const key in value) {
    if (recording[cursor++] !== key || !matches((value as Record<string, unknown>)[key], recording, depth + 1)) return false;
  }
  return recording[cursor++] === END;
}

/** The inputs of a context: the environment, the display mode its `matchMedia` answered, the page signals. */
function recordInputs(env: ClientEnvironment, displayMode: string, pageSignals: readonly AdSignal[]): Recording {
  const recording: Recording = [displayMode];
  record(env, recording, 0);
  record(pageSignals, recording, 0);
  return recording;
}

function sameInputs(recording: Recording, env: ClientEnvironment, displayMode: string, pageSignals: readonly AdSignal[]): boolean {
  if (recording[0] !== displayMode) return false;
  cursor = 1;
  return matches(env, recording, 0) && matches(pageSignals, recording, 0) && cursor === recording.length;
}

/**
 * The page's client contexts (spec §3), one per request, reused while nothing they are made of changed.
 *
 * `contextFor(env, pageSignals)` is `buildClientContext(env)` with `pageSignals` appended to its ad-signal info, as
 * the page builds every request's context, except that it returns **the same object** as the call before when the
 * environment snapshot is equal by value to the one that context was built from (every plain member compared, in
 * order; a class instance such as the browser's `NavigatorUAData`, or a function, by identity), the display mode its
 * `matchMedia` answers now is the same (a frame going fullscreen changes it), and so are `pageSignals`. A context is
 * a pure function of those (see {@link buildClientContext}), so the reused one is exactly the one a fresh build would
 * give.
 *
 * Every context of plain data it returns is sealed ({@link sealClientContext}): deeply frozen, so nobody can change it
 * in place after it was handed out, and the request builder writes its JSON text and ad-signal header once per context
 * instead of once per request. One that cannot be sealed (a member that is not plain data) is reused as it is and
 * written afresh for every request; nothing in the page changes a context after it is built. The inputs are kept as a flat recording of their values, so a fact the page changes in place
 * (a `configInfo` object mutated rather than replaced) still makes a new context.
 */
export function createClientContextCache(): (env: ClientEnvironment, pageSignals?: readonly AdSignal[]) => ClientContext {
  let last: { recording: Recording; context: ClientContext } | undefined;
  return (env, pageSignals = []) => {
    const displayMode = webDisplayMode(env.matchMedia);
    if (last && sameInputs(last.recording, env, displayMode, pageSignals)) return last.context;
    const context = buildClientContext(env);
    if (pageSignals.length > 0) context.adSignalsInfo = { params: [...(context.adSignalsInfo?.params ?? []), ...pageSignals] };
    // Recorded with the display mode it was built with, and before anything else can change what was passed.
    last = { recording: recordInputs(env, context.client.mainAppWebInfo.webDisplayMode, pageSignals), context: sealClientContext(context) };
    return last.context;
  };
}
