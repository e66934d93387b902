/** The name of the preference cookie (spec §5, §9). */
export const PREFERENCE_COOKIE_NAME = 'PREF';

/**
 * Reads the `PREF` cookie out of a `document.cookie` string into a record. The cookie's value is
 * `key=value&key2=value2`, each part URL-encoded. Tolerant of anything a browser or another script left there:
 * a pair without `=`, with an empty key, a key that is not word characters, or a part that does not URL-decode is
 * skipped; a quoted value is unquoted; a later duplicate key wins. Flag keys (`f1`, `f6`…) are kept: they are not
 * settable through the store, but they are preserved when it rewrites the cookie.
 *
 * When the cookie string holds `PREF` more than once (cookies of several paths), the first is read: browsers list
 * the most specific path first.
 *
 * ```
 * 'a=1; PREF=f1=50000000&volume=40&lang=pt%20BR; b=2'  →  { f1: '50000000', volume: '40', lang: 'pt BR' }
 * ```
 */
export function parsePreferenceCookie(documentCookie: string): Record<string, string> {
  if (typeof documentCookie !== 'string') return {};
  const cookie = documentCookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${PREFERENCE_COOKIE_NAME}=`));
  if (cookie === undefined) return {};
  let value = cookie.slice(PREFERENCE_COOKIE_NAME.length + 1).trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  const entries: [string, string][] = [];
  for (const pair of value.split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    try {
      const key = decodeURIComponent(pair.slice(0, eq));
      const decoded = decodeURIComponent(pair.slice(eq + 1));
      if (/^\w+$/.test(key)) entries.push([key, decoded]);
    } catch {
      // a malformed %-escape: this pair only is skipped
    }
  }
  // Object.fromEntries defines own properties, so even a `__proto__` key is plain data.
  return Object.fromEntries(entries);
}
