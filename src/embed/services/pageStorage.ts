/**
 * The frame's `localStorage`, where the browser gives one: a sandboxed or storage-blocked frame throws on access, and
 * then reads find nothing and writes are dropped (what is kept lives for this page only). Browsers partition it per
 * top-level site for a frame on another site. One guarded wrapper for the identity, consent and cookie-copy services.
 */
export interface PageStorage {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  remove(key: string): void;
}

export function pageStorage(win: Window): PageStorage {
  const attempt = <T>(work: (storage: Storage) => T): T | undefined => {
    try {
      return work(win.localStorage);
    } catch {
      return undefined;
    }
  };
  return {
    get: (key) => attempt((s) => s.getItem(key)) ?? undefined,
    set: (key, value) => void attempt((s) => s.setItem(key, value)),
    remove: (key) => void attempt((s) => s.removeItem(key)),
  };
}
