import {
  createPreferenceStore,
  parsePreferenceCookie,
  PREFERENCE_COOKIE_NAME,
  PreferenceError,
  serializePreferenceCookie,
  validatePreference,
  validatePreferenceKey,
} from '../../../streams/identity/preferences';
import { PREFERENCE_COOKIE_LIFETIME_S } from '../../../streams/timing';

/** A `document.cookie` stand-in: assignments set one cookie (Max-Age=0 deletes it), reads list them all. */
function fakeDocumentCookie(initial: Record<string, string> = {}) {
  const jar = new Map(Object.entries(initial));
  const writes: string[] = [];
  return {
    writes,
    readCookie: () => [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
    writeCookie: (cookie: string) => {
      writes.push(cookie);
      const [pair, ...attributes] = cookie.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      if (attributes.includes('Max-Age=0')) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1));
    },
  };
}

describe('validatePreference (spec §5)', () => {
  it('accepts word-character keys with any non-null value', () => {
    for (const [key, value] of [
      ['volume', '40'],
      ['captions_lang', ''],
      ['f', 0],
      ['fx1', false],
      ['F1', 'x'],
      ['f1a', 'x'],
      ['_', 'x'],
    ] as const) {
      expect(() => validatePreference(key, value)).not.toThrow();
    }
  });

  it.each(['', 'a-b', 'a b', 'a.b', 'é', 'a=b', 'a&b', 'vol\n'])('refuses the key %j: word characters only', (key) => {
    const error = (() => {
      try {
        validatePreference(key, 'x');
      } catch (e) {
        return e;
      }
    })() as PreferenceError;
    expect(error).toBeInstanceOf(PreferenceError);
    expect(error.code).toBe('invalid_key');
    expect(error.key).toBe(key);
    expect(error.message).toBe(`Preference key "${key}" must be word characters only`);
  });

  it.each(['f1', 'f6', 'f0', 'f123456789'])('refuses the reserved flag key %s', (key) => {
    expect(() => validatePreference(key, 'x')).toThrow(`Preference key "${key}" is reserved: keys shaped like f followed by a number are not allowed`);
    expect(() => validatePreference(key, 'x')).toThrow(expect.objectContaining({ code: 'reserved_key' }));
  });

  it('refuses a null value (and an undefined one) with the exact message', () => {
    expect(() => validatePreference('volume', null)).toThrow(new PreferenceError('null_value', 'volume'));
    expect(new PreferenceError('null_value', 'volume').message).toBe('Preference "volume" cannot be null');
    expect(() => validatePreference('volume', undefined)).toThrow(expect.objectContaining({ code: 'null_value' }));
  });

  it('checks the key before the value', () => {
    expect(() => validatePreference('f1', null)).toThrow(expect.objectContaining({ code: 'reserved_key' }));
    expect(() => validatePreference('a-b', null)).toThrow(expect.objectContaining({ code: 'invalid_key' }));
  });

  it('checks keys alone for removal', () => {
    expect(() => validatePreferenceKey('volume')).not.toThrow();
    expect(() => validatePreferenceKey('f2')).toThrow(PreferenceError);
    expect(() => validatePreferenceKey('a b')).toThrow(PreferenceError);
  });

  it('is a named Error subclass', () => {
    const error = new PreferenceError('invalid_key', 'a b');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('PreferenceError');
  });
});

