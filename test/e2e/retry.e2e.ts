import type { BrowserContext, Frame, Page } from 'playwright-core';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import { servicesStarted } from './helpers/browser';
import {
  collectorOf,
  countsOf,
  embedFrame,
  launchProfileBrowser,
  oneTo,
  openEmbed,
  readLogsDatabase,
  sequenceNumbers,
  until,
  watch,
  watched,
  type Collector,
  type ProfileBrowser,
} from './telemetry.helpers';

/**
 * In the browser: failed log requests survive offline, reloads, a failing collector and a broken database —
 * in the real IndexedDB of the framed embed (a third-party frame: its storage is partitioned under the host's site).
 * Production constants throughout: a batch after the first leaves on the 10 s debounce (≥ 5 events), the retry queue
 * resends 5 s after a store and backs off from 5 s. Waits are conditions in the page or bounded polls.
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
let keptPages: Page[] = [];
beforeEach(async () => {
  // Each test starts clean: no page of an earlier test still sending, no faults, an empty collector, no database.
  await Promise.all(
    context
      .pages()
      .filter((p) => !keptPages.includes(p))
      .map((p) => p.close()),
  );
  keptPages = context.pages();
  await context.setOffline(false);
  await collector.clearFaults();
  await collector.clear();
  await inSameOrigin((frame) =>
    frame.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const deleting = indexedDB.deleteDatabase('VidFrameLogsDatabase');
          deleting.onsuccess = () => resolve();
          deleting.onerror = () => reject(deleting.error);
        }),
    ),
  );
});

/**
 * Runs `work` in a frame of the embed's origin framed by the host (so in the embed's storage partition): a host page
 * framing a blank page at the server's origin (answered by the browser's request interception, so no server route
 * and no player run in it), closed afterwards.
 */
