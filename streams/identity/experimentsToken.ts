import { forcedExperimentsToFlags, parseFlags } from '../config/playerConfig';
import { encodeBase64Url } from './base64url';
import { numberText } from '../shared/numberText';

/**
 * The `experimentsToken` of the client context (spec §3) for the forced experiments: a deterministic token, the
 * base64url of the flags sorted by name as `name=value&…` (values URL-encoded), so the same flags always give the same
 * token whatever their order.
 *
 * The input is a record (`{a: 1, b: false}`), a flags string (`a=1&b=false`, as `forcedExperimentsToFlags` makes) or
 * the raw `forced_experiments` player variable (`a=1,b`; normalised by `forcedExperimentsToFlags`). Names must be word
 * characters (1–100); other names, and in a string malformed parts, are dropped. Undefined when no flag is left.
 *
 * ```
 * { b: false, a: 1 }  →  base64url('a=1&b=false')  =  'YT0xJmI9ZmFsc2U'
 * 'b=false,a=1'       →  'YT0xJmI9ZmFsc2U'
 * ''  | {}  | undefined  →  undefined
 * ```
 */
export function experimentsTokenFor(flags: Record<string, string | boolean | number> | string | undefined): string | undefined {
  if (flags === undefined || flags === null) return undefined;
  const record = typeof flags === 'string' ? parseFlags(forcedExperimentsToFlags(flags)) : flags;
  if (typeof record !== 'object') return undefined;
  const pairs = Object.entries(record)
    .filter(([name, value]) => /^\w{1,100}$/.test(name) && ['string', 'boolean', 'number'].includes(typeof value))
    .map(([name, value]) => [name, typeof value === 'number' ? numberText(value) : String(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (pairs.length === 0) return undefined;
  return encodeBase64Url(pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&'));
}
