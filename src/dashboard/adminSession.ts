import { BehaviorSubject, type Observable } from 'rxjs';

/** Where the tab keeps the admin token (sessionStorage: this tab only, gone when it closes). */
export const ADMIN_TOKEN_STORAGE_KEY = 'vidframe.collector.adminToken';
/**
 * The query parameter of a sign-in link (`/collector?token=…`) a person makes with the token: the server never prints
 * the token, only where it is kept.
 */
export const ADMIN_TOKEN_QUERY_PARAMETER = 'token';

/** The admin token of this tab, and the reader's intents that change it. */
export interface AdminSession {
  /** The current token, `null` when signed out. Emits again on every sign-in, even with the same token. */
  readonly token$: Observable<string | null>;
  signIn(token: string): void;
  signOut(): void;
}

export interface AdminSessionEffects {
  location: Pick<Location, 'href'>;
  history: Pick<History, 'replaceState' | 'state'>;
  /** `sessionStorage`; a storage that throws (storage disabled) leaves the token in memory only. */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
}

/**
 * The admin token, taken from the sign-in link's `?token=` (then kept in sessionStorage and removed from the address
 * bar with `history.replaceState`, so it is neither bookmarked, shared nor left in the history), else from
 * sessionStorage. The address keeps its other parameters and stays root-relative.
 */
export function createAdminSession({ location, history, storage }: AdminSessionEffects): AdminSession {
  const store = {
    read: () => {
      try {
        return storage?.getItem(ADMIN_TOKEN_STORAGE_KEY) ?? null;
      } catch {
        return null;
      }
    },
    write: (token: string | null) => {
      try {
        if (token === null) storage?.removeItem(ADMIN_TOKEN_STORAGE_KEY);
        else storage?.setItem(ADMIN_TOKEN_STORAGE_KEY, token);
      } catch {
        /* storage disabled: the token lives as long as the page */
      }
    },
  };

  const url = new URL(location.href);
  const fromLink = url.searchParams.get(ADMIN_TOKEN_QUERY_PARAMETER);
  if (fromLink !== null) {
    url.searchParams.delete(ADMIN_TOKEN_QUERY_PARAMETER);
    history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
    if (fromLink.trim()) store.write(fromLink.trim());
  }
  const token$ = new BehaviorSubject<string | null>(fromLink?.trim() || store.read());

  return {
    token$: token$.asObservable(),
    signIn: (token) => {
      const trimmed = token.trim();
      if (!trimmed) return;
      store.write(trimmed);
      token$.next(trimmed);
    },
    signOut: () => {
      store.write(null);
      token$.next(null);
    },
  };
}
