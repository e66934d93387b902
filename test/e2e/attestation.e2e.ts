import type { Browser, BrowserContext, Frame } from 'playwright-core';
import { launchBrowser, reachForPlayer, servicesStarted } from './helpers/browser';
import { framingPage, startHostServer, startServer, type HostServer, type RunningServer } from './helpers/servers';
import { collectorOf, embedFrame, until, type CollectedRequest, type Collector } from './telemetry.helpers';
import { AttestationState, BOTGUARD_LOAD_FAILED_MESSAGE, BOTGUARD_NO_PROGRAM_MESSAGE } from '../../streams/attestation/attestationStates';
import { AD_STATUS_SIGNAL_KEY, AdStatus } from '../../streams/adStatus/adStatusCheck';

/**
 * Issue 14 in the browser: the framed embed (host on `localhost`, embed on `127.0.0.1`, ads host on a third port)
 * against the real server. The attestation program really loads and solves the server's challenges with crypto.subtle,
 * and its token is checked by the server's own verifier (the testHooks route over it); the broken programs are the
 * server's test variants (`vf_attestation=`). The ad-status value is read where it lands: the context of a log request
 * the collector stored. Each test has its own browser context, so no script cache or storage carries over.
 */

jest.setTimeout(120_000);
const VIDEO = 'VFsunrise01';

let server: RunningServer;
let host: HostServer;
let browser: Browser;
let context: BrowserContext | undefined;
let collector: Collector;
/** What the browser refused under the page's Content-Security-Policy, per test (the console says so). */
let cspRefusals: string[] = [];

beforeAll(async () => {
  [server, host, browser] = await Promise.all([startServer({ adsHost: true }), startHostServer(), launchBrowser()]);
  collector = collectorOf(server);
});
afterEach(async () => {
  await context?.close();
  context = undefined;
  await fetch(`${server.ads!.origin}/testhooks`, { method: 'DELETE' });
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await server?.close();
});

/**
 * A fresh browser context's host page framing the embed; resolves once the player is ready and its services started,
 * and (unless `untouched`) the viewer reached for the player: the controls mount and start the attestation loader.
 */
async function open(query = '', { untouched = false } = {}): Promise<{ frame: Frame; pageId: string }> {
  context = await browser.newContext();
  const page = await context.newPage();
  cspRefusals = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspRefusals.push(message.text());
  });
  await page.goto(host.page(`/host-${Math.random().toString(36).slice(2)}.html`, framingPage(`${server.origin}/embed/${VIDEO}${query ? `?${query}` : ''}`)));
  const frame = await embedFrame(page);
  await frame.waitForSelector('[data-readiness="ready"]');
  await servicesStarted(frame);
  if (!untouched) await reachForPlayer(frame);
  return { frame, pageId: await frame.evaluate(() => window.vidframeTelemetry!.pageId) };
}

/** Waits for the page's loader to settle in `state`; resolves with its state and message. */
async function settledIn(frame: Frame, state: number) {
  await frame.waitForFunction((s) => window.vidframeAttestation?.state === s, state);
  return frame.evaluate(() => ({ state: window.vidframeAttestation!.state, message: window.vidframeAttestation!.message }));
}

/** Plays a moment and pauses, so the session logs a few more events (as identity.e2e does). */
const playAndPause = async (frame: Frame) => {
  await frame.evaluate(() => window.vidframePlayer!.command({ type: 'play' }));
  await frame.waitForFunction(() => (document.querySelector('video') as HTMLVideoElement).currentTime > 0.3);
  await frame.evaluate(() => window.vidframePlayer!.command({ type: 'pause' }));
};

