import type { BrowserContext, Frame, Page, Request } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import {
  collectorOf,
  countsOf,
  launchProfileBrowser,
  oneTo,
  openEmbed,
  sequenceNumbers,
  until,
  type Collector,
  type ProfileBrowser,
} from './telemetry.helpers';

/**
 * In the browser: the real embed, framed by a host on another origin, logs a viewing session to the real
 * collector. The batching constants are the production ones: the first batch leaves 2 s after the first event; what
 * comes later waits for the debounce (10 s, ≥ 5 events) or the max wait (60 s), so these tests deliver it the way a
 * leaving viewer does — by closing the page (the lifecycle flush through keepalive). No fixed sleeps: every wait is a
 * condition in the page or a bounded poll of the collector.
 */
let server: RunningServer;
let host: HostServer;
let profile: ProfileBrowser;
let browser: BrowserContext;
let collector: Collector;

withE2eEnvironment((env) => {
  ({ server, host, browser: profile } = env);
  browser = profile.context;
  collector = collectorOf(server);
}, launchProfileBrowser);
beforeEach(async () => {
  await collector.clearFaults();
  await collector.clear();
});

const names = (events: { name: string }[]) => events.map((e) => e.name);

/** Log requests of the page as the browser sent them (the OOPIF's requests included), with their answers. */
function watchLogRequests(page: Page) {
  const seen: { request: Request; status?: number; gzip: boolean; body: any }[] = [];
  page.on('requestfinished', async (request) => {
    // Log requests only: the page's other calls (the viewer's state of the video, …) are not the batches under test.
    if (!request.url().includes('/youtubei/v1/log_event')) return;
    const entry = {
      request,
      gzip: (await request.allHeaders())['content-encoding'] === 'gzip',
      body: undefined as any,
      status: (await request.response())?.status(),
    };
    const raw = request.postDataBuffer();
    entry.body = raw && !entry.gzip ? JSON.parse(raw.toString('utf8')) : undefined;
    seen.push(entry);
  });
  return seen;
}

