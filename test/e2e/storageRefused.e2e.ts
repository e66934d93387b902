import type { Browser } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import { collectorOf, countsOf, openEmbed, until, type CollectedEvent, type Collector } from './telemetry.helpers';

/**
 * A browser that refuses storage to the embed: Playwright's contexts are off-the-record, and there Chromium refuses
 * IndexedDB to a third-party frame (the opposite of `launchProfileBrowser`'s regular profile). The page says what
 * happened — the browser refused IndexedDB, not "IndexedDB is not supported" — once for the page, however many of its
 * databases meet the refusal, and keeps logging in memory. Seen in the page and at the real collector.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;
let collector: Collector;

withE2eEnvironment((env) => {
  ({ server, host, browser } = env);
  collector = collectorOf(server);
});
beforeEach(async () => {
  await collector.clearFaults();
  await collector.clear();
});

const REFUSED = { type: 'IDB_ACCESS_DENIED', message: 'The browser refused this page access to IndexedDB.' };

describe('storage refused to the framed embed', () => {
  it('is IDB_ACCESS_DENIED, reported once per page (the retry queue and the stored config both meet it), with the browser’s words in the console; logging goes on in memory', async () => {
    const context = await browser.newContext();
    try {
      // The storage-event draw forced in (20 % otherwise), in the embed's frame only.
      await context.addInitScript(
        ({ origin }) => {
          if (location.origin === origin) (window as unknown as { vidframeSampleRandom: () => number }).vidframeSampleRandom = () => 0;
        },
        { origin: server.origin },
      );
      const warnings: string[] = [];
      // The first log request fails: the retry queue stores it (in memory) and resends it.
      await collector.fault(500, 1);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'warning' && message.text().includes('[vidframe] storage:')) warnings.push(message.text());
      });
      const { frame, pageId } = await openEmbed(context, server, host, 'VFsunrise01', 'autoplay=0', { page });

      // What the browser says to the frame when it asks for IndexedDB.
      const refusal = await frame.evaluate(
        () =>
          new Promise<string>((resolve) => {
            try {
              const request = indexedDB.open('vidframe-e2e-probe');
              request.onsuccess = () => {
                request.result.close();
                resolve('opened');
              };
              request.onerror = () => resolve(`${request.error!.name}: ${request.error!.message}`);
            } catch (error) {
              resolve(`${(error as DOMException).name}: ${(error as DOMException).message}`);
            }
          }),
      );
      expect(refusal).toBe('UnknownError: The user denied permission to access the database.');

      // Both databases met it: the stored config was read at start (in memory, nothing stored), and the failed log
      // request went through the retry queue and was resent.
      await frame.evaluate(() => new Promise((resolve) => window.vidframeTelemetryDiagnostics!.storedConfig$.subscribe(resolve)));
      await frame.waitForFunction(() => window.vidframeTelemetryDiagnostics!.counts.resent >= 1, undefined, { timeout: 30_000 });
      expect((await collector.stats()).faultsPlayed).toBe(1);
      expect(await frame.evaluate(() => window.vidframeTelemetryDiagnostics!.storageReports)).toEqual([REFUSED]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('IDB_ACCESS_DENIED');
      expect(warnings[0]).toContain('The user denied permission to access the database.');

      // At the collector, once.
      const { events: total } = await countsOf(frame);
      await page.close({ runBeforeUnload: true });
      const events = await until(
        () => collector.events(pageId),
        (e) => e.length >= total,
        `all ${total} events of the page`,
      );
      const storage = events.filter((e: CollectedEvent) => e.name === 'storageEvent').map((e) => e.event.storageEvent);
      expect(storage).toEqual([{ ...REFUSED, sampled: true }]);
    } finally {
      await context.close();
    }
  });
});