const verifyOnServer = async (response: unknown): Promise<unknown> =>
  (
    await fetch(`${server.origin}/attestation/testhooks/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response }),
    })
  ).json();

const adStatusOf = (request: CollectedRequest): string | undefined =>
  (request.context?.adSignalsInfo?.params as { key: string; value: string }[] | undefined)?.find((p) => p.key === AD_STATUS_SIGNAL_KEY)?.value;

/** The frame's requests for the attestation program or a challenge so far. */
const attestationRequests = (frame: Frame) =>
  frame.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((path) => path.startsWith('/attestation/')),
  );

describe('attestation in the framed embed (spec §4/§8)', () => {
  it('a video nobody touches never loads the program (state 1); reaching for the player does, and it gets ready', async () => {
    // Muted autoplay, playing on its own: its controls do not load until the viewer reaches for it (a cued video's do).
    const { frame } = await open('autoplay=1&mute=1', { untouched: true });
    await frame.waitForSelector('[data-state="1"]');
    // The page was idle (the ad-status check, started then, has ended), and still no program nor challenge.
    await frame.waitForFunction(() => window.vidframeAttestation?.adStatus$.value !== undefined);
    expect(await frame.evaluate(() => window.vidframeAttestation!.state)).toBe(AttestationState.INITIAL);
    expect(await attestationRequests(frame)).toEqual([]);
    await reachForPlayer(frame);
    expect(await settledIn(frame, AttestationState.READY)).toEqual({ state: 6, message: undefined });
    expect(await attestationRequests(frame)).toEqual(['/attestation/program.js', '/attestation/challenge']);
  });

  it('loads the program, reaches ready (6), and its tokens are accepted by the server once each', async () => {
    const { frame } = await open();
    expect(await settledIn(frame, AttestationState.READY)).toEqual({ state: 6, message: undefined });
    const [first, second] = await frame.evaluate(async () => [await window.vidframeAttestation!.response(), await window.vidframeAttestation!.response()]);
    expect(first).toMatch(/^ac1\./);
    expect(second).not.toBe(first);
    expect(cspRefusals).toEqual([]);
    expect(await verifyOnServer(first)).toEqual({ ok: true });
    expect(await verifyOnServer(second)).toEqual({ ok: true });
    expect(await verifyOnServer(first)).toEqual({ ok: false, reason: 'The attestation response was replayed: already used' });
    // Disposed: state 8, and no more tokens.
    expect(
      await frame.evaluate(
        async () => (window.vidframeAttestation!.dispose(), [window.vidframeAttestation!.state, await window.vidframeAttestation!.response()]),
      ),
    ).toEqual([8, undefined]);
  });

  it('a program URL that 404s ends in state 3, "Unable to load Botguard", which the page also reports', async () => {
    const { frame } = await open('vf_attestation=missing');
    expect(await settledIn(frame, AttestationState.FAILED_BY_URL)).toEqual({ state: 3, message: BOTGUARD_LOAD_FAILED_MESSAGE });
    expect(await frame.evaluate(() => window.vidframeAttestation!.response())).toBeUndefined();
    const errors = await until(
      () => collector.errors<{ message: string }>(),
      (all) => all.some((e) => e.message === `Error: ${BOTGUARD_LOAD_FAILED_MESSAGE}`),
      'the Botguard load error report',
    );
    expect(errors.filter((e) => e.message.includes('Botguard'))).toHaveLength(1);
  });

  it('a program that throws while starting ends in state 4, "Cannot initialize botguard without program"', async () => {
    const { frame } = await open('vf_attestation=throw');
    expect(await settledIn(frame, AttestationState.FAILED_BY_SCRIPT)).toEqual({ state: 4, message: BOTGUARD_NO_PROGRAM_MESSAGE });
    await until(
      () => collector.errors<{ message: string }>(),
      (all) => all.some((e) => e.message === `Error: ${BOTGUARD_NO_PROGRAM_MESSAGE}`),
      'the no-program error report',
    );
  });

  it('a program whose challenge fails ends in state 7 with the cause', async () => {
    const { frame } = await open('vf_attestation=fail');
    expect(await settledIn(frame, AttestationState.FAILED)).toEqual({ state: 7, message: 'The attestation challenge failed (test variant)' });
  });
});

describe('the ad-status check in the framed embed (spec §4/§7/§9)', () => {
  it('stores 1 when the ads host answers, and the log requests carry adst=1', async () => {
    const { frame, pageId } = await open();
    await frame.waitForFunction((v) => window.vidframeAttestation?.adStatus$.value === v, AdStatus.LOADED);
    await until(
      () => collector.requests(pageId),
      (requests) => requests.some((r) => adStatusOf(r) === '1'),
      'a log request with adst=1',
    );
    // The ads origin's script ran under the embed's CSP (script-src names that origin), and nothing was refused.
    expect(cspRefusals).toEqual([]);
  });

  it('stores 3 when the script never answers within 5 s, and the log requests carry adst=3', async () => {
    await fetch(`${server.ads!.origin}/testhooks/ad-status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ delayMs: 60_000 }),
    });
    const { frame, pageId } = await open();
    await frame.waitForFunction((v) => window.vidframeAttestation?.adStatus$.value === v, AdStatus.TIMED_OUT, { timeout: 30_000 });
    // The page's first log request left before the 5 s were over: a moment of playback logs more.
    await playAndPause(frame);
    const requests = await until(
      () => collector.requests(pageId),
      (all) => all.some((r) => adStatusOf(r) === '3'),
      'a log request with adst=3',
    );
    // Nothing claimed the script loaded on this page.
    expect(requests.some((r) => adStatusOf(r) === '1')).toBe(false);
  });
});