describe('a viewing session at the collector', () => {
  it('logs load, ready with latency, state changes and a watch-time segment, with the client context and headers; closing the page mid-batch delivers the rest', async () => {
    const { page, frame, pageId } = await openEmbed(browser, server, host, 'VFcitylight', 'autoplay=1');

    // The first batch: 2 s after the first event (playerLoad at start-up).
    const [first] = await until(
      () => collector.requests(pageId),
      (r) => r.length >= 1,
      'the first batch',
    );
    const firstEvents = await collector.events(pageId);
    expect(names(firstEvents)[0]).toBe('playerLoad');

    // What the page hands to the sink and what its requests carry, watched inside the page from here on (the first
    // batch has left): the test waits on these events, never on the batching timers.
    await watchPageLogging(frame);

    // Play a second of the video, then pause: a watch-time segment closes. Under load the player may stall (1 → 3 → 1),
    // which closes a segment too, and a debounce flush may carry it away: only the pause's own segment matters here.
    // Close the page as soon as the sink holds that segment and no request has carried it — mid-batch, by the page's
    // own account. Should a flush have carried it already (a very slow machine), play and pause once more.
    let pausedAt: number;
    for (let attempt = 1; ; attempt++) {
      const from = await frame.evaluate(() => document.querySelector('video')!.currentTime);
      if (attempt > 1) await frame.evaluate(() => document.querySelector('video')!.play());
      await frame.waitForFunction((t) => document.querySelector('video')!.currentTime > t + 1, from);
      await frame.evaluate(() => document.querySelector('video')!.pause());
      await frame.waitForSelector('.vf-player[data-state="2"]');
      pausedAt = await frame.evaluate(() => document.querySelector('video')!.currentTime);
      // The pause's segment reached the sink (the dispatcher hands it over in an idle slot).
      await frame.waitForFunction((end) => pageLogging().dispatched.some((e) => e.name === 'watchTimeSegment' && Math.abs(e.endSec! - end) < 0.05), pausedAt);
      const mid = await frame.evaluate((end) => {
        const carried = pageLogging().requests.some((r) => r.segmentEnds.some((e) => Math.abs(e - end) < 0.05));
        const { events, eventsSettled } = window.vidframeTelemetryDiagnostics!.counts;
        return { carried, pending: events - eventsSettled };
      }, pausedAt);
      if (!mid.carried) {
        expect(mid.pending).toBeGreaterThan(0);
        break;
      }
      if (attempt === 3) throw new Error('every pause segment left in a regular batch before the page could close');
    }
    const counts = await countsOf(frame);

    // The viewer leaves: beforeunload / pagehide flush the queue through keepalive.
    await page.close({ runBeforeUnload: true });
    const events = await until(
      () => collector.events(pageId),
      (e) => e.length >= counts.events,
      `all ${counts.events} events of the page`,
    );

    // Everything the page logged arrived, each clientEventId once.
    expect(
      sequenceNumbers(
        events.map((e) => e.clientEventId),
        pageId,
      ),
    ).toEqual(oneTo(events.length));
    const byName = (name: string) => events.filter((e) => e.name === name).map((e) => e.event[name]);

    expect(byName('playerLoad')).toEqual([expect.objectContaining({ videoId: 'VFcitylight', autoplay: true, hostOrigin: host.origin })]);
    const [ready] = byName('playerReady');
    expect(ready.videoId).toBe('VFcitylight');
    expect(ready.latencyMs).toBeGreaterThan(0);
    expect(ready.latencyMs).toBeLessThan(30_000);
    // Latency timing (spec §9) through logging: navigation start → ready, and → first playing, in that order of size.
    const spans = Object.fromEntries(byName('latencyReport').map((l) => [l.to, l]));
    expect(spans.playerReady).toMatchObject({ action: 'embed', from: 'navigationStart' });
    expect(spans.firstPlaying).toMatchObject({ action: 'embed', from: 'navigationStart' });
    expect(spans.playerReady.durationMs).toBeGreaterThan(0);
    expect(spans.firstPlaying.durationMs).toBeGreaterThanOrEqual(spans.playerReady.durationMs);

    const states = byName('playerStateChange').map((s) => s.state);
    expect(states).toContain(1);
    expect(states[states.length - 1]).toBe(2);
    const pause = byName('playerStateChange')
      .filter((s) => s.state === 2)
      .pop()!;
    expect(pause).toMatchObject({ videoId: 'VFcitylight', previousState: 1 });
    expect(pause.mediaTimeSec).toBeCloseTo(pausedAt, 1);

    // The pause's segment ends where the video paused; all segments together cover more than the second played.
    const segments = byName('watchTimeSegment');
    const segment = segments[segments.length - 1];
    expect(segment).toMatchObject({ videoId: 'VFcitylight', playbackRate: 1 });
    expect(segment.endSec).toBeCloseTo(pausedAt, 1);
    expect(segments.reduce((sum, s) => sum + s.endSec - s.startSec, 0)).toBeGreaterThan(1);

    // The requests: context of spec §3 and headers of spec §7.
    const requests = await collector.requests(pageId);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    const ua = await browser.newPage().then(async (p) => [await p.evaluate(() => navigator.userAgent), await p.close()][0]);
    for (const request of requests) {
      expect(request.endpoint).toBe('log_event');
      expect(request.context.client).toMatchObject({
        clientName: 'WEB_EMBEDDED_PLAYER',
        clientVersion: expect.stringMatching(/^\d+\.\d{8}\.\d\d\.\d\d$/),
        userAgent: ua,
      });
      expect(request.headers['x-youtube-client-name']).toBe('56');
      expect(request.headers['x-youtube-client-version']).toBe(request.context.client.clientVersion);
      expect(request.headers['content-type']).toContain('application/json');
      expect(request.headers.origin).toBe(server.origin);
      expect(request.serializedClientEventId?.serializedEventId).toBe(pageId);
      expect(typeof request.requestTimeMs).toBe('number');
    }
    expect(requests.map((r) => r.serializedClientEventId?.clientCounter)).toEqual(oneTo(requests.length));
    // The first batch was big enough to be gzipped; the last one left through the unload path, which never waits for
    // compression (an uncompressed body over the 500-byte threshold can only come from there).
    expect(first.compressed).toBe(true);
    const last = requests[requests.length - 1];
    expect(last.compressed).toBe(false);
    expect(last.decodedBytes).toBeGreaterThanOrEqual(500);
    // The pause's segment, held in the sink at the close, left through the unload flush.
    expect(events.filter((e) => e.requestId === last.requestId).map((e) => e.event.watchTimeSegment?.endSec)).toContain(segment.endSec);
    expect(first.context.client.screenDensityFloat).toBeGreaterThan(0);
    expect(first.context.client.timeZone).toBeTruthy();
    expect(first.headers['x-youtube-time-zone']).toBe(first.context.client.timeZone);

    await expectCountedOnce(collector);
  });

  it('a collector answering 415 to gzip makes the client resend the same events uncompressed, and stop compressing', async () => {
    await collector.fault(415, 1);
    const page = await browser.newPage();
    const wire = watchLogRequests(page);
    const { frame, pageId } = await openEmbed(browser, server, host, 'VFcitylight', 'autoplay=1', { page });

    // The first batch: refused once as gzip (the browser saw the 415), then accepted uncompressed.
    const [accepted] = await until(
      () => collector.requests(pageId),
      (r) => r.length >= 1,
      'the resent first batch',
    );
    expect(accepted.compressed).toBe(false);
    expect(accepted.decodedBytes).toBeGreaterThanOrEqual(500); // would have been compressed
    expect(accepted.headers['content-encoding']).toBeUndefined();
    const stats = await collector.stats();
    expect(stats.faultsPlayed).toBe(1);
    expect(stats.pendingFault).toBeNull();
    await until(
      async () => wire.length,
      (n) => n >= 2,
      'both requests seen by the browser',
    );
    const [refused, resent] = wire;
    expect(refused).toMatchObject({ status: 415, gzip: true });
    expect(resent).toMatchObject({ status: 200, gzip: false });
    // The same request: same counter, same events, same ids.
    expect(resent.body.serializedClientEventId).toEqual(accepted.serializedClientEventId);
    const ids = (await collector.events(pageId)).map((e) => e.clientEventId);
    expect(resent.body.events.map((e: { clientEventId: string }) => e.clientEventId)).toEqual(ids);
    expect(sequenceNumbers(ids, pageId)).toEqual(oneTo(ids.length));

    // Compression stays off for the page: the next batch goes plain too (delivered here by closing the page).
    await frame.evaluate(() => document.querySelector('video')!.pause());
    await frame.waitForSelector('.vf-player[data-state="2"]');
    const { events: total } = await countsOf(frame);
    await page.close({ runBeforeUnload: true });
    await until(
      () => collector.events(pageId),
      (e) => e.length >= total,
      `all ${total} events`,
    );
    const requests = await collector.requests(pageId);
    expect(requests.every((r) => !r.compressed)).toBe(true);
    await expectCountedOnce(collector);
  });
});

