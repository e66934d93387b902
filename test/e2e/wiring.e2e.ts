import type { BrowserContext, Frame, Page } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import { rawHostPage, waitMessage } from './host.helpers';
import { collectorOf, countsOf, embedFrame, launchProfileBrowser, until, type CollectedEvent, type Collector, type ProfileBrowser } from './telemetry.helpers';
import { servicesStarted } from './helpers/browser';

/**
 * In the browser: spec parts wired into the running embed page, proven there and
 * at the real collector — application navigation, the tracking parameters of `rct` / `rctn`, the visual-element
 * attach cache, the host commands as received, the delayed-event tiers, the sampled storage events and stored-log
 * outcomes (the draw forced in and out through the frame's `vidframeSampleRandom`), and the request log's lifetime.
 * Every wait is a condition in the page or a bounded poll of the collector.
 */
let server: RunningServer;
let host: HostServer;
let profile: ProfileBrowser;
let collector: Collector;

withE2eEnvironment((env) => {
  ({ server, host, browser: profile } = env);
  collector = collectorOf(server);
}, launchProfileBrowser);
beforeEach(async () => {
  await collector.clearFaults();
  await collector.clear();
});

const jsapi = () => `enablejsapi=1&origin=${encodeURIComponent(host.origin)}&widgetid=1`;

