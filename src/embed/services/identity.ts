import { BehaviorSubject } from 'rxjs';
import type { PlayerConfig } from '../../../streams/config/playerConfig';
import { createConsistencyTokenStore } from '../../../streams/identity/consistencyTokens';
import { parseDatasyncIds } from '../../../streams/identity/parseDatasyncIds';
import type { ConsistencyTokenJar } from '../../../streams/transport/buildClientContext';
import { pageStorage } from './pageStorage';
import { ACCESS_TOKEN_RENEW_MARGIN_MS, SIGNIN_POPUP_CLOSED_POLL_MS } from '../../../streams/timing';
import { numberText } from '../../../streams/shared/numberText';

/** A signed-in viewer, as `POST /accounts/token` describes it. */
export interface Session {
  accessToken: string;
  expiresAtMs: number;
  account: { id: string; displayName: string; email: string };
  actingChannel: { id: string; title: string } | null;
  channels: { id: string; title: string; relation: 'owner' | 'manager' }[];
  /** The delegated session (page) id from the datasync ids, when the account acts for a channel (spec §6, §7). */
  delegatedSessionId?: string;
}

/** What the sign-in control shows. */
export type SignInStatus = { state: 'idle' } | { state: 'working' } | { state: 'failed'; message: string };

/** Why a sign-in failed, as the player says it (the controls show each in the viewer's language: AccountControl). */
export const SIGN_IN_FAILURES = {
  incompleteWindow: 'Signing in did not complete: press Sign in again to use a sign-in window.',
  incomplete: 'Signing in did not complete. Try again.',
  blocked: 'The sign-in window was blocked: allow pop-ups for this player and try again.',
} as const;

export interface Identity {
  /** The signed-in viewer, or null for an anonymous one. */
  readonly session$: BehaviorSubject<Session | null>;
  readonly status$: BehaviorSubject<SignInStatus>;
  /** The visitor id the client keeps (spec §6/§7): the one it has, else the one the server handed out. */
  visitorData(): string | undefined;
  /** The current access token and its account, for every request (and for resends of older ones). */
  credentials(): { accessToken?: string; accountId?: string };
  delegatedSessionId(): string | undefined;
  consistencyTokenJars(): ConsistencyTokenJar[];
  /** Reads an API answer's `responseContext`: a new visitor id, a consistency token jar. */
  absorbResponse(body: unknown): void;
  /** The viewer pressed "Sign in": storage access where the browser needs it, else (or when that fails) a pop-up. */
  signIn(): Promise<void>;
  signOut(): Promise<void>;
  stop(): void;
}

/** Where the client keeps the visitor id (the embed origin's storage; partitioned per top-level site by browsers). */
export const VISITOR_DATA_STORAGE_KEY = 'vidframe.visitorData';
const SESSION_MESSAGE = 'vidframe:session';

type StorageAccessDocument = Document & { hasStorageAccess?: () => Promise<boolean>; requestStorageAccess?: () => Promise<void> };

const isSession = (value: unknown): value is Omit<Session, 'delegatedSessionId'> => {
  const v = value as Session | null;
  return !!v && typeof v.accessToken === 'string' && typeof v.expiresAtMs === 'number' && !!v.account && typeof v.account.id === 'string';
};

