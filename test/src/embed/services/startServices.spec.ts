import { waitFor } from '@testing-library/react';
import { EMPTY, NEVER, of } from 'rxjs';
import { startServices } from '../../../../src/embed/page/services';
import { playerFeed } from '../../../../src/embed/player/playerFeed';
import { createEmbedApi } from '../../../../src/embed/services/api';
import { AD_STATUS_STORAGE_KEY } from '../../../../src/embed/services/attestation';
import type { PlayerConfig } from '../../../../streams/config/playerConfig';
import { createLocationToken, LOCATION_TOKEN_COOKIE_NAME, locationTokenCookie } from '../../../../streams/identity/locationToken';
import { configFor } from '../../../streams/player/fixtures';
import { anonymousIdentity, fakeFeedPlayer } from '../fakes';

const config: PlayerConfig = (() => {
  const base = configFor({ geolocation: '1', consent: '1' });
  return { ...base, args: { ...base.args, anonymous_id_url: 'https://ads.example/id' } };
})();

/** `window.fetch`: the connectivity probe, the anonymous id, and an empty answer for anything else. */
function installFetch() {
  const fetch = jest.fn(async (url: string) => {
    if (url.startsWith('/generate_204')) return { ok: true, status: 204, headers: { get: () => null }, text: async (): Promise<string> => '' };
    if (url.startsWith('https://ads.example/id'))
      return { ok: true, status: 200, headers: { get: () => null }, text: async (): Promise<string> => `)]}'\n{"id":"bisc-7"}` };
    return { ok: true, status: 200, headers: { get: () => 'application/json' }, text: async (): Promise<string> => '{}' };
  });
  Object.defineProperty(window, 'fetch', { value: fetch, configurable: true, writable: true });
}

/** A player that shows nothing and takes no command (jsdom has no Media Session anyway). */
const idlePlayer = { videoData$: NEVER, state$: NEVER, info$: NEVER, command: () => undefined };

describe('startServices', () => {
  afterEach(() => {
    window.vidframeTelemetry?.stop();
    window.vidframeConsent?.stop();
    window.vidframeAttestation?.dispose();
    for (const key of ['vidframeTelemetry', 'vidframeTelemetryDiagnostics', 'vidframeConsent', 'vidframeAttestation'] as const) delete window[key];
    localStorage.clear();
    document.cookie = `${LOCATION_TOKEN_COOKIE_NAME}=; Max-Age=0; Path=/`;
  });

  it("has the API client follow each service's state: the next request carries the location, the ad status and the anonymous id", async () => {
    globalThis.indexedDB = new IDBFactory();
    installFetch();
    localStorage.setItem(AD_STATUS_STORAGE_KEY, '1');
    document.cookie = locationTokenCookie(createLocationToken({ latitudeE7: 10, longitudeE7: 20 }, Date.now()), { secure: false });
    const api = createEmbedApi(window, config, anonymousIdentity());
    const feed = playerFeed(fakeFeedPlayer(config));
    startServices({ config, player: idlePlayer, api, feed, hostCommands$: EMPTY, visibility$: of('visible' as const), win: window });

    const context = () => JSON.parse(api.buildRequest('log_event', { events: [] }).options.body).context;
    expect(context().client.locationInfo).toEqual(expect.objectContaining({ latitudeE7: 10, longitudeE7: 20 }));
    expect(context().adSignalsInfo.params).toContainEqual({ key: 'adst', value: '1' });
    await waitFor(() => expect(context().adSignalsInfo.params).toContainEqual({ key: 'bisc', value: 'bisc-7' }));
  });

  it('publishes the telemetry without its diagnostics, and the diagnostics beside it', () => {
    globalThis.indexedDB = new IDBFactory();
    installFetch();
    const api = createEmbedApi(window, config, anonymousIdentity());
    startServices({
      config,
      player: idlePlayer,
      api,
      feed: playerFeed(fakeFeedPlayer(config)),
      hostCommands$: EMPTY,
      visibility$: of('visible' as const),
      win: window,
    });
    expect(Object.keys(window.vidframeTelemetry!).sort()).toEqual(['configInfo$', 'flush', 'pageId', 'stop']);
    expect(window.vidframeTelemetryDiagnostics!.pageId).toBe(window.vidframeTelemetry!.pageId);
    expect(window.vidframeTelemetryDiagnostics!.counts.events).toBeGreaterThan(0);
  });
});