/** A raw postMessage host on another origin framing the embed (host.helpers); resolves once the host got onReady. */
async function openHosted(context: BrowserContext, videoId: string, query: string): Promise<{ page: Page; frame: Frame; pageId: string }> {
  const page = await context.newPage();
  const embedUrl = `${server.origin}/embed/${videoId}?${query}`;
  await page.goto(host.page(`/wiring-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
  await waitMessage(page, 'onReady');
  const frame = await embedFrame(page);
  await frame.waitForSelector('[data-readiness="ready"]');
  await servicesStarted(frame);
  const pageId = await frame.evaluate(() => window.vidframeTelemetry!.pageId);
  return { page, frame, pageId };
}

/** Closes the page the way a leaving viewer does and waits until the collector holds every event the page logged. */
async function closeAndCollect(page: Page, frame: Frame, pageId: string): Promise<CollectedEvent[]> {
  const { events: total } = await countsOf(frame);
  await page.close({ runBeforeUnload: true });
  return until(
    () => collector.events(pageId),
    (e) => e.length >= total,
    `all ${total} events of the page`,
  );
}

const payloads = (events: CollectedEvent[], name: string) => events.filter((e) => e.name === name).map((e) => e.event[name]);

describe('spec parts wired into the running page', () => {
  it('host loads: navigation none → application_navigating → none 5 s after the latest start; rct/rctn carried as tracking params cut at 500; each video attached once; each host command logged as received; FAST and DISPATCH_TO_EMPTY tiers', async () => {
    const { page, frame, pageId } = await openHosted(profile.context, 'VFsunrise01', `${jsapi()}&autoplay=0`);
    // Watch the navigation state inside the page, with the page's clock.
    await frame.evaluate(() => {
      const w = window as unknown as { vfNavigation: { state: string; at: number }[] };
      w.vfNavigation = [];
      window.vidframeTelemetryDiagnostics!.navigation$.subscribe((state) => w.vfNavigation.push({ state, at: performance.now() }));
    });
    const navigation = () => frame.evaluate(() => (window as unknown as { vfNavigation: { state: string; at: number }[] }).vfNavigation);
    expect((await navigation()).map((n) => n.state)).toEqual(['none']);

    // A command the protocol refuses (bad arguments): received, not accepted.
    await page.evaluate(() => window.send('seekTo', ['soon']));
    await page.evaluate(() => window.send('addEventListener', ['onStateChange']));
    const rct = 'A'.repeat(100);
    await page.evaluate((r) => window.send('loadVideoById', [{ videoId: 'VFcitylight', rct: r, rctn: '7' }]), rct);
    await frame.waitForFunction(() =>
      (window as unknown as { vfNavigation: { state: string }[] }).vfNavigation.some((n) => n.state === 'application_navigating'),
    );
    // The player has the load's rct / rctn.
    const referral = await frame.evaluate(() => new Promise((resolve) => window.vidframePlayer!.model$.subscribe((m) => resolve(m.referral))));
    expect(referral).toEqual({ rct, rctn: '7' });
    // A second load while navigating restarts the 5 s; then the same first video again (already attached), with an rct
    // longer than the tracking-parameter limit.
    await page.evaluate(() => window.send('cueVideoById', [{ videoId: 'VFsunrise01', rct: 'B'.repeat(600), rctn: '8' }]));
    await frame.waitForFunction(() => document.querySelector('.vf-player')?.getAttribute('data-state') === '5');
    await frame.waitForFunction(
      () => {
        const list = (window as unknown as { vfNavigation: { state: string }[] }).vfNavigation;
        return list.length >= 3 && list[list.length - 1].state === 'none';
      },
      undefined,
      { timeout: 30_000 },
    );
    // none, then application_navigating / none pairs: the second load came while navigating (one pair) or, on a slow
    // machine, after the reset (two pairs). Each pair ends no sooner than 5 s after it started (a timer never fires
    // early: a lower bound only).
    const states = await navigation();
    expect(states.length % 2).toBe(1);
    states.forEach((n, i) => expect(n.state).toBe(i % 2 === 1 ? 'application_navigating' : 'none'));
    for (let i = 1; i < states.length; i += 2) expect(states[i + 1].at - states[i].at).toBeGreaterThanOrEqual(5_000 - 1);

    // The cache in the page is the spec's (1000 entries), holding the two videos shown.
    const cache = await frame.evaluate(() => ({
      limit: window.vidframeTelemetryDiagnostics!.attachCache.limit,
      size: window.vidframeTelemetryDiagnostics!.attachCache.size,
    }));
    expect(cache).toEqual({ limit: 1000, size: 2 });
    // Tiers as dispatched in the page.
    const tiers = await frame.evaluate(() => ({ ...window.vidframeTelemetryDiagnostics!.dispatchedTiers }));
    expect(tiers).toMatchObject({
      hostCommandReceived: 300, // FAST
      navigationStateChange: 300, // FAST
      videoLoad: 200, // DISPATCH_TO_EMPTY
      playerLoad: 200,
      visibilityChange: 200, // DISPATCH_TO_EMPTY
      playerStateChange: 100, // DEFAULT
      visualElementAttached: 100,
    });

    const events = await closeAndCollect(page, frame, pageId);
    expect(payloads(events, 'navigationStateChange')).toEqual(states.slice(1).map(({ state }) => ({ state })));
    expect(payloads(events, 'videoLoad')).toEqual([
      { videoId: 'VFcitylight', trackingParams: `rct=${rct}&rctn=7` },
      { videoId: 'VFsunrise01', trackingParams: `rct=${'B'.repeat(496)}` },
    ]);
    expect(payloads(events, 'videoLoad')[1].trackingParams).toHaveLength(500);
    expect(payloads(events, 'visualElementAttached')).toEqual([
      { ve: 'video', videoId: 'VFsunrise01' },
      { ve: 'video', videoId: 'VFcitylight' },
    ]);
    expect(payloads(events, 'hostCommandReceived')).toEqual([
      { command: 'seekTo', hostOrigin: host.origin, accepted: false },
      { command: 'addEventListener', hostOrigin: host.origin, accepted: true },
      { command: 'loadVideoById', hostOrigin: host.origin, accepted: true },
      { command: 'cueVideoById', hostOrigin: host.origin, accepted: true },
    ]);
  });

  it.each([
    // draw, storage event (20 %) in?, stored-log outcome (10 %) in?
    [0.0999, true, true],
    [0.1, true, false],
    [0.2, false, false],
  ])('sampling with the draw forced to %p: storage event logged %p, stored-log outcome logged %p (at the collector)', async (draw, storageIn, storedIn) => {
    // A fresh context whose init script runs in the embed's frame before the page's own scripts: it forces the draw, and
    // makes the browser refuse IndexedDB to the frame the way a storage-blocking setting does (SecurityError), so the
    // page reports IDB_NOT_SUPPORTED (a sampled kind) and runs its retry queue in memory.
    const context = await profile.browser.newContext();
    try {
      await context.addInitScript(
        ({ value, origin }) => {
          if (location.origin !== origin) return;
          (window as unknown as { vidframeSampleRandom: () => number }).vidframeSampleRandom = () => value;
          IDBFactory.prototype.open = () => {
            throw new DOMException('The user denied permission to access the database.', 'SecurityError');
          };
        },
        { value: draw, origin: server.origin },
      );
      // The first log request fails: it is stored, then resent from the queue (a stored log request's end of life).
      await collector.fault(500, 1);
      const { page, frame, pageId } = await openHosted(context, 'VFsunrise01', `${jsapi()}&autoplay=0`);
      await frame.waitForFunction(() => window.vidframeTelemetryDiagnostics!.storageReports.length > 0);
      expect(await frame.evaluate(() => window.vidframeTelemetryDiagnostics!.storageReports.map((r) => r.type))).toContain('IDB_NOT_SUPPORTED');
      await frame.waitForFunction(() => window.vidframeTelemetryDiagnostics!.counts.resent >= 1, undefined, { timeout: 30_000 });
      expect((await collector.stats()).faultsPlayed).toBe(1);

      const events = await closeAndCollect(page, frame, pageId);
      const storage = payloads(events, 'storageEvent');
      if (storageIn) expect(storage).toContainEqual({ type: 'IDB_NOT_SUPPORTED', message: 'IndexedDB is not supported.', sampled: true });
      else expect(storage).toEqual([]);
      const stored = payloads(events, 'storedLogRequest');
      if (storedIn) expect(stored).toEqual([{ action: 'resent', sendCount: expect.any(Number) }]);
      else expect(stored).toEqual([]);
      // Whatever the draw, the page's own events all arrived (playerLoad first).
      expect(events.map((e) => e.name)).toContain('playerLoad');
    } finally {
      await context.close();
    }
  });

  it('the request log: one line per log request in the frame’s storage; a line 1 day old is gone, a younger one kept', async () => {
    const context = await profile.browser.newContext();
    try {
      const DAY = 24 * 60 * 60 * 1000;
      // Seeded in the embed's storage before its scripts run (this context opens one embed, once).
      await context.addInitScript(
        ({ origin, day }) => {
          if (location.origin !== origin) return;
          const now = Date.now();
          localStorage.setItem(
            'vidframe.requestLog',
            JSON.stringify([
              { timeMs: now - day - 60_000, endpoint: 'log_event', outcome: 'seeded-expired', eventCount: 1 },
              { timeMs: now - day + 3_600_000, endpoint: 'log_event', outcome: 'seeded-kept', eventCount: 2 },
            ]),
          );
        },
        { origin: server.origin, day: DAY },
      );
      const { page, frame, pageId } = await openHosted(context, 'VFsunrise01', `${jsapi()}&autoplay=0`);
      await until(
        () => collector.requests(pageId),
        (r) => r.length >= 1,
        'the first batch',
      );
      const log = await frame.waitForFunction(
        () => {
          const lines = JSON.parse(localStorage.getItem('vidframe.requestLog') ?? '[]') as { outcome: string }[];
          return lines.some((l) => l.outcome === 'sent') && !lines.some((l) => l.outcome === 'seeded-expired') ? lines : null;
        },
        undefined,
        { timeout: 15_000 },
      );
      const lines = (await log.jsonValue()) as { outcome: string; eventCount: number; endpoint: string }[];
      expect(lines[0]).toMatchObject({ outcome: 'seeded-kept', eventCount: 2 });
      expect(lines.slice(1)).toContainEqual(expect.objectContaining({ endpoint: 'log_event', outcome: 'sent' }));
      const read = await frame.evaluate(() => window.vidframeTelemetryDiagnostics!.requestLog.read(Date.now()));
      expect(read).toEqual(lines);
      await page.close();
    } finally {
      await context.close();
    }
  });
});