async function inSameOrigin<T>(work: (frame: Frame) => Promise<T>): Promise<T> {
  const page = await context.newPage();
  try {
    const blank = `${server.origin}/e2e-same-origin-probe.html`;
    await page.route(blank, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>probe</title>' }));
    await page.goto(host.page('/same-origin.html', framingPage(blank)));
    const frame = page.frames().find((f) => f.url().startsWith(server.origin))!;
    await frame.waitForLoadState('load');
    return await work(frame);
  } finally {
    await page.close();
  }
}

const video = (frame: Frame, action: 'play' | 'pause') => frame.evaluate((a) => void document.querySelector('video')![a](), action);
const stateIs = (frame: Frame, state: number) => frame.waitForSelector(`.vf-player[data-state="${state}"]`);

/**
 * While offline, makes the page log at least five events (the debounce minimum), so that the debounce flush 10 s
 * later tries to send — and fails — while still offline.
 */
async function logFiveEventsOffline(frame: Frame) {
  const { events: before } = await countsOf(frame);
  await video(frame, 'pause');
  await stateIs(frame, 2);
  await video(frame, 'play');
  await stateIs(frame, 1);
  await frame.evaluate(() => {
    const v = document.querySelector('video')!;
    v.volume = 0.5;
    v.playbackRate = 1.5;
  });
  await video(frame, 'pause');
  await stateIs(frame, 2);
  await until(
    () => countsOf(frame),
    (c) => c.events - before >= 5,
    'five events logged offline',
  );
}

/** Goes offline once the first batch has left, logs a handful of events, and waits until their request is stored. */
async function queueASessionOffline(page: Page, frame: Frame, pageId: string) {
  await until(
    () => collector.requests(pageId),
    (r) => r.length >= 1,
    'the first batch',
  );
  await frame.waitForFunction(() => document.querySelector('video')!.currentTime > 0.3);
  await context.setOffline(true);
  await frame.waitForFunction(() => !navigator.onLine);
  await logFiveEventsOffline(frame);
  // The debounce flush (10 s after the last event) fails offline: the request goes to IndexedDB.
  const queued = await until(
    () => readLogsDatabase(frame),
    (q) => (q?.length ?? 0) >= 1,
    'a request stored in IndexedDB',
    20_000,
  );
  return queued!;
}

describe('the retry queue in the browser', () => {
  it('offline, a session’s events are queued in IndexedDB; back online, all of them reach the collector exactly once', async () => {
    const { page, frame, pageId } = await openEmbed(context, server, host, 'VFcitylight', 'autoplay=1');
    await watch(frame, 'retry$');
    const queued = await queueASessionOffline(page, frame, pageId);

    // What the store holds: NEW requests of this client (interface 56), never sent from the queue, with the events.
    expect(queued.every((r) => r.status === 'NEW' && r.sendCount === 0 && r.interfaceNumber === 56)).toBe(true);
    expect(queued.every((r) => r.url.includes('/youtubei/v1/log_event'))).toBe(true);
    const queuedIds = queued.flatMap((r) => r.clientEventIds);
    expect(queuedIds.length).toBeGreaterThanOrEqual(5);
    const atCollector = new Set((await collector.events(pageId)).map((e) => e.clientEventId));
    expect(queuedIds.filter((id) => atCollector.has(id))).toEqual([]);
    expect((await countsOf(frame)).stored).toBe(queued.length);

    await context.setOffline(false);
    const events = await until(
      () => collector.events(pageId),
      (e) => queuedIds.every((id) => e.some((x) => x.clientEventId === id)),
      'the queued events at the collector',
    );
    await until(
      () => readLogsDatabase(frame),
      (q) => q?.length === 0,
      'an empty queue',
    );
    expect((await watched<{ type: string }>(frame, 'retry$')).map((e) => e.type)).toEqual(queued.map(() => 'sent'));
    expect(events.filter((e) => queuedIds.includes(e.clientEventId!)).map((e) => e.name)).toContain('networkChange');

    // Everything the page logged arrives once (the rest through the close).
    const { events: total } = await countsOf(frame);
    await page.close({ runBeforeUnload: true });
    const all = await until(
      () => collector.events(pageId),
      (e) => e.length >= total,
      `all ${total} events`,
    );
    expect(
      sequenceNumbers(
        all.map((e) => e.clientEventId),
        pageId,
      ),
    ).toEqual(oneTo(total));
    expect((await collector.stats()).duplicatesDropped).toBe(0);
  });

  it('a page reloaded with requests still queued resends them', async () => {
    await collector.fault(500, 1);
    const { page, frame, pageId } = await openEmbed(context, server, host, 'VFcitylight', 'autoplay=1');
    // The first batch fails and is stored; the page is reloaded before its own queue resends it (5 s after the store).
    const [queued] = (await until(
      () => readLogsDatabase(frame),
      (q) => (q?.length ?? 0) >= 1,
      'a request stored in IndexedDB',
    ))!;
    expect(queued).toMatchObject({ status: 'NEW', sendCount: 0 });
    expect(sequenceNumbers(queued.clientEventIds, pageId)).toEqual(oneTo(queued.clientEventIds.length));
    await page.reload();

    const reloaded = await embedFrame(page);
    await reloaded.waitForSelector('[data-readiness="ready"]');
    await servicesStarted(reloaded);
    expect(await reloaded.evaluate(() => window.vidframeTelemetry!.pageId)).not.toBe(pageId);
    const events = await until(
      () => collector.events(pageId),
      (e) => queued.clientEventIds.every((id) => e.some((x) => x.clientEventId === id)),
      'the old page’s queued events at the collector',
    );
    await until(
      () => readLogsDatabase(reloaded),
      (q) => q?.length === 0,
      'an empty queue',
    );
    expect((await countsOf(reloaded)).resent).toBe(1);
    // The old page's events all arrived, once: the queued ones by the new page, the rest through the reload's flush.
    expect(
      sequenceNumbers(
        events.map((e) => e.clientEventId),
        pageId,
      ),
    ).toEqual(oneTo(events.length));
    expect(events.length).toBeGreaterThanOrEqual(queued.clientEventIds.length);
    expect((await collector.stats()).duplicatesDropped).toBe(0);
  });

  it('a collector answering 500 for a while loses nothing: stored, resent with back-off, delivered once', async () => {
    await collector.fault(500, 2);
    const { page, frame, pageId } = await openEmbed(context, server, host, 'VFcitylight', 'autoplay=1');
    await watch(frame, 'retry$');
    // The first batch fails (500) and is stored; 5 s later the queue resends it: 500 again, back to NEW, sendCount 1.
    await until(
      () => watched<{ type: string }>(frame, 'retry$'),
      (e) => e.length >= 1,
      'the first resend',
      20_000,
    );
    const afterFailure = await readLogsDatabase(frame);
    expect(afterFailure).toEqual([expect.objectContaining({ status: 'NEW', sendCount: 1 })]);
    // The back-off (5 s) later, the collector is well again.
    await until(
      () => watched<{ type: string }>(frame, 'retry$'),
      (e) => e.length >= 2,
      'the second resend',
      20_000,
    );
    expect(await watched(frame, 'retry$')).toEqual([{ type: 'failed', outcome: 'requeued', potential: true }, { type: 'sent' }]);
    await until(
      () => readLogsDatabase(frame),
      (q) => q?.length === 0,
      'an empty queue',
    );
    const stats = await collector.stats();
    expect(stats.faultsPlayed).toBe(2);
    expect((await countsOf(frame)).stored).toBe(1);

    const { events: total } = await countsOf(frame);
    await page.close({ runBeforeUnload: true });
    const events = await until(
      () => collector.events(pageId),
      (e) => e.length >= total,
      `all ${total} events`,
    );
    expect(
      sequenceNumbers(
        events.map((e) => e.clientEventId),
        pageId,
      ),
    ).toEqual(oneTo(total));
    expect((await collector.stats()).duplicatesDropped).toBe(0);
  });

  it('a collector answering 429 with Retry-After: the request is kept, resent after the wait, delivered once, on the page’s own stream', async () => {
    await collector.fault(429, 1, 7);
    const { page, frame, pageId } = await openEmbed(context, server, host, 'VFcitylight', 'autoplay=1');
    await watch(frame, 'retry$');
    // The first batch is refused (429, Retry-After: 7) and stored; the queue resends it once the wait is over.
    await until(
      () => watched<{ type: string }>(frame, 'retry$'),
      (e) => e.length >= 1,
      'the resend',
      30_000,
    );
    expect(await watched(frame, 'retry$')).toEqual([{ type: 'sent' }]);
    expect((await collector.stats()).faultsPlayed).toBe(1);
    expect((await countsOf(frame)).stored).toBe(1);

    const { events: total } = await countsOf(frame);
    await page.close({ runBeforeUnload: true });
    const events = await until(
      () => collector.events(pageId),
      (e) => e.length >= total,
      `all ${total} events`,
    );
    expect(
      sequenceNumbers(
        events.map((e) => e.clientEventId),
        pageId,
      ),
    ).toEqual(oneTo(total));
    // Every request of the page, the resent one included, carried the stream token the server gave the page.
    const streams = new Set([...events.map((e) => e.stream), ...(await collector.requests(pageId)).map((r) => r.stream)]);
    expect(streams.size).toBe(1);
  });

  it('a database whose object store was deleted is recovered (DB_* reports), and the requests stored in it arrive', async () => {
    // Another page of the same origin (same storage partition) breaks the database: deleted, then recreated at the
    // same version without its store — what a half-finished upgrade or a store deleted in DevTools leaves.
    const storesLeft = await inSameOrigin((frame) =>
      frame.evaluate(
        () =>
          new Promise<string[]>((resolve, reject) => {
            const deleting = indexedDB.deleteDatabase('VidFrameLogsDatabase');
            deleting.onerror = () => reject(deleting.error);
            deleting.onsuccess = () => {
              const opening = indexedDB.open('VidFrameLogsDatabase', 1); // no upgrade step: no store
              opening.onerror = () => reject(opening.error);
              opening.onsuccess = () => {
                const names = Array.from(opening.result.objectStoreNames);
                opening.result.close();
                resolve(names);
              };
            };
          }),
      ),
    );
    expect(storesLeft).toEqual([]);

    await collector.fault(500, 1);
    const { page, frame, pageId } = await openEmbed(context, server, host, 'VFcitylight', 'autoplay=1');
    await watch(frame, 'retry$');
    // The first batch fails once and is stored in the recovered database, then resent 5 s later.
    await until(
      () => watched<{ type: string }>(frame, 'retry$'),
      (e) => e.length >= 1,
      'the resend',
      20_000,
    );
    expect(await watched(frame, 'retry$')).toEqual([{ type: 'sent' }]);
    const reports = await frame.evaluate(() => window.vidframeTelemetryDiagnostics!.storageReports.map((r) => r.type));
    expect(reports).toEqual(['DB_DELETED_BY_MISSING_OBJECT_STORES', 'DB_REOPENED_BY_MISSING_OBJECT_STORES']);
    expect(await readLogsDatabase(frame)).toEqual([]); // the store exists again, and is empty
    expect((await countsOf(frame)).stored).toBe(1);

    const { events: total } = await countsOf(frame);
    await page.close({ runBeforeUnload: true });
    const events = await until(
      () => collector.events(pageId),
      (e) => e.length >= total,
      `all ${total} events`,
    );
    expect(
      sequenceNumbers(
        events.map((e) => e.clientEventId),
        pageId,
      ),
    ).toEqual(oneTo(total));
    expect((await collector.stats()).duplicatesDropped).toBe(0);
  });
});