/** A JSON `POST` to our own origin, with the session cookie. */
function postJson(win: Window, path: string, body: Record<string, unknown>): Promise<Response> {
  return win.fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The datasync ids say whether the session acts for a channel (spec §7); "Datasync ID not set" when absent. */
async function readDelegation(win: Window, accessToken: string): Promise<string | undefined> {
  try {
    const response = await win.fetch('/getDatasyncIdsEndpoint', { credentials: 'same-origin', headers: { Authorization: `Bearer ${accessToken}` } });
    const text = await response.text();
    if (!response.ok) throw new Error(`Request failed, status=${numberText(response.status)}`);
    return parseDatasyncIds(JSON.parse(text.replace(/^\)\]\}'\n?/, ''))).delegatedSessionId;
  } catch (error) {
    console.warn('[vidframe] datasync ids:', error instanceof Error ? error.message : error);
    return undefined;
  }
}

/**
 * `POST /accounts/token`: the session from the handle (pop-up hand-over) or the cookie; undefined when none (the server
 * answers `{ signedIn: false }`, a 200, so a signed-out embed records no failed request).
 */
async function requestToken(win: Window, sessionHandle: string | undefined): Promise<unknown | undefined> {
  try {
    const response = await postJson(win, '/accounts/token', sessionHandle ? { session: sessionHandle } : {});
    if (!response.ok) throw new Error(`Request failed, status=${numberText(response.status)}`);
    const body: unknown = await response.json();
    return (body as { signedIn?: unknown } | null)?.signedIn === false ? undefined : body;
  } catch (error) {
    console.warn('[vidframe] sign-in:', error instanceof Error ? error.message : error);
    return undefined;
  }
}

/** Whether this frame may use our cookie now (`hasStorageAccess()`; a browser without the API does not partition). */
async function hasStorageAccess(doc: StorageAccessDocument): Promise<boolean> {
  if (typeof doc.hasStorageAccess !== 'function') return true;
  try {
    return await doc.hasStorageAccess();
  } catch {
    return false;
  }
}

/**
 * Whether `requestStorageAccess()` would be granted without a prompt (the Permissions API's `storage-access`): then the
 * session cookie can be used after a press.
 */
async function storageAccessGrantableIn(win: Window): Promise<boolean> {
  try {
    const status = await win.navigator.permissions?.query({ name: 'storage-access' as PermissionName });
    return status?.state === 'granted';
  } catch {
    return false;
  }
}

/**
 * Waits for the pop-up's hand-over (or for it to close). The pop-up must be opened by the caller in the click itself:
 * a browser lets a frame open one only during the viewer's gesture.
 */
function awaitHandOver(win: Window, popup: Window): Promise<string | undefined> {
  return new Promise<string | undefined>((resolve) => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; session?: unknown } | null;
      if (event.origin !== win.location.origin || event.source !== popup || !data || data.type !== SESSION_MESSAGE || typeof data.session !== 'string') return;
      finish(data.session);
    };
    // The pop-up posts the hand-over and closes itself at once: the message crosses processes and can arrive after
    // the poll already sees the pop-up closed. A closed pop-up therefore gets one more poll period for its message
    // before the sign-in counts as cancelled.
    let grace: ReturnType<typeof setTimeout> | undefined;
    const closed = setInterval(() => {
      if (!popup.closed || grace !== undefined) return;
      grace = setTimeout(() => finish(undefined), SIGNIN_POPUP_CLOSED_POLL_MS);
    }, SIGNIN_POPUP_CLOSED_POLL_MS);
    const finish = (handle: string | undefined) => {
      win.removeEventListener('message', onMessage);
      clearInterval(closed);
      if (grace !== undefined) clearTimeout(grace);
      resolve(handle);
    };
    win.addEventListener('message', onMessage);
  });
}

/** The visitor id the client keeps: the one stored, else the configuration's; a new one from the server replaces it. */
function keptVisitorData(win: Window, config: PlayerConfig) {
  const storage = pageStorage(win);
  let visitorData = storage.get(VISITOR_DATA_STORAGE_KEY);
  const keep = (value: string) => {
    visitorData = value;
    storage.set(VISITOR_DATA_STORAGE_KEY, value); // where storage is refused, the id lives for this page only
  };
  if (!visitorData && config.args.visitor_data) keep(config.args.visitor_data);
  return { current: () => visitorData, keep };
}

/** Reads an answer's `responseContext.visitorData`, when it is a well-formed id. */
function visitorDataOf(body: unknown): string | undefined {
  const responseContext = (body as { responseContext?: { visitorData?: unknown } } | undefined)?.responseContext;
  const value = responseContext?.visitorData;
  return typeof value === 'string' && /^[A-Za-z0-9._-]{1,512}$/.test(value) ? value : undefined;
}

/**
 * The viewer's identity in the embed (spec §6/§7): the visitor id, sign-in and sign-out, the short-lived access token
 * and its renewal, the delegated session from the datasync ids, and consistency tokens.
 *
 * Signing in from a frame on another site: the session cookie of our origin is third-party there, so a browser may
 * partition or block it. At start the embed asks `POST /accounts/token` with its cookie (when `hasStorageAccess()` says it
 * may) and is signed in silently if a session exists. When the viewer presses "Sign in": where storage access would be
 * granted (`navigator.permissions` says `storage-access` is granted), `requestStorageAccess()` within that press and
 * the cookie's session; otherwise a sign-in pop-up on our own origin, opened within the press, which hands the session
 * back by `postMessage` (checked: our origin, the pop-up as source). The session handle is then kept in memory only,
 * to renew the access token.
 */
