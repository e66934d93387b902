import type { HostInbound } from './hostTypes';

const isId = (v: unknown): v is number | string => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length > 0 && v.length <= 100);

/**
 * Reads the JSON value of a message the gate accepted (`hostGate`) as a host message (host-protocol §1): an object
 * with `event` `listening` or `command`; anything else (an array, a primitive, an unknown event, a command without a
 * string `func`) is `null` and dropped silently. Never throws.
 *
 * `args` missing, `null` or `""` becomes `[]`; a single non-array value becomes a one-element list (lenient). An `id`
 * that is neither a finite number nor a short string is dropped. Only the fields named here are read, so keys such as
 * `__proto__` or `constructor` in the payload have no effect.
 */
export function hostInboundOf(value: unknown): HostInbound | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  const own = (k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
  const event = own('event');
  const id = isId(own('id')) ? (own('id') as number | string) : undefined;
  const channel = typeof own('channel') === 'string' ? (own('channel') as string) : undefined;
  if (event === 'listening') return { event, ...(id !== undefined && { id }), ...(channel !== undefined && { channel }) };
  if (event !== 'command') return null;
  const func = own('func');
  if (typeof func !== 'string' || func.length === 0 || func.length > 100) return null;
  const rawArgs = own('args');
  const args = rawArgs === undefined || rawArgs === null || rawArgs === '' ? [] : Array.isArray(rawArgs) ? rawArgs : [rawArgs];
  return { event, func, args, ...(id !== undefined && { id }), ...(channel !== undefined && { channel }) };
}
