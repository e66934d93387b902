import { waitFor } from '@testing-library/react';
import { BehaviorSubject, firstValueFrom, NEVER, of, Subject } from 'rxjs';
import { createEmbedApi, type EmbedApi } from '../../../../src/embed/services/api';
import { AD_STATUS_STORAGE_KEY, startAttestation } from '../../../../src/embed/services/attestation';
import { startConfigStore } from '../../../../src/embed/services/configStore';
import { startConsent } from '../../../../src/embed/services/consent';
import { createContextFacts } from '../../../../src/embed/services/contextFacts';
import { startLocation } from '../../../../src/embed/services/location';
import { startLogDelivery } from '../../../../src/embed/services/logDelivery';
import type { PlayerConfig } from '../../../../streams/config/playerConfig';
import { createLocationToken, LOCATION_TOKEN_COOKIE_NAME, locationTokenCookie } from '../../../../streams/identity/locationToken';
import { configFor } from '../../../streams/player/fixtures';
import { anonymousIdentity } from '../fakes';

const withArgs = (vars: Record<string, string>, args: Partial<PlayerConfig['args']> = {}): PlayerConfig => {
  const base = configFor(vars);
  return { ...base, args: { ...base.args, ...args } };
};

/** The client context of the next log request `api` builds. */
const nextContext = (api: EmbedApi) => JSON.parse(api.buildRequest('log_event', { events: [] }).options.body).context;
const adSignals = (api: EmbedApi) => (nextContext(api).adSignalsInfo?.params ?? []) as { key: string; value: string }[];

describe('createContextFacts', () => {
  it('reads each fact from its source, the latest value, at once', () => {
    const facts = createContextFacts();
    const adStatus$ = new BehaviorSubject<1 | 2 | 3 | undefined>(2);
    facts.follow({ adStatus$, anonymousId$: of('id-1') });
    expect(facts.latest()).toEqual({ adStatus: 2, anonymousId: 'id-1' });
    adStatus$.next(undefined);
    expect(facts.latest().adStatus).toBeUndefined();
  });

  it('leaves a fact unset when its source fails, and takes a new source for it', () => {
    const facts = createContextFacts();
    const anonymousId$ = new Subject<string | undefined>();
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    facts.follow({ anonymousId$ });
    anonymousId$.next('id-1');
    expect(facts.latest().anonymousId).toBe('id-1');
    anonymousId$.error(new Error('consent broke'));
    expect(facts.latest().anonymousId).toBeUndefined();
    expect(error).toHaveBeenCalledTimes(1);
    error.mockRestore();
    facts.follow({ anonymousId$: of('id-2') });
    expect(facts.latest().anonymousId).toBe('id-2');
  });

  it('refuses a second source for a fact that has one, following nothing of that call; a fact let go takes a new one', () => {
    const facts = createContextFacts();
    const first$ = new Subject<string | undefined>();
    const following = facts.follow({ anonymousId$: first$ });
    expect(() => facts.follow({ adStatus$: of(1), anonymousId$: of('other') })).toThrow('The context fact anonymousId already has a source');
    expect(facts.latest().adStatus).toBeUndefined();
    first$.next('mine');
    expect(facts.latest().anonymousId).toBe('mine');
    following.unsubscribe();
    first$.next('ignored');
    expect(facts.latest().anonymousId).toBe('mine');
    facts.follow({ anonymousId$: of('next') });
    expect(facts.latest().anonymousId).toBe('next');
  });
});

