import { VISUAL_ELEMENT_ATTACH_CACHE_LIMIT } from '../timing';
import { numberText } from '../shared/numberText';

/** A bounded map that forgets its least recently used entry when it would grow past its limit. */
export interface BoundedCache<K, V> {
  /** The value for `key`, marking it as most recently used; `undefined` when absent. */
  get(key: K): V | undefined;
  /** Whether `key` is present; does not change the order. */
  has(key: K): boolean;
  /** Stores `value` under `key` as the most recently used entry, evicting the least recently used beyond the limit. */
  set(key: K, value: V): this;
  delete(key: K): boolean;
  clear(): void;
  readonly size: number;
  readonly limit: number;
}

/**
 * The visual-element attach cache of spec §9: remembers which visual elements were attached (logged) so an element
 * is attached once, holding at most {@link VISUAL_ELEMENT_ATTACH_CACHE_LIMIT} (1000) entries. It is an LRU map:
 * reading or re-setting an entry makes it the most recent; storing entry 1001 evicts the least recently used one, so
 * memory stays bounded however many elements a long session shows. A forgotten element would merely be attached again.
 *
 * ```
 * limit 3:  set a, set b, set c → [a b c]   get a → [b c a]   set d → [c a d]  (b evicted)
 * ```
 *
 * @throws RangeError when `limit` is not a positive integer (a configuration error, reported at construction).
 */
export function visualElementAttachCache<K = string, V = true>(limit: number = VISUAL_ELEMENT_ATTACH_CACHE_LIMIT): BoundedCache<K, V> {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`visualElementAttachCache: limit must be a positive integer, got ${numberText(limit)}`);
  }
  // A Map iterates in insertion order: the first key is always the least recently used one.
  const entries = new Map<K, V>();
  const cache: BoundedCache<K, V> = {
    get(key) {
      if (!entries.has(key)) return undefined;
      const value = entries.get(key) as V;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    has: (key) => entries.has(key),
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > limit) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
      return cache;
    },
    delete: (key) => entries.delete(key),
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
    limit,
  };
  return cache;
}
