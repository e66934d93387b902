import type { BrowserContext } from 'playwright-core';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { SERVICES_RETRY_AFTER_MS } from '../../streams/timing';
import { withE2eEnvironment } from './helpers/environment';
import {
  collectorOf,
  countsOf,
  embedFrame,
  launchProfileBrowser,
  oneTo,
  openEmbed,
  sequenceNumbers,
  until,
  watch,
  watched,
  type Collector,
  type ProfileBrowser,
} from './telemetry.helpers';

/**
 * Issue 7 in the browser: network, visibility and page lifecycle of the framed embed, seen as the page's states and
 * as the events logged at the collector. Everything is real: the network goes offline through Chromium's network
 * emulation (`context.setOffline`), the embed's page is hidden by bringing another tab to the front (a real
 * `visibilitychange`, see `launchProfileBrowser`), and the lifecycle flush is a real page close with `beforeunload`.
 */
let server: RunningServer;
let host: HostServer;
let profile: ProfileBrowser;
let context: BrowserContext;
let collector: Collector;

withE2eEnvironment((env) => {
  ({ server, host, browser: profile } = env);
  context = profile.context;
  collector = collectorOf(server);
}, launchProfileBrowser);
beforeEach(() => collector.clear());

const payloads = (events: { name: string; event: Record<string, any> }[], name: string) => events.filter((e) => e.name === name).map((e) => e.event[name]);

