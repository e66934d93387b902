import { PREFERENCE_COOKIE_LIFETIME_S } from '../timing';
import { PREFERENCE_COOKIE_NAME } from './parsePreferenceCookie';
import { numberText } from '../shared/numberText';

export interface PreferenceCookieOptions {
  /** Cookie lifetime. */
  maxAgeS?: number;
  /**
   * A secure context (https): the cookie is then `SameSite=None; Secure`, so it also works in a frame on another site;
   * otherwise (plain http, e.g. a local server) `SameSite=Lax`, which browsers accept without `Secure`.
   */
  secure: boolean;
  path?: string;
}

/**
 * The string to assign to `document.cookie` to store the preferences (spec §5, §9): `PREF=` then `key=value` pairs
 * joined with `&`, each part URL-encoded, in the record's order, then the attributes.
 *
 * ```
 * { f1: '50000000', volume: '40' }, { secure: true }
 *   → 'PREF=f1=50000000&volume=40; Max-Age=63072000; Path=/; SameSite=None; Secure'
 * { volume: '40' }, { secure: false }
 *   → 'PREF=volume=40; Max-Age=63072000; Path=/; SameSite=Lax'
 * ```
 *
 * An empty record gives `Max-Age=0`: the cookie is deleted rather than kept empty for two years.
 */
export function serializePreferenceCookie(
  prefs: Readonly<Record<string, string>>,
  { maxAgeS = PREFERENCE_COOKIE_LIFETIME_S, secure, path = '/' }: PreferenceCookieOptions,
): string {
  const value = Object.entries(prefs)
    .map(([key, v]) => `${encodeURIComponent(key)}=${encodeURIComponent(v)}`)
    .join('&');
  const maxAge = value === '' ? 0 : maxAgeS;
  return `${PREFERENCE_COOKIE_NAME}=${value}; Max-Age=${numberText(maxAge)}; Path=${path}; ${secure ? 'SameSite=None; Secure' : 'SameSite=Lax'}`;
}
