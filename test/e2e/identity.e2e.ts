import type { BrowserContext, Frame, Page } from 'playwright-core';
import { DEMO_ACCOUNTS } from '../../server/accounts/demoAccounts';
import { encodeDemoTcString } from '../../streams/consent/encodeTcString';
import { framingPage, startHostServer, startServer, type HostServer, type RunningServer } from './helpers/servers';
import { collectorOf, embedFrame, launchProfileBrowser, until, type CollectedRequest, type Collector, type ProfileBrowser } from './telemetry.helpers';
import { servicesStarted } from './helpers/browser';

/**
 * Issue 13 in the browser: the framed embed on another origin (the host on `localhost`, the embed on `127.0.0.1`),
 * against the real server, its accounts, its collector and its ads host on a third port. Every check reads what the
 * server received (the collector's admin API, the ads host's request log), not what the page says it sent.
 */

jest.setTimeout(120_000);
const { ada, grace } = DEMO_ACCOUNTS;
const VIDEO = 'VFsunrise01';

let server: RunningServer;
let host: HostServer;
let profile: ProfileBrowser;
let context: BrowserContext;
let collector: Collector;

beforeAll(async () => {
  [server, host, profile] = await Promise.all([
    startServer({ adsHost: true, privateEmbedHosts: ['nocookie.localhost'], educationEmbedHosts: ['edu.localhost'] }),
    startHostServer(),
    launchProfileBrowser(),
  ]);
  context = profile.context;
  collector = collectorOf(server);
});
afterAll(async () => {
  await profile?.close();
  await host?.close();
  await server?.close();
});