describe("each service's state reaches the next request's context", () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    stops.splice(0).forEach((stop) => stop());
    localStorage.clear();
    document.cookie = `${LOCATION_TOKEN_COOKIE_NAME}=; Max-Age=0; Path=/`;
  });
  const apiFor = (config: PlayerConfig) => createEmbedApi(window, config, anonymousIdentity());

  it("telemetry's configInfo: the config hashes of a log_event answer, once the store has them", async () => {
    globalThis.indexedDB = new IDBFactory();
    const api = apiFor(configFor());
    const answer$ = new Subject<unknown>();
    const store = startConfigStore(answer$, () => undefined);
    stops.push(store.stop);
    const following = api.followContext({ configInfo$: store.configInfo$ });
    stops.push(() => following.unsubscribe());
    expect(await firstValueFrom(store.storedAtStart$)).toEqual({});
    expect(nextContext(api).client.configInfo).toBeUndefined();
    answer$.next({
      responseContext: {
        globalConfigGroup: {
          hotConfigGroup: { a: 1 },
          hotHashData: 'hot-1',
          coldConfigGroup: { b: 2 },
          coldHashData: 'cold-1',
          rawColdConfigGroup: { configData: 'CgIIAQ' },
        },
      },
    });
    await waitFor(() => expect(nextContext(api).client.configInfo).toEqual({ hotHashData: 'hot-1', coldHashData: 'cold-1', coldConfigData: 'CgIIAQ' }));
  });

  it("telemetry's configInfo: a log_event answer the delivery received, stored and read back", async () => {
    globalThis.indexedDB = new IDBFactory();
    const body = JSON.stringify({ responseContext: { globalConfigGroup: { hotConfigGroup: { a: 1 }, hotHashData: 'hot-2' } } });
    const urls: string[] = [];
    const fetch = jest.fn(async (url: string) => {
      urls.push(url);
      return { status: 200, headers: { get: (n: string) => (n.toLowerCase() === 'content-type' ? 'application/json' : null) }, text: async () => body };
    });
    Object.defineProperty(window, 'fetch', { value: fetch, configurable: true, writable: true });
    const api = apiFor(configFor());
    const delivery = startLogDelivery({ api, pageId: 'page', online$: of(true), reportStorage: () => undefined }, window);
    const store = startConfigStore(delivery.logAnswer$, () => undefined);
    stops.push(delivery.stop, store.stop);
    api.followContext({ configInfo$: store.configInfo$ });
    await firstValueFrom(store.storedAtStart$);
    const outcomes: string[] = [];
    // The events end at once: the sink sends them as a normal (not keepalive) request.
    delivery.deliver(of({ name: 'playerLoad', payload: { videoId: 'VFsunrise01' } }), NEVER).subscribe((o) => outcomes.push(o.type));
    await waitFor(() => expect(outcomes).toEqual(['sent']));
    expect(urls).toEqual([expect.stringMatching(/^\/youtubei\/v1\/log_event/)]);
    await waitFor(() => expect(nextContext(api).client.configInfo).toEqual({ hotHashData: 'hot-2' }));
  });

  it("the location's info: the location token an earlier embed stored", () => {
    document.cookie = locationTokenCookie(createLocationToken({ latitudeE7: 515_000_000, longitudeE7: -1_000_000 }, Date.now()), { secure: false });
    const api = apiFor(withArgs({ geolocation: '1' }));
    const location = startLocation(withArgs({ geolocation: '1' }), window);
    stops.push(location.stop);
    expect(nextContext(api).client.locationInfo).toBeUndefined();
    api.followContext({ locationInfo$: location.locationInfo$ });
    expect(nextContext(api).client.locationInfo).toEqual(expect.objectContaining({ latitudeE7: 515_000_000, longitudeE7: -1_000_000 }));
  });

  it("consent's anonymous id: the id fetched with consent, as bisc", async () => {
    const fetch = jest.fn(async () => ({ ok: true, status: 200, text: async () => `)]}'\n{"id":"bisc-1","type":1}` }));
    Object.defineProperty(window, 'fetch', { value: fetch, configurable: true, writable: true });
    const config = withArgs({ consent: '1' }, { anonymous_id_url: 'https://ads.example/id' });
    const api = apiFor(config);
    const consent = startConsent(config, window);
    stops.push(consent.stop);
    api.followContext({ anonymousId$: consent.currentAnonymousId$ });
    await waitFor(() => expect(adSignals(api)).toContainEqual({ key: 'bisc', value: 'bisc-1' }));
    expect(consent.anonymousId$.value).toEqual(expect.objectContaining({ status: 'ready', id: 'bisc-1' }));
  });

  it("attestation's ad status: the value the previous page stored, as adst", () => {
    localStorage.setItem(AD_STATUS_STORAGE_KEY, '2');
    const api = apiFor(configFor());
    expect(adSignals(api)).not.toContainEqual(expect.objectContaining({ key: 'adst' }));
    const attestation = startAttestation(configFor(), window);
    stops.push(attestation.dispose);
    api.followContext({ adStatus$: attestation.adStatusSignal$ });
    expect(adSignals(api)).toContainEqual({ key: 'adst', value: '2' });
  });
});
