import { gunzipSync } from 'node:zlib';
import { BehaviorSubject, lastValueFrom, of } from 'rxjs';
import type { AdStatusValue } from '../../../../streams/adStatus/adStatusCheck';
import { createEmbedApi } from '../../../../src/embed/services/api';
import type { Identity, Session, SignInStatus } from '../../../../src/embed/services/identity';
import type { PlayerConfig } from '../../../../streams/config/playerConfig';
import type { ApiRequest } from '../../../../streams/transport/buildApiRequest';
import { configFor } from '../../../streams/player/fixtures';

/** An access token as the server issues it (`vfat1.<base64url JSON>.<signature>`); the client only reads `sub`. */
const tokenOf = (accountId: string, n: number) => `vfat1.${Buffer.from(JSON.stringify({ sub: accountId, sid: 's', exp: 1 })).toString('base64url')}.sig${n}`;

function identityWith(credentials: { accessToken?: string; accountId?: string }, delegatedSessionId?: string): Identity & { absorbed: unknown[] } {
  const absorbed: unknown[] = [];
  return {
    absorbed,
    session$: new BehaviorSubject<Session | null>(null),
    status$: new BehaviorSubject<SignInStatus>({ state: 'idle' }),
    visitorData: () => 'v1.visitor',
    credentials: () => credentials,
    delegatedSessionId: () => delegatedSessionId,
    consistencyTokenJars: () => [{ encryptedTokenJarContents: 'jar', expirationSeconds: '600' }],
    absorbResponse: (body) => absorbed.push(body),
    signIn: async () => undefined,
    signOut: async () => undefined,
    stop: () => undefined,
  };
}

/** `window.fetch` answering 200 with a response context; the calls are kept. */
function installFetch() {
  const calls: { url: string; headers: Record<string, string>; body: string }[] = [];
  const fetch = jest.fn(async (url: string, init: { headers: Record<string, string>; body: string }) => {
    // A body the transport compressed is read back as the server would.
    calls.push({ url, headers: init.headers, body: typeof init.body === 'string' ? init.body : gunzipSync(init.body as Uint8Array).toString('utf8') });
    return {
      status: 200,
      headers: { get: (n: string) => (n.toLowerCase() === 'content-type' ? 'application/json' : null) },
      text: async () => '{"responseContext":{"visitorData":"v1.next"}}',
    };
  });
  Object.defineProperty(window, 'fetch', { value: fetch, configurable: true, writable: true });
  return calls;
}

const config: PlayerConfig = (() => {
  const base = configFor({ hl: 'de' });
  return { ...base, args: { ...base.args, xsrf_token: 'v1.k.xsrf.t.s', innertube_api_key: 'vidframe-key', stream_token: 'v1.k.stream.t.s', fflags: 'a=1' } };
})();

/** A log request built while Ada was signed in and acting for a channel, as the retry queue keeps it. */
function storedWhileSignedIn(): ApiRequest {
  const api = createEmbedApi(window, config, identityWith({ accessToken: tokenOf('acc_ada', 1), accountId: 'acc_ada' }, 'UCgrace'));
  return api.buildRequest('log_event', { events: [{ clientEventId: 'p:1' }] });
}