/** What {@link watchPageLogging} keeps in the page. */
interface PageLogging {
  /** Each event as the tier dispatcher handed it to the sink (a segment with its end). */
  dispatched: { name: string; endSec?: number }[];
  /** Each log request the sink built, with the ends of the watch-time segments it carries. */
  requests: { type: string; keepalive: boolean; segmentEnds: number[] }[];
}
declare global {
  // Evaluated in the page: the list {@link watchPageLogging} keeps.
  function pageLogging(): PageLogging;
}

/** Subscribes, inside the page, to the telemetry's dispatched events and log-request outcomes (see {@link PageLogging}). */
const watchPageLogging = (frame: Frame) =>
  frame.evaluate(() => {
    const kept: PageLogging = { dispatched: [], requests: [] };
    (window as unknown as { pageLogging: () => PageLogging }).pageLogging = () => kept;
    const telemetry = window.vidframeTelemetryDiagnostics!;
    telemetry.dispatched$.subscribe((e) => kept.dispatched.push({ name: e.name, endSec: (e.payload as { endSec?: number }).endSec }));
    telemetry.outcome$.subscribe((o) => {
      if (o.type === 'buildFailed') return;
      let segmentEnds: number[] = [];
      try {
        const body = JSON.parse(o.request.options.body) as { events: { watchTimeSegment?: { endSec: number } }[] };
        segmentEnds = body.events.flatMap((e) => (e.watchTimeSegment ? [e.watchTimeSegment.endSec] : []));
      } catch {
        /* a body that is not JSON carries no segment we could read */
      }
      kept.requests.push({ type: o.type, keepalive: o.type === 'sent' && o.keepalive, segmentEnds });
    });
  });

/** Nothing counted twice: no resent event was taken again, every clientEventId is stored once. */
async function expectCountedOnce(collector: Collector) {
  const [stats, events, requests] = await Promise.all([collector.stats(), collector.events(), collector.requests()]);
  expect(stats.duplicatesDropped).toBe(0);
  expect(new Set(events.map((e) => e.clientEventId)).size).toBe(events.length);
  expect(stats.events).toBe(events.length);
  expect(requests.reduce((n, r) => n + r.accepted, 0)).toBe(events.length);
}
