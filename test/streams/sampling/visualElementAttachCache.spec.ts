import { visualElementAttachCache } from '../../../streams/sampling/visualElementAttachCache';
import { VISUAL_ELEMENT_ATTACH_CACHE_LIMIT } from '../../../streams/timing';

describe('visualElementAttachCache', () => {
  it('holds 1000 entries and evicts the oldest on entry 1001 (production constant)', () => {
    expect(VISUAL_ELEMENT_ATTACH_CACHE_LIMIT).toBe(1_000);
    const cache = visualElementAttachCache<number, string>();
    expect(cache.limit).toBe(1_000);
    for (let i = 1; i <= 1_000; i++) cache.set(i, `ve${i}`);
    expect(cache.size).toBe(1_000);
    expect(cache.has(1)).toBe(true);
    cache.set(1_001, 've1001');
    expect(cache.size).toBe(1_000);
    expect(cache.has(1)).toBe(false);
    expect(cache.get(2)).toBe('ve2');
    expect(cache.get(1_001)).toBe('ve1001');
  });

  it('evicts the least recently used entry, not the least recently inserted one', () => {
    const cache = visualElementAttachCache<string, number>(3);
    cache.set('a', 1).set('b', 2).set('c', 3);
    expect(cache.get('a')).toBe(1); // a becomes the most recent: order b c a
    cache.set('d', 4); // evicts b
    expect([...['a', 'b', 'c', 'd']].map((k) => cache.has(k))).toEqual([true, false, true, true]);
    cache.set('c', 30); // re-setting refreshes c: order a d c
    cache.set('e', 5); // evicts a
    expect(cache.has('a')).toBe(false);
    expect(cache.get('c')).toBe(30);
  });

  it('has() does not refresh an entry', () => {
    const cache = visualElementAttachCache<string>(2);
    cache.set('a', true).set('b', true);
    expect(cache.has('a')).toBe(true);
    cache.set('c', true);
    expect(cache.has('a')).toBe(false);
  });

  it('stores falsy values and tells them apart from absent keys', () => {
    const cache = visualElementAttachCache<string, number | undefined>(2);
    cache.set('zero', 0).set('undef', undefined);
    expect(cache.get('zero')).toBe(0);
    expect(cache.has('undef')).toBe(true);
    expect(cache.get('missing')).toBeUndefined();
  });

  it('deletes and clears', () => {
    const cache = visualElementAttachCache<string>(2);
    cache.set('a', true).set('b', true);
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    expect(cache.size).toBe(1);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('rejects a limit that is not a positive integer with a clear error', () => {
    for (const bad of [0, -1, 1.5, NaN, Infinity]) {
      expect(() => visualElementAttachCache(bad)).toThrow(/limit must be a positive integer/);
    }
  });
});
