import type { Browser, Frame } from 'playwright-core';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { frameWith } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';
import type { StoredErrorReport } from '../../server/collector/store';
import { collectorOf } from './telemetry.helpers';

/**
 * Spec §7/§8 in the browser: the real embed, framed by a host on another origin, reports its uncaught errors and
 * unhandled rejections to the real collector (`POST /error_204`): at most 5 distinct reports per page, duplicates
 * dropped, messages cut at 250 characters, with the page URL and a stack. No fixed sleeps: the page waits on its own
 * events, the test polls the collector (bounded).
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

/** What the collector stored for one report. */
type StoredError = StoredErrorReport;

const storedErrors = (): Promise<StoredError[]> => collectorOf(server).errors<StoredError>();

/** Polls the collector until `done` holds (at most `timeoutMs`), then returns what it holds. */
async function pollErrors(done: (errors: StoredError[]) => boolean, what: string, timeoutMs = 15_000): Promise<StoredError[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const errors = await storedErrors();
    if (done(errors)) return errors;
    if (Date.now() > deadline) throw new Error(`the collector never held ${what}; it holds ${JSON.stringify(errors.map((e) => e.message))}`);
    await new Promise((resolve) => setTimeout(resolve, 100)); // poll interval, not a wait for the result
  }
}

beforeEach(async () => {
  await collectorOf(server).clear(); // clears the stored errors too
});

async function openFramed(videoId: string, { userAgent }: { userAgent?: string } = {}): Promise<Frame> {
  const page = await browser.newPage(userAgent ? { userAgent } : {});
  await page.goto(host.page(`/host-errors-${Math.random().toString(36).slice(2)}.html`, framingPage(`${server.origin}/embed/${videoId}`)));
  const frame = await frameWith(page, '/embed/');
  await frame.waitForSelector('[data-readiness="ready"]');
  return frame;
}

const SENTINEL = 'e2e sentinel: everything thrown before this was handled';
const LONG = 'L'.repeat(400);

describe('error reports (spec §7/§8)', () => {
  it('reports 5 distinct errors per page at most: duplicates dropped, the 6th distinct dropped, messages ≤ 250 chars, page URL and stack', async () => {
    const frame = await openFramed('VFsunrise01');
    expect(await storedErrors()).toEqual([]); // the page itself starts without an error

    await frame.evaluate(
      async ({ long, sentinel }) => {
        const nextError = () => new Promise<void>((resolve) => addEventListener('error', () => resolve(), { once: true }));
        const nextRejection = () => new Promise<void>((resolve) => addEventListener('unhandledrejection', () => resolve(), { once: true }));
        // Seven uncaught errors, thrown from one line, so equal messages are duplicates: 4 distinct (A, B, long, D).
        const seven = ['e2e A', 'e2e A', 'e2e B', long, long, 'e2e A', 'e2e D'];
        for (const message of seven) {
          const thrown = nextError();
          setTimeout(() => {
            throw new Error(message);
          });
          await thrown;
        }
        // An unhandled rejection: the 5th distinct report.
        const rejected = nextRejection();
        void Promise.reject(new Error('e2e rejected'));
        await rejected;
        // A 6th distinct error and one more duplicate: over the cap, neither is reported.
        for (const message of ['e2e F (over the cap)', 'e2e B']) {
          const thrown = nextError();
          setTimeout(() => {
            throw new Error(message);
          });
          await thrown;
        }
        // Everything above was handled by now; the sentinel marks the end of what the page could have sent.
        await fetch('/error_204', { method: 'POST', body: new URLSearchParams({ message: sentinel }) });
      },
      { long: LONG, sentinel: SENTINEL },
    );

    const all = await pollErrors((errors) => errors.some((e) => e.message === SENTINEL) && errors.length >= 6, 'the 5 reports and the sentinel');
    const reports = all.filter((e) => e.message !== SENTINEL);
    const pageUrl = frame.url();
    expect(reports.map((e) => e.message).sort()).toEqual(
      [
        'Uncaught Error: e2e A',
        'Uncaught Error: e2e B',
        `Uncaught Error: ${LONG}`.slice(0, 250),
        'Uncaught Error: e2e D',
        'Unhandled promise rejection: Error: e2e rejected',
      ].sort(),
    );
    for (const report of reports) {
      expect(report.message.length).toBeLessThanOrEqual(250);
      expect(report.messageTruncated).toBe(false); // cut by the client already
      expect(report.type).toBe('jserror');
      expect(report.url).toBe(pageUrl);
      expect(report.stack).toMatch(/^Error: (e2e|L{100})/); // the thrown Error's own stack
    }
    // The window errors were thrown from one line of the page's script: each report says where.
    const where = new Set(reports.filter((e) => e.message.startsWith('Uncaught')).map((e) => `${e.line}:${e.extra.column}`));
    expect([...where]).toEqual([expect.stringMatching(/^[1-9]\d*:[1-9]\d*$/)]);
    await frame.page().close();
  });

  it('names the script file and line an error came from', async () => {
    const frame = await openFramed('VFsunrise01');
    // A script of the embed's own origin (its CSP runs no other), answered by the browser's request interception.
    const scriptUrl = `${server.origin}/assets/e2e-throws-${Date.now()}.js`;
    await frame.page().route(scriptUrl, (route) => route.fulfill({ contentType: 'text/javascript', body: '\n\nthrow new Error("e2e from a script file");\n' }));
    const file = await frame.evaluate(async (url) => {
      const thrown = new Promise<void>((resolve) => addEventListener('error', () => resolve(), { once: true }));
      const script = document.createElement('script');
      script.src = url;
      document.head.append(script);
      await thrown;
      return url;
    }, scriptUrl);
    const [report] = await pollErrors((errors) => errors.length >= 1, 'the report');
    expect(report).toMatchObject({ message: 'Uncaught Error: e2e from a script file', file, line: '3', url: frame.url(), type: 'jserror' });
    expect(report.stack).toContain(file);
    await frame.page().close();
  });

  it('skips a crawler: a Googlebot user agent reports nothing', async () => {
    const frame = await openFramed('VFsunrise01', { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    expect(await frame.evaluate(() => navigator.userAgent)).toContain('Googlebot');
    await frame.evaluate(async (sentinel) => {
      const thrown = new Promise<void>((resolve) => addEventListener('error', () => resolve(), { once: true }));
      setTimeout(() => {
        throw new Error('e2e from a crawler');
      });
      await thrown;
      await fetch('/error_204', { method: 'POST', body: new URLSearchParams({ message: sentinel }) });
    }, SENTINEL);
    const all = await pollErrors((errors) => errors.some((e) => e.message === SENTINEL), 'the sentinel');
    expect(all.map((e) => e.message)).toEqual([SENTINEL]);
    await frame.page().close();
  });
});