export function startIdentity(config: PlayerConfig, win: Window): Identity {
  const session$ = new BehaviorSubject<Session | null>(null);
  const status$ = new BehaviorSubject<SignInStatus>({ state: 'idle' });
  const consistency = createConsistencyTokenStore({ now: () => Date.now() });
  const doc = win.document as StorageAccessDocument;
  const visitorData = keptVisitorData(win, config);
  let sessionHandle: string | undefined;
  let renewTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const scheduleRenewal = (session: Session) => {
    clearTimeout(renewTimer);
    const wait = Math.max(1_000, session.expiresAtMs - Date.now() - ACCESS_TOKEN_RENEW_MARGIN_MS);
    renewTimer = setTimeout(() => void requestToken(win, sessionHandle).then((s) => adopt(s ?? null)), wait);
  };

  const adopt = async (raw: unknown | null) => {
    if (stopped) return;
    if (!isSession(raw)) {
      clearTimeout(renewTimer);
      sessionHandle = undefined;
      session$.next(null);
      consistency.clear();
      return;
    }
    const session: Session = { ...raw, delegatedSessionId: await readDelegation(win, raw.accessToken) };
    session$.next(session);
    scheduleRenewal(session);
  };

  // Read ahead, since the press must not wait for it.
  let storageAccessGrantable = false;
  void storageAccessGrantableIn(win).then((grantable) => (storageAccessGrantable = grantable));

  /** Signs in with the cookie's session once storage access is granted; says so when either did not work. */
  const signInWithStorageAccess = async (): Promise<void> => {
    let session: unknown | undefined;
    try {
      await doc.requestStorageAccess!();
      session = await requestToken(win, sessionHandle);
    } catch {
      session = undefined;
    }
    if (session) {
      await adopt(session);
      status$.next({ state: 'idle' });
      return;
    }
    status$.next({ state: 'failed', message: SIGN_IN_FAILURES.incompleteWindow });
    storageAccessGrantable = false;
  };

  /** Signs in with a session handed over by the pop-up. */
  const signInWithPopup = async (popup: Window) => {
    const handle = await awaitHandOver(win, popup);
    if (handle === undefined) {
      status$.next({ state: 'idle' }); // closed without signing in
      return;
    }
    sessionHandle = handle;
    const session = await requestToken(win, sessionHandle);
    await adopt(session ?? null);
    status$.next(session ? { state: 'idle' } : { state: 'failed', message: SIGN_IN_FAILURES.incomplete });
  };

  const signIn = (): Promise<void> => {
    status$.next({ state: 'working' });
    // Where the browser already lets this frame use our cookie (storage access granted before), no window is needed.
    if (storageAccessGrantable && typeof doc.requestStorageAccess === 'function') return signInWithStorageAccess();
    // Otherwise a pop-up on our own origin, opened within the press (a frame may open one only then); it signs in
    // first-party (which also counts as the interaction storage access needs next time) and hands the session over.
    const popup = win.open('/signin?popup=1', 'vidframe-signin', 'popup,width=480,height=640');
    if (!popup) {
      status$.next({ state: 'failed', message: SIGN_IN_FAILURES.blocked });
      return Promise.resolve();
    }
    return signInWithPopup(popup).catch((error: unknown) => {
      status$.next({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
    });
  };

  // Silent sign-in: a session of our origin that this frame may already use.
  void hasStorageAccess(doc).then((access) => (access ? requestToken(win, sessionHandle).then((s) => adopt(s ?? null)) : undefined));

  return {
    session$,
    status$,
    visitorData: visitorData.current,
    credentials: () => {
      const session = session$.value;
      return session && session.expiresAtMs > Date.now() ? { accessToken: session.accessToken, accountId: session.account.id } : {};
    },
    delegatedSessionId: () => session$.value?.delegatedSessionId,
    consistencyTokenJars: () => consistency.current(),
    absorbResponse(body) {
      const next = visitorDataOf(body);
      if (next !== undefined) visitorData.keep(next);
      if (session$.value) consistency.absorb(body);
    },
    signIn,
    async signOut() {
      try {
        await postJson(win, '/accounts/signout', sessionHandle ? { session: sessionHandle } : {});
      } catch {
        // Offline: the session here ends anyway; the server's expires on its own.
      }
      await adopt(null);
    },
    stop() {
      stopped = true;
      clearTimeout(renewTimer);
    },
  };
}