describe('createEmbedApi: the identity on every call', () => {
  it('a signed-in request carries the bearer token, the logged-in header, the delegation, the anti-forgery field and the identity', () => {
    const request = storedWhileSignedIn();
    expect(request.url).toBe('/youtubei/v1/log_event'); // with a bearer header, the key stays out of the query
    expect(request.options.headers).toMatchObject({
      Authorization: `Bearer ${tokenOf('acc_ada', 1)}`,
      'X-Youtube-Bootstrap-Logged-In': 'true',
      'X-Goog-Visitor-Id': 'v1.visitor',
      'X-VidFrame-Stream-Token': 'v1.k.stream.t.s',
    });
    const body = JSON.parse(request.options.body);
    expect(body.session_token).toBe('v1.k.xsrf.t.s');
    expect(body.loggedIn).toBeUndefined(); // the flag is a header only
    expect(body.context.user.delegatedSessionId).toBe('UCgrace');
    expect(body.context.client).toMatchObject({ hl: 'de', visitorData: 'v1.visitor', experimentsToken: Buffer.from('a=1').toString('base64url') });
    expect(body.context.request.consistencyTokenJars).toEqual([{ encryptedTokenJarContents: 'jar', expirationSeconds: '600' }]);
  });

  it('an anonymous request carries neither credentials nor the logged-in header; a log request names the key in the query', () => {
    const api = createEmbedApi(window, config, identityWith({}));
    api.followContext({ anonymousId$: of('bisc-id'), locationInfo$: of({ latitudeE7: 1, longitudeE7: 2 }) });
    const request = api.buildRequest('log_event', { events: [] });
    expect(request.url).toBe('/youtubei/v1/log_event?key=vidframe-key');
    expect(request.options.headers.Authorization).toBeUndefined();
    expect(request.options.headers['X-Youtube-Bootstrap-Logged-In']).toBeUndefined();
    const { context } = JSON.parse(request.options.body);
    expect(context.client.locationInfo).toEqual({ latitudeE7: 1, longitudeE7: 2 });
    expect(context.adSignalsInfo.params).toContainEqual({ key: 'bisc', value: 'bisc-id' });
    expect(api.buildRequest('player', { videoId: 'x' }).url).toBe('/youtubei/v1/player'); // not a log request: no key
  });

  it('the stored ad-status value goes into the ad-signal info as adst, once known (spec §4)', () => {
    const api = createEmbedApi(window, config, identityWith({}));
    const adStatus$ = new BehaviorSubject<AdStatusValue | undefined>(undefined);
    const anonymousId$ = new BehaviorSubject<string | undefined>(undefined);
    api.followContext({ adStatus$, anonymousId$ });
    const paramsOf = () => JSON.parse(api.buildRequest('log_event', { events: [] }).options.body).context.adSignalsInfo?.params ?? [];
    expect(paramsOf()).not.toContainEqual(expect.objectContaining({ key: 'adst' }));
    adStatus$.next(3);
    expect(paramsOf()).toContainEqual({ key: 'adst', value: '3' });
    anonymousId$.next('bisc-id');
    expect(paramsOf()).toEqual(
      expect.arrayContaining([
        { key: 'bisc', value: 'bisc-id' },
        { key: 'adst', value: '3' },
      ]),
    );
  });

  it('a request resent after its token expired goes with the same account’s fresh token', async () => {
    const calls = installFetch();
    const identity = identityWith({ accessToken: tokenOf('acc_ada', 2), accountId: 'acc_ada' }, 'UCgrace');
    await lastValueFrom(createEmbedApi(window, config, identity).send(storedWhileSignedIn()));
    expect(calls[0].headers.Authorization).toBe(`Bearer ${tokenOf('acc_ada', 2)}`);
    expect(calls[0].headers['X-Youtube-Bootstrap-Logged-In']).toBe('true');
    expect(identity.absorbed).toEqual([{ responseContext: { visitorData: 'v1.next' } }]);
  });

  it.each([
    ['signed out meanwhile', {}],
    ['another account signed in meanwhile', { accessToken: tokenOf('acc_grace', 3), accountId: 'acc_grace' }],
  ])('a request resent %s goes without credentials and without the delegation it was made with', async (_label, credentials) => {
    const calls = installFetch();
    await lastValueFrom(createEmbedApi(window, config, identityWith(credentials)).send(storedWhileSignedIn()));
    expect(calls[0].headers.Authorization).toBeUndefined();
    expect(calls[0].headers['X-Youtube-Bootstrap-Logged-In']).toBe('false');
    const body = JSON.parse(calls[0].body);
    expect(body.context.user.delegatedSessionId).toBeUndefined();
    expect(body.events).toEqual([{ clientEventId: 'p:1' }]); // nothing of the request is lost
    expect(body.session_token).toBe('v1.k.xsrf.t.s');
  });
});
