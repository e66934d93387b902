import { pageStorage } from './pageStorage';

/**
 * One first-party cookie of the embed's origin, as the embed reads and writes it through `document.cookie` — with the
 * same value kept in the frame's own storage where the browser blocks cookies in frames on other sites (third-party
 * cookie blocking; the frame's `localStorage` is then partitioned per top-level site, but it works). Reads prefer the
 * cookie; the stored copy honours the cookie's `Max-Age`.
 */
export interface FrameCookie {
  /** `document.cookie`, or `name=value` from the stored copy when the browser kept no cookie. */
  read(): string;
  /** This cookie's value (from {@link read}), or undefined. */
  value(): string | undefined;
  /** Assigns a `document.cookie` string (`name=value; Max-Age=…; …`) and keeps the stored copy in step. */
  write(assignment: string): void;
}

const STORAGE_PREFIX = 'vidframe.cookie.';

export function frameCookie(win: Window, name: string): FrameCookie {
  const storage = pageStorage(win);
  const key = STORAGE_PREFIX + name;
  const fromCookie = () => {
    try {
      return win.document.cookie;
    } catch {
      return '';
    }
  };
  const valueIn = (cookies: string) =>
    cookies
      .split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(`${name}=`))
      ?.slice(name.length + 1);
  const read = () => {
    const cookies = fromCookie();
    if (valueIn(cookies) !== undefined) return cookies;
    try {
      const stored = JSON.parse(storage.get(key) ?? 'null') as { value: string; expiresAtMs: number } | null;
      if (!stored || typeof stored.value !== 'string') return cookies;
      if (stored.expiresAtMs <= Date.now()) {
        storage.remove(key);
        return cookies;
      }
      return `${cookies ? `${cookies}; ` : ''}${name}=${stored.value}`;
    } catch {
      return cookies;
    }
  };
  return {
    read,
    value: () => valueIn(read()),
    write(assignment) {
      try {
        win.document.cookie = assignment;
      } catch {
        // a sandboxed frame: the stored copy below is all there is
      }
      const [pair, ...attributes] = assignment.split(';');
      if (pair === undefined || !pair.startsWith(`${name}=`)) return;
      const maxAge = attributes.map((a) => a.trim()).find((a) => /^max-age=/i.test(a));
      const seconds = maxAge ? Number(maxAge.slice(maxAge.indexOf('=') + 1)) : Number.POSITIVE_INFINITY;
      if (!(seconds > 0)) storage.remove(key);
      else
        storage.set(key, JSON.stringify({ value: pair.slice(name.length + 1), expiresAtMs: Number.isFinite(seconds) ? Date.now() + seconds * 1000 : 8.64e15 }));
    },
  };
}