describe('parsePreferenceCookie', () => {
  it('reads the URL-encoded pairs of PREF out of a document.cookie string', () => {
    expect(PREFERENCE_COOKIE_NAME).toBe('PREF');
    expect(parsePreferenceCookie('a=1; PREF=f1=50000000&volume=40&lang=pt%20BR&x=a%3Db%26c; b=2')).toEqual({
      f1: '50000000',
      volume: '40',
      lang: 'pt BR',
      x: 'a=b&c',
    });
  });

  it('is empty without a PREF cookie', () => {
    expect(parsePreferenceCookie('')).toEqual({});
    expect(parsePreferenceCookie('XPREF=a=1; PREFS=b=2')).toEqual({});
    expect(parsePreferenceCookie('PREF=')).toEqual({});
    expect(parsePreferenceCookie(undefined as unknown as string)).toEqual({});
  });

  it('skips bad pairs and keeps the good ones', () => {
    const cookie = 'PREF=novalue&=empty&ok=1&bad%ZZ=1&v=%E0%A4%A&a-b=2&&good=yes%20it%20is&same=1&same=2';
    expect(parsePreferenceCookie(cookie)).toEqual({ ok: '1', good: 'yes it is', same: '2' });
  });

  it('reads the first PREF and unquotes a quoted value', () => {
    expect(parsePreferenceCookie('PREF="a=1&b=2"; PREF=c=3')).toEqual({ a: '1', b: '2' });
  });

  it('keeps __proto__ and constructor as plain data', () => {
    const prefs = parsePreferenceCookie('PREF=__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(prefs)).toBe(Object.prototype);
    expect(Object.keys(prefs)).toEqual(['__proto__', 'constructor']);
    expect(prefs.constructor).toBe('y');
  });
});

describe('serializePreferenceCookie', () => {
  it('writes a two-year SameSite=None; Secure cookie in a secure context (production constant)', () => {
    expect(PREFERENCE_COOKIE_LIFETIME_S).toBe(63_072_000);
    expect(serializePreferenceCookie({ f1: '50000000', volume: '40' }, { secure: true })).toBe(
      'PREF=f1=50000000&volume=40; Max-Age=63072000; Path=/; SameSite=None; Secure',
    );
  });

  it('writes SameSite=Lax without Secure otherwise, and honours the path and lifetime', () => {
    expect(serializePreferenceCookie({ volume: '40' }, { secure: false })).toBe('PREF=volume=40; Max-Age=63072000; Path=/; SameSite=Lax');
    expect(serializePreferenceCookie({ a: '1' }, { secure: false, maxAgeS: 60, path: '/embed' })).toBe('PREF=a=1; Max-Age=60; Path=/embed; SameSite=Lax');
  });

  it('URL-encodes every value, so no ; , space or quote reaches the cookie', () => {
    const cookie = serializePreferenceCookie({ lang: 'pt BR', odd: 'a=b&c;d,"e"\\' }, { secure: true });
    expect(cookie.startsWith('PREF=lang=pt%20BR&odd=a%3Db%26c%3Bd%2C%22e%22%5C; ')).toBe(true);
    expect(parsePreferenceCookie(cookie.split(';')[0] + '; other=1')).toEqual({ lang: 'pt BR', odd: 'a=b&c;d,"e"\\' });
  });

  it('deletes the cookie when nothing is left (Max-Age=0)', () => {
    expect(serializePreferenceCookie({}, { secure: true })).toBe('PREF=; Max-Age=0; Path=/; SameSite=None; Secure');
  });
});

describe('createPreferenceStore', () => {
  it('sets, gets and lists preferences, writing the whole cookie each time', () => {
    const doc = fakeDocumentCookie();
    const store = createPreferenceStore({ ...doc, secure: true });
    expect(store.get('volume')).toBeUndefined();
    store.set('volume', 40);
    store.set('muted', false);
    store.set('lang', 'pt BR');
    expect(store.get('volume')).toBe('40');
    expect(store.get('muted')).toBe('false');
    expect(store.all()).toEqual({ volume: '40', muted: 'false', lang: 'pt BR' });
    expect(doc.writes.at(-1)).toBe('PREF=volume=40&muted=false&lang=pt%20BR; Max-Age=63072000; Path=/; SameSite=None; Secure');
  });

  it('preserves the platform flag keys already in the cookie when rewriting it', () => {
    const doc = fakeDocumentCookie({ PREF: 'f1=50000000&f6=400', other: 'keep' });
    const store = createPreferenceStore({ ...doc, secure: false });
    store.set('volume', '40');
    expect(doc.writes).toEqual(['PREF=f1=50000000&f6=400&volume=40; Max-Age=63072000; Path=/; SameSite=Lax']);
    store.remove('volume');
    expect(doc.writes[1]).toBe('PREF=f1=50000000&f6=400; Max-Age=63072000; Path=/; SameSite=Lax');
    expect(store.get('f1')).toBe('50000000');
  });

  it('validates first: a refused preference throws PreferenceError and writes nothing', () => {
    const doc = fakeDocumentCookie({ PREF: 'f1=1' });
    const store = createPreferenceStore({ ...doc, secure: true });
    const seen: unknown[] = [];
    store.changes$.subscribe((prefs) => seen.push(prefs));
    expect(() => store.set('f1', '2')).toThrow(PreferenceError);
    expect(() => store.set('a b', '2')).toThrow('Preference key "a b" must be word characters only');
    expect(() => store.set('volume', null)).toThrow('Preference "volume" cannot be null');
    expect(() => store.remove('f1')).toThrow(PreferenceError);
    expect(doc.writes).toEqual([]);
    expect(seen).toEqual([]);
    expect(store.all()).toEqual({ f1: '1' });
  });

  it('reads the cookie afresh, so another embed’s write is seen', () => {
    const doc = fakeDocumentCookie({ PREF: 'volume=10' });
    const store = createPreferenceStore({ ...doc, secure: true });
    doc.writeCookie('PREF=volume=90; Max-Age=63072000; Path=/');
    expect(store.get('volume')).toBe('90');
    store.set('muted', true);
    expect(store.all()).toEqual({ volume: '90', muted: 'true' });
  });

  it('emits every pair after each write through changes$', () => {
    const doc = fakeDocumentCookie();
    const store = createPreferenceStore({ ...doc, secure: true });
    const seen: Record<string, string>[] = [];
    const subscription = store.changes$.subscribe((prefs) => seen.push(prefs));
    store.set('a', 1);
    store.set('b', 'x');
    store.remove('a');
    store.remove('absent'); // nothing to remove: no write, no emission
    subscription.unsubscribe();
    store.set('c', 'late');
    expect(seen).toEqual([{ a: '1' }, { a: '1', b: 'x' }, { b: 'x' }]);
    expect(doc.writes).toHaveLength(4);
  });

  it('deletes the cookie when the last preference is removed', () => {
    const doc = fakeDocumentCookie({ PREF: 'volume=10' });
    const store = createPreferenceStore({ ...doc, secure: true });
    store.remove('volume');
    expect(doc.writes).toEqual(['PREF=; Max-Age=0; Path=/; SameSite=None; Secure']);
    expect(doc.readCookie()).toBe('');
  });

  it('does not read inherited properties as preferences', () => {
    const store = createPreferenceStore({ ...fakeDocumentCookie(), secure: true });
    expect(store.get('constructor')).toBeUndefined();
    expect(store.get('toString')).toBeUndefined();
  });

  it('uses the given lifetime', () => {
    const doc = fakeDocumentCookie();
    createPreferenceStore({ ...doc, secure: true, maxAgeS: 5 }).set('a', 'b');
    expect(doc.writes).toEqual(['PREF=a=b; Max-Age=5; Path=/; SameSite=None; Secure']);
  });
});