describe('issue 7: browser state as streams, in the framed embed', () => {
  it('offline and online: the network states follow (online confirmed by generate_204), networkChange is logged, and closing the page flushes it', async () => {
    const { page, frame, pageId } = await openEmbed(context, server, host, 'VFcitylight', 'autoplay=0');
    await until(
      () => collector.requests(pageId),
      (r) => r.length >= 1,
      'the first batch',
    );
    await watch(frame, 'online$');
    expect(await watched(frame, 'online$')).toEqual([true]);

    await context.setOffline(true);
    await frame.waitForFunction(() => !navigator.onLine);
    await until(
      () => watched(frame, 'online$'),
      (v) => v.length === 2,
      'the offline state',
    );
    const probes: string[] = [];
    page.on('requestfinished', (r) => void (r.url().endsWith('/generate_204') && probes.push(r.url())));

    await context.setOffline(false);
    await until(
      () => watched(frame, 'online$'),
      (v) => v.length === 3,
      'the online state',
    );
    expect(await watched(frame, 'online$')).toEqual([true, false, true]);
    expect(probes.length).toBeGreaterThanOrEqual(1); // online only once the probe answered
    // Nothing of it was sent yet: after the first batch the debounce needs 5 events.
    expect(payloads(await collector.events(pageId), 'networkChange')).toEqual([]);

    const { events: total } = await countsOf(frame);
    await page.close({ runBeforeUnload: true }); // the lifecycle flush
    const events = await until(
      () => collector.events(pageId),
      (e) => e.length >= total,
      `all ${total} events`,
    );
    expect(payloads(events, 'networkChange')).toEqual([{ online: false }, { online: true }]);
    expect(
      sequenceNumbers(
        events.map((e) => e.clientEventId),
        pageId,
      ),
    ).toEqual(oneTo(total));
  });

  it('hiding and showing the page (another tab in front, then back): document visibility, the visibility states and visibilityChange at the collector', async () => {
    const { page, frame, pageId } = await openEmbed(context, server, host, 'VFcitylight', 'autoplay=0');
    await page.bringToFront();
    await watch(frame, 'visibility$');
    expect(await frame.evaluate(() => document.visibilityState)).toBe('visible');
    expect(await watched(frame, 'visibility$')).toEqual(['visible']);
    await frame.evaluate(() => {
      const w = window as unknown as { docStates: string[] };
      w.docStates = [];
      document.addEventListener('visibilitychange', () => w.docStates.push(document.visibilityState));
    });

    const other = await context.newPage();
    await other.bringToFront();
    // A hidden page may run no animation frames, by which waitForFunction polls by default: poll on a timer.
    await frame.waitForFunction(() => document.visibilityState === 'hidden', undefined, { polling: 100 });
    await until(
      () => watched(frame, 'visibility$'),
      (v) => v.length === 2,
      'the backgrounded state',
    );

    await page.bringToFront();
    await frame.waitForFunction(() => document.visibilityState === 'visible');
    await until(
      () => watched(frame, 'visibility$'),
      (v) => v.length === 3,
      'the foregrounded state',
    );
    expect(await watched(frame, 'visibility$')).toEqual(['visible', 'backgrounded', 'foregrounded']);
    expect(await frame.evaluate(() => (window as unknown as { docStates: string[] }).docStates)).toEqual(['hidden', 'visible']);
    await other.close();

    const { events: total } = await countsOf(frame);
    await page.close({ runBeforeUnload: true });
    const events = await until(
      () => collector.events(pageId),
      (e) => e.length >= total,
      `all ${total} events`,
    );
    expect(payloads(events, 'visibilityChange').map((p) => p.state)).toEqual(['visible', 'backgrounded', 'foregrounded']);
    expect(
      sequenceNumbers(
        events.map((e) => e.clientEventId),
        pageId,
      ),
    ).toEqual(oneTo(total));
  });

  it('a page hidden while its services chunk is refused asks for it again at once, sooner than the retry delay, and its logging sends what was recorded', async () => {
    const page = await context.newPage();
    // The first request for the services chunk fails; from then on it is served.
    const servicesRequests: number[] = [];
    await page.route(/\/assets\/services-[^/]*\.js$/, (route) => {
      servicesRequests.push(Date.now());
      return servicesRequests.length === 1 ? route.abort('failed') : route.continue();
    });
    const failure = page.waitForEvent('console', { predicate: (m) => m.text().includes('the services could not load') });
    await page.goto(host.page(`/host-hidden-${Math.random().toString(36).slice(2)}.html`, framingPage(`${server.origin}/embed/VFcitylight?autoplay=0`)));
    const frame = await embedFrame(page);
    await failure;
    // A cued video brings its controls at once, and their loading asks for the services too: once they are mounted
    // (after that failed request), only the page being hidden can ask for the services before the retry delay.
    await frame.waitForFunction(() => (document.querySelector('.vf-ui')?.childElementCount ?? 0) > 0);
    expect(servicesRequests).toHaveLength(1);
    // Another tab in front: the embed's page is hidden, its last chance to send, so it asks for the services now.
    const other = await context.newPage();
    await other.bringToFront();
    // A hidden page may run no animation frames, by which waitForFunction polls by default: poll on a timer.
    await frame.waitForFunction(() => document.visibilityState === 'hidden', undefined, { polling: 100 });
    await frame.waitForFunction(() => window.vidframeTelemetry !== undefined, undefined, { polling: 100 });
    expect(servicesRequests).toHaveLength(2);
    expect(servicesRequests[1] - servicesRequests[0]).toBeLessThan(SERVICES_RETRY_AFTER_MS);
    // The logging that came sends what was recorded before it, from the session's first event.
    const pageId = await frame.evaluate(() => window.vidframeTelemetry!.pageId);
    const events = await until(
      () => collector.events(pageId),
      (e) => e.some((x) => x.name === 'playerLoad') && e.some((x) => x.name === 'playerReady'),
      'the recorded session at the collector',
    );
    expect(
      sequenceNumbers(
        events.map((e) => e.clientEventId),
        pageId,
      ),
    ).toEqual(oneTo(events.length));
    await other.close();
    await page.close();
  });

  it('navigating the host page elsewhere flushes the queued events (beforeunload / pagehide), with the events the page never got to send', async () => {
    const { page, frame, pageId } = await openEmbed(context, server, host, 'VFcitylight', 'autoplay=0');
    await until(
      () => collector.requests(pageId),
      (r) => r.length >= 1,
      'the first batch',
    );
    // Queued events the collector has not seen: the video plays, then pauses.
    await frame.click('.vf-bigplay');
    await frame.waitForSelector('.vf-player[data-state="1"]');
    await frame.evaluate(() => document.querySelector('video')!.pause());
    await frame.waitForSelector('.vf-player[data-state="2"]');
    const before = await countsOf(frame);
    expect(before.events).toBeGreaterThan(before.eventsSettled);
    expect((await collector.events(pageId)).map((e) => e.name)).not.toContain('watchTimeSegment');

    await page.goto(host.page('/elsewhere.html', '<!doctype html><title>elsewhere</title><p>another page of the host'));
    const events = await until(
      () => collector.events(pageId),
      (e) => e.length >= before.events,
      `the ${before.events} events`,
    );
    expect(events.map((e) => e.name)).toContain('watchTimeSegment');
    expect(
      sequenceNumbers(
        events.map((e) => e.clientEventId),
        pageId,
      ),
    ).toEqual(oneTo(before.events));
    // The last request left through the unload path: uncompressed whatever its size.
    const requests = await collector.requests(pageId);
    expect(requests[requests.length - 1].compressed).toBe(false);
    await page.close();
  });
});