/** The ads host's test hooks: scripted answers and the log of `/pagead/id` requests it received. */
const ads = {
  requests: async (): Promise<{ count: number }> => (await fetch(`${server.ads!.origin}/testhooks/requests`)).json(),
  script: (answers: { status?: number; body?: string; delayMs?: number }[]) =>
    fetch(`${server.ads!.origin}/testhooks/answers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers }) }),
  reset: () => fetch(`${server.ads!.origin}/testhooks`, { method: 'DELETE' }),
};

/** A host page on another origin that frames the embed (and, when asked, runs a TCF v2.2 CMP of its own). */
async function open(
  query: string,
  { embedOrigin = server.origin, cmp, allow = 'autoplay; fullscreen', page: given }: { embedOrigin?: string; cmp?: boolean; allow?: string; page?: Page } = {},
): Promise<{ page: Page; frame: Frame; pageId: string }> {
  const page = given ?? (await context.newPage());
  const embedUrl = `${embedOrigin}/embed/${VIDEO}?${query}`;
  const html = framingPage(embedUrl)
    .replace('allow="autoplay; fullscreen"', `allow="${allow}"`)
    .replace('<body', `${cmp === undefined ? '' : cmpScript(cmp)}<body`);
  await page.goto(host.page(`/host-${Math.random().toString(36).slice(2)}.html`, html));
  const frame = await embedFrame(page);
  await frame.waitForSelector('[data-readiness="ready"]');
  await servicesStarted(frame);
  const pageId = await frame.evaluate(() => window.vidframeTelemetry!.pageId);
  return { page, frame, pageId };
}

/**
 * A minimal IAB TCF v2.2 CMP as host pages run them: `__tcfapi`, the `__tcfapiLocator` frame, and the cross-frame
 * postMessage protocol; `window.setConsent(bool)` is the viewer's choice in its banner. TC strings encoded by
 * `@iabtcf/core` (purpose 1 granted or not).
 */
function cmpScript(initial: boolean): string {
  const yes = encodeDemoTcString({ purposeOne: true });
  const no = encodeDemoTcString({ purposeOne: false });
  return `<script>
(function () {
  var consent = ${initial}, listeners = {}, next = 1;
  function tcData(status, id) {
    return { tcString: consent ? '${yes}' : '${no}', gdprApplies: true, eventStatus: status, cmpStatus: 'loaded', listenerId: id, tcfPolicyVersion: 5, purpose: { consents: { 1: consent } } };
  }
  window.__tcfapi = function (command, version, callback, parameter) {
    if (command === 'addEventListener') { var id = next++; listeners[id] = callback; callback(tcData('tcloaded', id), true); }
    else if (command === 'removeEventListener') { var had = !!listeners[parameter]; delete listeners[parameter]; callback(had, true); }
    else if (command === 'ping') callback({ gdprApplies: true, cmpLoaded: true, cmpStatus: 'loaded', apiVersion: '2.2' }, true);
  };
  window.setConsent = function (value) { consent = value; for (var id in listeners) listeners[id](tcData('useractioncomplete', Number(id)), true); };
  var locator = document.createElement('iframe'); locator.name = '__tcfapiLocator'; locator.style.display = 'none';
  document.documentElement.appendChild(locator);
  window.addEventListener('message', function (event) {
    var data = event.data, asText = typeof data === 'string';
    if (asText) { try { data = JSON.parse(data); } catch (e) { return; } }
    var call = data && data.__tcfapiCall;
    if (!call) return;
    window.__tcfapi(call.command, call.version, function (value, success) {
      var answer = { __tcfapiReturn: { returnValue: value, success: success, callId: call.callId } };
      event.source.postMessage(asText ? JSON.stringify(answer) : answer, '*');
    }, call.parameter);
  });
})();
</script>`;
}

/** Plays a moment and pauses, so the session logs a few more events. */
const playAndPause = async (frame: Frame) => {
  await frame.evaluate(() => window.vidframePlayer!.command({ type: 'play' }));
  await frame.waitForFunction(() => (document.querySelector('video') as HTMLVideoElement).currentTime > 0.3);
  await frame.evaluate(() => window.vidframePlayer!.command({ type: 'pause' }));
};

/** The log requests of a page that carry events logged at or after `fromCounter` (the request counter). */
const requestsOf = (pageId: string, done: (requests: CollectedRequest[]) => boolean, what: string) => until(() => collector.requests(pageId), done, what);

/** Signs in through the embed's "Sign in" button and the pop-up (first-party, our origin), as a viewer does. */
async function signInThroughPopup(frame: Frame, email: string, password: string) {
  const popupOpened = context.waitForEvent('page');
  await frame.click('.vf-account-button');
  const popup = await popupOpened;
  // Already signed in on our origin, the pop-up hands the session over and closes at once; otherwise it shows the form.
  const form = await Promise.race([popup.waitForSelector('input[name="email"]').catch(() => null), popup.waitForEvent('close').then(() => null)]);
  if (form) {
    await popup.fill('input[name="email"]', email);
    await popup.fill('input[name="password"]', password);
    await popup.click('button[type="submit"]');
  }
  await frame.waitForSelector('[data-signed-in="true"]');
}

describe('issue 13: identity on every request', () => {
  it('an anonymous viewer sends neither a bearer token nor the logged-in flag, but a server-issued visitor id and the anti-forgery field', async () => {
    const { page, frame, pageId } = await open('');
    const [request] = await requestsOf(pageId, (r) => r.length > 0, 'a log request');
    expect(request.headers['x-youtube-bootstrap-logged-in']).toBeUndefined();
    expect((request as CollectedRequest & { accountId?: string }).accountId).toBeUndefined();
    expect(request.headers['x-goog-visitor-id']).toMatch(/^v1\./);
    expect(request.context.client.visitorData).toBe(request.headers['x-goog-visitor-id']);
    // The page's own API calls pass; a POST without the anti-forgery field is refused with a clear 403.
    const refused = await frame.evaluate(async () => {
      const response = await fetch('/youtubei/v1/player', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ videoId: 'VFsunrise01' }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(refused).toEqual({
      status: 403,
      body: { error: { code: 403, message: expect.stringMatching(/^The request carries no anti-forgery token \(session_token\)/) } },
    });
    await page.close();
  });

  it('a viewer who signs in through the pop-up: requests carry the bearer token and the logged-in header, and the collector attributes events to the account', async () => {
    const { page, frame, pageId } = await open('');
    await signInThroughPopup(frame, grace.email, grace.password);
    expect(await frame.textContent('.vf-account-name')).toBe(grace.displayName);
    await playAndPause(frame);
    const attributed = await until(
      () => collector.events(pageId),
      (events) => events.some((e) => (e as { accountId?: string }).accountId === grace.id),
      'events attributed to Grace',
    );
    const byAccount = await collector.requests(pageId);
    const signedIn = byAccount.filter((r) => (r as { accountId?: string }).accountId === grace.id);
    expect(signedIn.length).toBeGreaterThan(0);
    for (const request of signedIn) expect(request.headers['x-youtube-bootstrap-logged-in']).toBe('true');
    expect(attributed.filter((e) => (e as { accountId?: string }).accountId === grace.id).length).toBeGreaterThan(0);

    // Signing out: the following requests are anonymous again (closing the page flushes them through keepalive).
    await frame.click('.vf-account-button');
    await frame.waitForSelector('[data-signed-in="false"]');
    const before = (await collector.requests(pageId)).length;
    await playAndPause(frame);
    await page.close({ runBeforeUnload: true });
    const after = await requestsOf(pageId, (r) => r.length > before, 'a request after signing out');
    const last = after[after.length - 1] as CollectedRequest & { accountId?: string };
    expect(last.accountId).toBeUndefined();
    expect(last.headers['x-youtube-bootstrap-logged-in']).toBeUndefined();
  });
});

describe('issue 13: the client context, complete, at the collector', () => {
  it('carries every field of spec §3 for a signed-in manager acting for a channel, with consent and an allowed location', async () => {
    // First party: Ada signs in on our own origin and chooses to act for Grace's channel, which she manages.
    await context.clearCookies();
    const tab = await context.newPage();
    await tab.goto(`${server.origin}/signin`);
    await tab.fill('input[name="email"]', ada.email);
    await tab.fill('input[name="password"]', ada.password);
    await Promise.all([tab.waitForNavigation(), tab.click('button[type="submit"]')]);
    await tab.selectOption('select[name="channelId"]', grace.channel.id);
    await Promise.all([tab.waitForLoadState(), tab.click('form[action="/accounts/act_as"] button[type="submit"]')]);
    await tab.close();

    // The viewer allows it: Chromium asks for a frame's permission in the name of the top-level site (the host).
    await context.grantPermissions(['geolocation'], { origin: host.origin });
    await context.grantPermissions(['geolocation'], { origin: server.origin });
    await context.setGeolocation({ latitude: 48.8583701, longitude: 2.2944813, accuracy: 12 });
    const query = 'hl=fr&theme=light&consent=1&geolocation=1&forced_experiments=fast_start=true,tiles=2';
    // The first page view stores the collector's hot and cold config (the configInfo of later requests).
    const first = await open(query, { allow: 'autoplay; fullscreen; geolocation' });
    await requestsOf(first.pageId, (r) => r.length > 0, 'the first page view logging');
    await first.page.close();

    const { page, frame, pageId } = await open(query, { allow: 'autoplay; fullscreen; geolocation' });
    // The pop-up opens already signed in (our origin's own cookie) and hands the session over at once.
    await signInThroughPopup(frame, ada.email, ada.password);
    expect(await frame.textContent('.vf-account-name')).toBe(`${grace.channel.title} (as ${ada.displayName})`);
    await playAndPause(frame);
    // The first signed-in request's answer hands out a consistency token jar; the requests after it send it back.
    await requestsOf(pageId, (r) => r.some((x) => (x as { accountId?: string }).accountId === ada.id), 'a signed-in request');
    await playAndPause(frame);
    await page.close({ runBeforeUnload: true }); // flushes the rest through keepalive
    const requests = await requestsOf(
      pageId,
      (r) => r.filter((x) => (x as { accountId?: string }).accountId === ada.id && x.context?.request?.consistencyTokenJars?.length > 0).length > 0,
      'a signed-in request carrying a consistency token',
    );
    const request = requests.find(
      (x) => (x as { accountId?: string }).accountId === ada.id && x.context.request.consistencyTokenJars.length > 0,
    )! as CollectedRequest & {
      accountId: string;
      channelId?: string;
    };
    expect(request.channelId).toBe(grace.channel.id);
    const { client, user, request: requestInfo, adSignalsInfo } = request.context;
    expect(client).toMatchObject({
      hl: 'fr',
      gl: expect.stringMatching(/^[A-Z]{2}$/),
      clientName: 'WEB_EMBEDDED_PLAYER',
      clientVersion: expect.stringMatching(/^1\.\d{8}\.\d\d\.\d\d$/),
      configInfo: { hotHashData: expect.any(String), coldHashData: expect.any(String) },
      userAgent: expect.stringContaining('Chrome/'),
      visitorData: expect.stringMatching(/^v1\./),
      screenDensityFloat: expect.any(Number),
      experimentsToken: expect.any(String),
      mainAppWebInfo: { webDisplayMode: 'WEB_DISPLAY_MODE_BROWSER' },
      browserName: 'Chrome',
      browserVersion: expect.stringMatching(/^\d+\./),
      osName: 'X11',
      platform: 'DESKTOP',
      screenWidthPoints: expect.any(Number),
      screenHeightPoints: expect.any(Number),
      timeZone: expect.any(String),
      utcOffsetMinutes: expect.any(Number),
      userInterfaceTheme: 'USER_INTERFACE_THEME_LIGHT',
      // Spec §9: latitude and longitude as integers scaled by 1E7.
      locationInfo: expect.objectContaining({ latitudeE7: 488583701, longitudeE7: 22944813 }),
    });
    expect(client.effectiveConnectionType ?? 'absent').toMatch(/^(EFFECTIVE_CONNECTION_TYPE_\w+|absent)$/);
    expect(Buffer.from(client.experimentsToken, 'base64url').toString()).toBe('fast_start=true&tiles=2');
    expect(user).toMatchObject({ lockedSafetyMode: false, delegatedSessionId: grace.channel.id });
    expect(requestInfo.consistencyTokenJars[0]).toEqual({ encryptedTokenJarContents: expect.stringMatching(/^v1\./), expirationSeconds: '600' });
    // Ad-signal info, with the consent-gated anonymous id the ads host handed out.
    const adSignals = Object.fromEntries(adSignalsInfo.params.map((p: { key: string; value: string }) => [p.key, p.value]));
    expect(adSignals).toMatchObject({ frm: '1', bisc: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/) });
    expect(request.headers['x-youtube-bootstrap-logged-in']).toBe('true');
    expect(request.headers['x-youtube-time-zone']).toBe(client.timeZone);
    await context.clearPermissions();
    await context.clearCookies();
  });
});

describe('issue 13: the consent-gated anonymous id', () => {
  beforeEach(() => ads.reset());

  it('is not fetched without consent, and is fetched with the consent player variable (5 s timeout, credentials)', async () => {
    const none = await open('');
    await requestsOf(none.pageId, (r) => r.length > 0, 'a log request');
    expect((await ads.requests()).count).toBe(0);
    expect(await none.frame.evaluate(() => window.vidframeConsent!.anonymousId$.value.status)).toBe('none');
    await none.page.close();

    const granted = await open('consent=1');
    await granted.frame.waitForFunction(() => window.vidframeConsent!.anonymousId$.value.status === 'ready');
    expect((await ads.requests()).count).toBe(1);
    const id = await granted.frame.evaluate(() => localStorage.getItem('vidframe.anonymousId'));
    expect(id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    await granted.page.close();
  });

  it.each([
    ['private (privacy-enhanced host name)', 'nocookie.localhost', 'private'],
    ['education', 'edu.localhost', 'education'],
  ])('is never fetched in the %s embed, even with consent', async (_label, hostName, mode) => {
    const origin = server.origin.replace('127.0.0.1', hostName);
    const { page, frame, pageId } = await open('consent=1', { embedOrigin: origin, cmp: true });
    expect(await frame.evaluate(() => window.vidframePlayer!.config.args.embed_mode)).toBe(mode);
    expect(await frame.evaluate(() => window.vidframeConsent!.consent$.value)).toBe(true);
    await requestsOf(pageId, (r) => r.length > 0, 'a log request');
    expect((await ads.requests()).count).toBe(0);
    await page.close();
  });

  it("follows the host page's TCF CMP: granted later → fetched then; withdrawn → forgotten in memory and storage", async () => {
    const { page, frame } = await open('', { cmp: false });
    await frame.waitForFunction(() => window.vidframeConsent!.consent$.value === false);
    expect((await ads.requests()).count).toBe(0);
    await page.evaluate(() => (window as unknown as { setConsent(v: boolean): void }).setConsent(true));
    await frame.waitForFunction(() => window.vidframeConsent!.anonymousId$.value.status === 'ready');
    expect((await ads.requests()).count).toBe(1);
    expect(await frame.evaluate(() => localStorage.getItem('vidframe.anonymousId'))).not.toBeNull();

    await page.evaluate(() => (window as unknown as { setConsent(v: boolean): void }).setConsent(false));
    await frame.waitForFunction(() => window.vidframeConsent!.anonymousId$.value.status === 'none');
    expect(await frame.evaluate(() => localStorage.getItem('vidframe.anonymousId'))).toBeNull();
    await page.close();
  });

  it("counts an answer without the )]}' prefix, or of another type, as missing ('Biscotti ID is missing from server'), retried at 2 min, refreshed at 30 min", async () => {
    await ads.script([{ body: '{"id":"no-prefix-id","type":1}' }, { body: ')]}\'\n{"id":"wrong-type","type":2}' }]);
    // A browser of its own, whose clock is the test's (Playwright installs it for the whole context), so the 2-minute
    // retries and the 30-minute refresh happen on demand without slowing the other tests' pages.
    const own = await launchProfileBrowser();
    const page = await own.context.newPage();
    await page.clock.install();
    const { frame } = await open('consent=1', { page });
    await frame.waitForFunction(() => window.vidframeConsent!.anonymousId$.value.status === 'missing');
    expect(await frame.evaluate(() => window.vidframeConsent!.anonymousId$.value)).toEqual({
      status: 'missing',
      error: 'Biscotti ID is missing from server',
      retriesLeft: 2,
    });
    await page.clock.fastForward(120_000);
    await frame.waitForFunction(() => (window.vidframeConsent!.anonymousId$.value as { retriesLeft?: number }).retriesLeft === 1);
    expect((await ads.requests()).count).toBe(2);
    await page.clock.fastForward(120_000); // the last retry: the ads host now answers properly
    await frame.waitForFunction(() => window.vidframeConsent!.anonymousId$.value.status === 'ready');
    expect((await ads.requests()).count).toBe(3);
    await page.clock.fastForward(1_800_000);
    await until(
      () => ads.requests(),
      (r) => r.count === 4,
      'the 30-minute refresh',
    );
    await own.close();
  });
});

describe('issue 13: preferences and geolocation', () => {
  it('a preference set in one embed is there in the next (the PREF cookie)', async () => {
    const first = await open('');
    await first.frame.evaluate(() => {
      window.vidframePlayer!.command({ type: 'setVolume', volume: 30 });
      window.vidframePlayer!.command({ type: 'setPlaybackRate', rate: 1.5 });
    });
    // The PREF cookie, or (this browser blocks cookies in frames on other sites) its copy in the frame's storage.
    await first.frame.waitForFunction(() => {
      const kept = document.cookie + (localStorage.getItem('vidframe.cookie.PREF') ?? '');
      return /volume=30/.test(kept) && /playback_rate=1.5/.test(kept);
    });
    await first.page.close();

    const second = await open('');
    await second.frame.waitForFunction(() => {
      const video = document.querySelector('video') as HTMLVideoElement;
      return Math.round(video.volume * 100) === 30 && video.playbackRate === 1.5;
    });
    await second.page.close();
  });

  it('sends no location when the host does not let the frame ask, or does not enable it', async () => {
    // Forget the location token an earlier test kept (cookie, and its copy in the frame's storage).
    await context.clearCookies();
    const cleanup = await open('');
    await cleanup.frame.evaluate(() => localStorage.removeItem('vidframe.cookie.vf_loc'));
    await cleanup.page.close();
    await context.grantPermissions(['geolocation'], { origin: server.origin });
    await context.setGeolocation({ latitude: 1, longitude: 2 });
    // Enabled by the player variable, but the iframe has no allow="geolocation": the browser refuses.
    for (const [query, allow] of [
      ['geolocation=1', undefined],
      ['', 'autoplay; fullscreen; geolocation'],
    ] as const) {
      const { page, frame, pageId } = await open(query, { allow });
      await playAndPause(frame);
      await page.close({ runBeforeUnload: true });
      const requests = await requestsOf(pageId, (r) => r.length > 0, 'log requests');
      expect(requests.every((r) => r.context.client.locationInfo === undefined)).toBe(true);
    }
    await context.clearPermissions();
  });
});
