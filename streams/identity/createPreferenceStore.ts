import { type Observable, Subject } from 'rxjs';
import { parsePreferenceCookie } from './parsePreferenceCookie';
import { serializePreferenceCookie } from './serializePreferenceCookie';
import { validatePreference, validatePreferenceKey } from './validatePreference';
import { numberText } from '../shared/numberText';

/** A value a preference may be set to; it is stored as its string form (`true` → `'true'`, `40` → `'40'`). */
export type PreferenceValue = string | number | boolean | null;

export interface PreferenceStoreOptions {
  /** Reads the current `document.cookie` (read afresh on every call, so another embed's write is seen). */
  readCookie: () => string;
  /** Assigns one cookie string to `document.cookie`. */
  writeCookie: (cookie: string) => void;
  /** See `serializePreferenceCookie`: `SameSite=None; Secure` when true, `SameSite=Lax` otherwise. */
  secure: boolean;
  /** Cookie lifetime; `PREFERENCE_COOKIE_LIFETIME_S` (63072000 s) by default. */
  maxAgeS?: number;
}

export interface PreferenceStore {
  /** The stored value of a key, or undefined. */
  get(key: string): string | undefined;
  /**
   * Validates (spec §5) and stores a preference; the whole cookie is rewritten with every other pair kept, the
   * platform's flag keys (`f1`…) included.
   * @throws PreferenceError, and then nothing is written.
   */
  set(key: string, value: PreferenceValue): void;
  /**
   * Removes a preference (a no-op when it is absent). The key is validated like in `set`, so flag keys cannot be
   * removed through the store either.
   * @throws PreferenceError for an invalid or reserved key.
   */
  remove(key: string): void;
  /** Every stored pair, flag keys included. */
  all(): Record<string, string>;
  /** Every pair after each write made through this store (writes by other pages are not observed). */
  changes$: Observable<Record<string, string>>;
}

/**
 * The preference store of spec §5/§9, backed by the `PREF` cookie (63072000 s). The cookie is the only state: every
 * read parses it afresh and every write rewrites it whole.
 *
 * ```
 * cookie:  PREF=f1=50000000
 * set('volume', 40)   → PREF=f1=50000000&volume=40; Max-Age=63072000; Path=/; SameSite=None; Secure
 * set('f2', 'x')      → throws PreferenceError('reserved_key'), nothing written
 * ```
 */
export function createPreferenceStore({ readCookie, writeCookie, secure, maxAgeS }: PreferenceStoreOptions): PreferenceStore {
  const changes = new Subject<Record<string, string>>();
  const all = (): Record<string, string> => parsePreferenceCookie(readCookie());
  const write = (prefs: Record<string, string>) => {
    writeCookie(serializePreferenceCookie(prefs, { secure, ...(maxAgeS !== undefined && { maxAgeS }) }));
    changes.next({ ...prefs });
  };
  return {
    get: (key) => {
      const prefs = all();
      return Object.hasOwn(prefs, key) ? prefs[key] : undefined;
    },
    set(key, value) {
      validatePreference(key, value);
      const prefs = new Map(Object.entries(all()));
      prefs.set(key, typeof value === 'number' ? numberText(value) : String(value));
      write(Object.fromEntries(prefs));
    },
    remove(key) {
      validatePreferenceKey(key);
      const prefs = new Map(Object.entries(all()));
      if (!prefs.delete(key)) return;
      write(Object.fromEntries(prefs));
    },
    all,
    changes$: changes.asObservable(),
  };
}
