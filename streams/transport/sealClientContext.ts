import type { ClientContext } from './buildClientContext';

/**
 * What every request built with a sealed context derives from it, computed once per context: its JSON text
 * (the body's `"context"` member) and the `X-Youtube-Ad-Signals` header value.
 */
interface Derived {
  text?: string;
  adSignals?: string;
}

/** Contexts made by {@link sealClientContext}: deeply frozen, so what is derived from them can never go stale. */
const sealed = new WeakMap<object, Derived>();

const objectPrototype = Object.prototype;
const arrayPrototype = Array.prototype;

/**
 * A deeply frozen copy of `value` when it is plain data (plain objects, arrays, strings, finite or not numbers,
 * booleans, null; `undefined` members are kept, as `JSON.stringify` leaves them out either way); `undefined` when it
 * holds anything else (a class instance, a `toJSON`, a function, a getter, a cycle deeper than `depth`), whose text
 * could change without the copy seeing it.
 */
function frozenCopy(value: unknown, depth: number): { value: unknown } | undefined {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' ? undefined : { value };
  }
  if (depth > 16) return undefined;
  const proto = Object.getPrototypeOf(value);
  if (proto === arrayPrototype) {
    const items = value as unknown[];
    // Own members beside the items (a `toJSON`, say) could change the text: not sealed.
    if (Object.keys(items).length !== items.length) return undefined;
    const copy = new Array<unknown>(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = frozenCopy(items[i], depth + 1);
      if (!item) return undefined;
      copy[i] = item.value;
    }
    return { value: Object.freeze(copy) };
  }
  if (proto !== objectPrototype && proto !== null) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    // `__proto__` would set the copy's prototype instead of adding the member: not sealed (written afresh).
    if (!('value' in descriptor) || key === 'toJSON' || key === '__proto__') return undefined;
    const member = frozenCopy(descriptor.value, depth + 1);
    if (!member) return undefined;
    copy[key] = member.value;
  }
  return { value: Object.freeze(copy) };
}

/**
 * The context as it is, made immutable: a deeply frozen copy of it (same members, same order, so the same JSON), which
 * {@link clientContextText} and {@link clientContextAdSignals} serve from a cache keyed by the object. Mutation is
 * impossible by construction (a frozen object throws in strict code), so a cached text can never be stale. A context
 * holding anything but plain data is returned as it is, not sealed: its text is written for every request.
 */
export function sealClientContext(context: ClientContext): ClientContext {
  if (sealed.has(context)) return context;
  const copy = frozenCopy(context, 0);
  if (!copy) return context;
  const result = copy.value as ClientContext;
  sealed.set(result, {});
  return result;
}

/** True for a context made by {@link sealClientContext}. */
export const isSealedClientContext = (context: object): boolean => sealed.has(context);

/** `JSON.stringify(context)`, written once per sealed context. */
export function clientContextText(context: ClientContext): string {
  const derived = sealed.get(context);
  if (!derived) return JSON.stringify(context);
  if (derived.text === undefined) {
    derived.text = JSON.stringify(context);
    Number(derived.text); // flat: every body copies it (see `flat` in stringifyLogEvents)
  }
  return derived.text;
}

/** The `X-Youtube-Ad-Signals` header value of the context's ad-signal info, `undefined` without any; once per sealed context. */
export function clientContextAdSignals(context: ClientContext): string | undefined {
  const derived = sealed.get(context);
  if (derived && 'adSignals' in derived) return derived.adSignals;
  const params = context.adSignalsInfo?.params;
  const value = params && params.length > 0 ? new URLSearchParams(params.map(({ key, value }) => [key, value])).toString() : undefined;
  if (derived) derived.adSignals = value;
  return value;
}
