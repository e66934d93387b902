import { waitFor } from '@testing-library/react';
import { startIdentity } from '../../../../src/embed/services/identity';
import type { PlayerConfig } from '../../../../streams/config/playerConfig';
import { configFor } from '../../../streams/player/fixtures';

/**
 * The sign-in choices of the framed embed (issue 13): the pop-up opened within the press, storage access where it is
 * already granted, a blocked pop-up said as such, and a hand-over accepted only from the pop-up on our own origin.
 * The browser end to end (a real pop-up, a real session) is test/e2e/identity.e2e.ts.
 */
const SESSION = {
  accessToken: 'vfat1.e30.sig',
  expiresAtMs: Date.now() + 15 * 60_000,
  account: { id: 'acc_ada', displayName: 'Ada Lovelace', email: 'ada@example.com' },
  actingChannel: null,
  channels: [],
};
const config: PlayerConfig = (() => {
  const base = configFor();
  return { ...base, args: { ...base.args, visitor_data: 'v1.k.visitor.t.s' } };
})();

type Answer = { status: number; body?: unknown };
/** The server's answer to `/accounts/token` without a live session. */
const SIGNED_OUT: Answer = { status: 200, body: { signedIn: false } };
/** `fetch` for `/accounts/token` (answers in order), `/getDatasyncIdsEndpoint` and `/accounts/signout`. */
function installFetch(...tokenAnswers: Answer[]) {
  const tokenBodies: unknown[] = [];
  const fetch = jest.fn(async (url: string, init?: { body?: string }) => {
    if (url === '/accounts/token') {
      tokenBodies.push(JSON.parse(init?.body ?? '{}'));
      const answer = tokenAnswers[Math.min(tokenBodies.length - 1, tokenAnswers.length - 1)];
      return { ok: answer.status < 300, status: answer.status, json: async () => answer.body, text: async (): Promise<string> => JSON.stringify(answer.body) };
    }
    if (url === '/getDatasyncIdsEndpoint') return { ok: true, status: 200, text: async (): Promise<string> => ')]}\'\n{"datasyncIds":["acc_ada||"]}' };
    return { ok: true, status: 200, json: async () => ({}), text: async (): Promise<string> => '{}' };
  });
  Object.defineProperty(window, 'fetch', { value: fetch, configurable: true, writable: true });
  return { fetch, tokenBodies };
}

function setStorageAccess({ has, permission }: { has: boolean; permission: PermissionState }) {
  const requestStorageAccess = jest.fn(async () => undefined);
  Object.assign(document, { hasStorageAccess: async () => has, requestStorageAccess });
  Object.defineProperty(navigator, 'permissions', { value: { query: async () => ({ state: permission }) }, configurable: true });
  return requestStorageAccess;
}

/** A real window object (a frame's) standing for the pop-up: a message's `source` must be a window. */
const fakePopup = (): Window => {
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  return frame.contentWindow!;
};

describe('startIdentity: signing in from a frame on another site', () => {
  afterEach(() => {
    localStorage.clear();
    jest.restoreAllMocks();
  });

  it('keeps the visitor id it has, else the one the server handed out', () => {
    installFetch(SIGNED_OUT);
    setStorageAccess({ has: false, permission: 'prompt' });
    expect(startIdentity(config, window).visitorData()).toBe('v1.k.visitor.t.s');
    localStorage.setItem('vidframe.visitorData', 'v1.k.kept.t.s');
    expect(startIdentity(config, window).visitorData()).toBe('v1.k.kept.t.s');
  });

  it('opens the pop-up within the press (nothing awaited first) and signs in with the session it hands over', async () => {
    const { tokenBodies } = installFetch({ status: 200, body: SESSION });
    setStorageAccess({ has: false, permission: 'prompt' });
    const popup = fakePopup();
    const open = jest.spyOn(window, 'open').mockReturnValue(popup);
    const identity = startIdentity(config, window);
    await new Promise((resolve) => setTimeout(resolve, 0)); // the permission was read ahead
    const signedIn = identity.signIn();
    expect(open).toHaveBeenCalledWith('/signin?popup=1', 'vidframe-signin', expect.any(String)); // synchronously
    // A message of another origin, or from another window, is ignored.
    window.dispatchEvent(
      new MessageEvent('message', { origin: 'http://evil.example', source: popup as never, data: { type: 'vidframe:session', session: 'stolen' } }),
    );
    window.dispatchEvent(new MessageEvent('message', { origin: window.location.origin, source: window, data: { type: 'vidframe:session', session: 'other' } }));
    window.dispatchEvent(
      new MessageEvent('message', { origin: window.location.origin, source: popup as never, data: { type: 'vidframe:session', session: 'the-session' } }),
    );
    await signedIn;
    expect(tokenBodies).toEqual([{ session: 'the-session' }]); // neither 'stolen' nor 'other' was used
    expect(identity.session$.value?.account.displayName).toBe('Ada Lovelace');
    expect(identity.credentials()).toEqual({ accessToken: SESSION.accessToken, accountId: 'acc_ada' });
    identity.stop();
  });

  it('uses storage access instead of a pop-up where the browser already grants it', async () => {
    installFetch({ status: 200, body: SESSION });
    const requestStorageAccess = setStorageAccess({ has: false, permission: 'granted' });
    const open = jest.spyOn(window, 'open');
    const identity = startIdentity(config, window);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await identity.signIn();
    expect(requestStorageAccess).toHaveBeenCalledTimes(1);
    expect(open).not.toHaveBeenCalled();
    await waitFor(() => expect(identity.session$.value?.account.id).toBe('acc_ada'));
    identity.stop();
  });

  it('says so when the pop-up is blocked', async () => {
    installFetch(SIGNED_OUT);
    setStorageAccess({ has: false, permission: 'prompt' });
    jest.spyOn(window, 'open').mockReturnValue(null);
    const identity = startIdentity(config, window);
    await identity.signIn();
    expect(identity.status$.value).toEqual({ state: 'failed', message: 'The sign-in window was blocked: allow pop-ups for this player and try again.' });
    expect(identity.session$.value).toBeNull();
  });

  it('stays signed out, and warns of nothing, when the server answers { signedIn: false }', async () => {
    const { tokenBodies } = installFetch(SIGNED_OUT);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    setStorageAccess({ has: true, permission: 'granted' });
    const identity = startIdentity(config, window);
    await waitFor(() => expect(tokenBodies).toEqual([{}]));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(identity.session$.value).toBeNull();
    expect(identity.credentials()).toEqual({});
    expect(warn).not.toHaveBeenCalled();
    identity.stop();
  });

  it('signs in silently where the frame may use the session cookie, and signing out forgets the credentials', async () => {
    installFetch({ status: 200, body: SESSION });
    setStorageAccess({ has: true, permission: 'granted' });
    const identity = startIdentity(config, window);
    await waitFor(() => expect(identity.session$.value?.account.id).toBe('acc_ada'));
    await identity.signOut();
    expect(identity.session$.value).toBeNull();
    expect(identity.credentials()).toEqual({});
  });
});
