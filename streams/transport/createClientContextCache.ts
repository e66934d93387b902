import { buildClientContext, type ClientContext, type ClientEnvironment, webDisplayMode } from './buildClientContext';
import { sealClientContext } from './sealClientContext';

/** An ad-signal pair the page adds after the environment's (`bisc`, `adst`). */
export interface AdSignal {
  key: string;
  value: string;
}

/** What a context was built from: a copy of the environment (plain data copied, anything else by identity) and more. */
interface Inputs {
  env: unknown;
  displayMode: string;
  pageSignals: unknown;
}

const objectPrototype = Object.prototype;
const arrayPrototype = Array.prototype;
const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === objectPrototype || proto === arrayPrototype || proto === null;
};

/**
 * A copy of `value` to compare later inputs with: plain objects and arrays copied member by member (so a change made
 * in place to what the caller passed is seen), anything else (functions, class instances such as the browser's
 * `NavigatorUAData`) kept by identity.
 */
function snapshot(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 16 || !isPlain(value)) return value;
  if (Array.isArray(value)) return value.map((item) => snapshot(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = snapshot((value as Record<string, unknown>)[key], depth + 1);
  return copy;
}

/** True when `value` equals the {@link snapshot} `kept`: the same plain data, the same other objects. */
function sameAs(value: unknown, kept: unknown, depth = 0): boolean {
  if (value === kept) return typeof value !== 'object' || value === null || !isPlain(value);
  if (typeof value !== 'object' || value === null || typeof kept !== 'object' || kept === null) return Number.isNaN(value) && Number.isNaN(kept);
  if (depth > 16 || !isPlain(value)) return false;
  if (Array.isArray(value)) {
    if (!Array.isArray(kept) || value.length !== kept.length) return false;
    for (let i = 0; i < value.length; i++) if (!sameAs(value[i], kept[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(kept)) return false;
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!Object.hasOwn(kept, key) || !sameAs((value as Record<string, unknown>)[key], (kept as Record<string, unknown>)[key], depth + 1)) return false;
    count++;
  }
  return count === Object.keys(kept).length;
}

/**
 * The page's client contexts (spec §3), one per request, reused while nothing they are made of changed (issue 15).
 *
 * `contextFor(env, pageSignals)` is `buildClientContext(env)` with `pageSignals` appended to its ad-signal info, as
 * the page builds every request's context, except that it returns **the same object** as the call before when the
 * environment snapshot is equal by value to the one that context was built from (every plain member compared, in
 * order; a class instance such as the browser's `NavigatorUAData`, or a function, by identity), the display mode its
 * `matchMedia` answers now is the same (a frame going fullscreen changes it), and so are `pageSignals`. A context is
 * a pure function of those (see {@link buildClientContext}), so the reused one is exactly the one a fresh build would
 * give.
 *
 * Every context it returns is sealed ({@link sealClientContext}): deeply frozen, so nobody can change it in place
 * after it was handed out, and the request builder writes its JSON text and ad-signal header once per context instead
 * of once per request. The inputs are kept as a copy, so a fact the page changes in place (a `configInfo` object
 * mutated rather than replaced) still makes a new context.
 */
export function createClientContextCache(): (env: ClientEnvironment, pageSignals?: readonly AdSignal[]) => ClientContext {
  let last: { inputs: Inputs; context: ClientContext } | undefined;
  return (env, pageSignals = []) => {
    const displayMode = webDisplayMode(env.matchMedia);
    if (last && last.inputs.displayMode === displayMode && sameAs(env, last.inputs.env) && sameAs(pageSignals, last.inputs.pageSignals)) {
      return last.context;
    }
    const inputs: Inputs = { env: snapshot(env), displayMode, pageSignals: snapshot(pageSignals) };
    const context = buildClientContext(env);
    inputs.displayMode = context.client.mainAppWebInfo.webDisplayMode; // what it was built with
    if (pageSignals.length > 0) context.adSignalsInfo = { params: [...(context.adSignalsInfo?.params ?? []), ...pageSignals] };
    last = { inputs, context: sealClientContext(context) };
    return last.context;
  };
}
