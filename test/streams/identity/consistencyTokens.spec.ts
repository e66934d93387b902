import { createConsistencyTokenStore } from '../../../streams/identity/consistencyTokens';

const answer = (encryptedTokenJarContents: unknown, expirationSeconds?: unknown) => ({
  responseContext: { consistencyTokenJar: { encryptedTokenJarContents, ...(expirationSeconds !== undefined && { expirationSeconds }) } },
});

describe('createConsistencyTokenStore', () => {
  it('holds the jar of an answer until it expires, handed back as it came', () => {
    let now = 1_000_000;
    const store = createConsistencyTokenStore({ now: () => now });
    expect(store.current()).toEqual([]);
    store.absorb(answer('J1', '600'));
    expect(store.current()).toEqual([{ encryptedTokenJarContents: 'J1', expirationSeconds: '600' }]);
    now += 599_999; // 1 ms before 600 s are up
    expect(store.current()).toHaveLength(1);
    now += 1; // 600 s after the answer: expired
    expect(store.current()).toEqual([]);
  });

  it('lets the newest jar replace the older one', () => {
    let now = 0;
    const store = createConsistencyTokenStore({ now: () => now });
    store.absorb(answer('J1', '600'));
    now = 10_000;
    store.absorb(answer('J2', '5'));
    expect(store.current()).toEqual([{ encryptedTokenJarContents: 'J2', expirationSeconds: '5' }]);
    // The newer jar expires first: then none, not the older one.
    now = 15_000;
    expect(store.current()).toEqual([]);
  });

  it('ignores answers without a usable jar and keeps the one it holds', () => {
    const store = createConsistencyTokenStore({ now: () => 0 });
    store.absorb(answer('J1', '600'));
    for (const body of [
      undefined,
      null,
      'text',
      {},
      { responseContext: null },
      { responseContext: {} },
      { responseContext: { consistencyTokenJar: 'J' } },
      answer(''),
      answer(42, '600'),
      answer('J2', '-1'),
      answer('J2', 'soon'),
      answer('J2', ''),
      answer('J2', -5),
      answer('J2', Infinity),
      answer('J2', null),
    ]) {
      store.absorb(body);
    }
    expect(store.current()).toEqual([{ encryptedTokenJarContents: 'J1', expirationSeconds: '600' }]);
  });

  it('keeps a jar without expirationSeconds until replaced or cleared, and takes a numeric one', () => {
    let now = 0;
    const store = createConsistencyTokenStore({ now: () => now });
    store.absorb(answer('J1'));
    now = 1e12;
    expect(store.current()).toEqual([{ encryptedTokenJarContents: 'J1' }]);
    store.absorb(answer('J2', 2));
    expect(store.current()).toEqual([{ encryptedTokenJarContents: 'J2', expirationSeconds: '2' }]);
    store.clear();
    expect(store.current()).toEqual([]);
  });

  it('treats a zero lifetime as already expired', () => {
    const store = createConsistencyTokenStore({ now: () => 5 });
    store.absorb(answer('J1', '0'));
    expect(store.current()).toEqual([]);
  });

  it('returns copies, so a caller cannot change the held jar', () => {
    const store = createConsistencyTokenStore({ now: () => 0 });
    store.absorb(answer('J1', '600'));
    store.current()[0].encryptedTokenJarContents = 'changed';
    expect(store.current()[0].encryptedTokenJarContents).toBe('J1');
  });
});
