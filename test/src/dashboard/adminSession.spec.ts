import { ADMIN_TOKEN_STORAGE_KEY, createAdminSession } from '../../../src/dashboard/adminSession';

function effects(href: string, stored: Record<string, string> = {}) {
  const storage = new Map(Object.entries(stored));
  const replaced: string[] = [];
  return {
    storage,
    replaced,
    effects: {
      location: { href },
      history: {
        state: { kept: true },
        replaceState: jest.fn((_state: unknown, _title: string, url?: string | URL | null) => void replaced.push(String(url))),
      },
      storage: {
        getItem: (k: string) => storage.get(k) ?? null,
        setItem: (k: string, v: string) => void storage.set(k, v),
        removeItem: (k: string) => void storage.delete(k),
      },
    },
  };
}
const current = (session: ReturnType<typeof createAdminSession>) => {
  let value: string | null | undefined;
  session.token$.subscribe((t) => (value = t)).unsubscribe();
  return value;
};

describe('createAdminSession', () => {
  it('takes the token from the sign-in link, keeps it for the tab, and removes it from the address (other parameters stay)', () => {
    const { effects: e, storage, replaced } = effects('http://proxy.example/collector?view=x&token=s3cret%2Bt&b=2#events');
    const session = createAdminSession(e);
    expect(current(session)).toBe('s3cret+t');
    expect(storage.get(ADMIN_TOKEN_STORAGE_KEY)).toBe('s3cret+t');
    expect(replaced).toEqual(['/collector?view=x&b=2#events']);
    expect(e.history.replaceState).toHaveBeenCalledWith({ kept: true }, '', '/collector?view=x&b=2#events');
  });

  it('without a link, reads the token kept by this tab; without either, is signed out', () => {
    expect(current(createAdminSession(effects('http://h/collector', { [ADMIN_TOKEN_STORAGE_KEY]: 'kept' }).effects))).toBe('kept');
    const { effects: e, replaced } = effects('http://h/collector/');
    expect(current(createAdminSession(e))).toBeNull();
    expect(replaced).toEqual([]);
  });

  it('an empty ?token= is removed from the address and changes nothing', () => {
    const { effects: e, replaced } = effects('http://h/collector?token=', { [ADMIN_TOKEN_STORAGE_KEY]: 'kept' });
    expect(current(createAdminSession(e))).toBe('kept');
    expect(replaced).toEqual(['/collector']);
  });

  it('signs in (trimmed; emitting again even for the same token) and out', () => {
    const { effects: e, storage } = effects('http://h/collector');
    const session = createAdminSession(e);
    const seen: (string | null)[] = [];
    session.token$.subscribe((t) => seen.push(t));
    session.signIn('  abc  ');
    session.signIn('abc');
    session.signIn('   ');
    expect(storage.get(ADMIN_TOKEN_STORAGE_KEY)).toBe('abc');
    session.signOut();
    expect(storage.has(ADMIN_TOKEN_STORAGE_KEY)).toBe(false);
    expect(seen).toEqual([null, 'abc', 'abc', null]);
  });

  it('works without storage (the browser refuses it): the token lives as long as the page', () => {
    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const { effects: e } = effects('http://h/collector?token=t1');
    const session = createAdminSession({ ...e, storage: throwing });
    expect(current(session)).toBe('t1');
    session.signIn('t2');
    expect(current(session)).toBe('t2');
    expect(current(createAdminSession({ ...e, location: { href: 'http://h/collector' }, storage: null }))).toBeNull();
  });
});
