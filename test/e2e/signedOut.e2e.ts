import type { Browser, Frame, Page } from 'playwright-core';
import type { RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';

/**
 * A signed-out viewer's embed asks `POST /accounts/token` whether a session exists wherever it may use our cookie, and
 * being signed out is an answer, not a failure: the browser records no failed request and no console error for it.
 * Opened on our own origin, where the embed always may (framed by another site in an off-the-record context, the
 * browser refuses the frame storage access and the embed does not ask).
 */
let server: RunningServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, browser } = env));

/** Every console error of the page (its frames' too) from now on. */
function consoleErrorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/**
 * Records, in every frame of the page, the HTTP status of each `/accounts/token` answer, as the page's own `fetch`
 * sees it (the browser leaves these requests out of resource timing).
 */
async function recordTokenStatuses(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: number[] = [];
    const fetch = window.fetch.bind(window);
    (window as { vidframeTokenStatuses?: number[] }).vidframeTokenStatuses = seen;
    window.fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (new URL(response.url, location.href).pathname === '/accounts/token') seen.push(response.status);
      return response;
    };
  });
}

/** The statuses recorded in a frame, once its first `/accounts/token` request has been answered. */
async function tokenStatusesOf(frame: Frame): Promise<number[]> {
  type Recorded = { vidframeTokenStatuses?: number[] };
  await frame.waitForFunction(() => ((window as Recorded).vidframeTokenStatuses?.length ?? 0) > 0);
  return frame.evaluate(() => (window as Recorded).vidframeTokenStatuses!);
}

describe('a signed-out embed', () => {
  it('on our own origin: /accounts/token answers 200 "signed out", and the console shows no error', async () => {
    const page = await browser.newPage();
    const errors = consoleErrorsOf(page);
    await recordTokenStatuses(page);
    await page.goto(`${server.origin}/embed/VFsunrise01`);
    await page.waitForSelector('[data-readiness="ready"]');
    expect(await tokenStatusesOf(page.mainFrame())).toEqual([200]);
    const answer = await page.evaluate(() => fetch('/accounts/token', { method: 'POST' }).then(async (r) => ({ status: r.status, body: await r.json() })));
    expect(answer).toEqual({ status: 200, body: { signedIn: false } });
    expect(errors).toEqual([]);
    await page.close();
  });
});
