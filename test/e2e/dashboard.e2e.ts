import type { BrowserContext, Page } from 'playwright-core';
import { createIdentityTokens, createStreamTokensFor } from '../../server/tokens/identityTokens';
import { LOG_BATCH_MAX_QUEUE_WAIT_MS } from '../../streams/timing';
import { withE2eEnvironment } from './helpers/environment';
import type { HostServer, RunningServer } from './helpers/servers';
import { launchProfileBrowser, openEmbed, type ProfileBrowser } from './telemetry.helpers';

/**
 * Issue 12 §5 in the browser: the collector dashboard at `/collector`, on the real server with its real admin API and
 * SQLite store, follows a real video playing in another tab (the embed framed by a host on another origin). The
 * browser has a real profile (see `launchProfileBrowser`): tabs of one window, so closing the video's tab still
 * delivers its last events, as a visitor's browser does. Every wait is on a condition of the page, never a sleep;
 * conditions poll on an interval (not on animation frames, which a tab in the background does not get).
 */

let server: RunningServer;
let host: HostServer;
let context: BrowserContext;
withE2eEnvironment<ProfileBrowser>((env) => {
  ({ server, host } = env);
  context = env.browser.context;
}, launchProfileBrowser);

const POLL = { polling: 200, timeout: 30_000 } as const;
/**
 * The first events of a page reach the store within the longest an event may wait in the page's queue (spec §9),
 * plus the services' start and a dashboard poll: on a machine busy with other suites a batch may take that long.
 */
const FIRST_EVENTS = { polling: 200, timeout: LOG_BATCH_MAX_QUEUE_WAIT_MS + 15_000 } as const;
const TOKEN_KEY = 'vidframe.collector.adminToken';

/** Opens `/collector{query}` in a new tab, collecting what must not happen: page errors and CSP refusals. */
async function openDashboard(query = ''): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
  });
  await page.goto(`${server.origin}/collector${query}`);
  return { page, problems };
}

/** A chart card's summary number (`data-total`: what it counted over the window). */
const chartTotal = (page: Page, key: string) =>
  page.evaluate((k) => Number(document.querySelector(`[data-chart="${k}"]`)?.getAttribute('data-total') ?? 'NaN'), key);
/** The event names of the table's rows, newest first. */
const rowNames = (page: Page) => page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-testid="event-row"]')].map((r) => r.dataset.name!));
/** The events chart as drawn (its canvas as an image). */
const eventsCanvas = (page: Page) => page.$eval('[data-chart="events"] canvas', (c) => (c as HTMLCanvasElement).toDataURL());

describe('issue 12 §5: the collector dashboard', () => {
  it('is served at /collector (and /collector/) without a token, not cached, with the CSP and no referrer', async () => {
    for (const path of ['/collector', '/collector/']) {
      const response = await fetch(server.origin + path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await response.text();
      expect(html).toContain('<div id="dashboard-root">');
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    }
    // The data is what needs the token.
    expect((await fetch(`${server.origin}/collector/api/stats`)).status).toBe(401);
  });

  it('asks for the token without one; shows the refusal for a wrong one (401) and takes the right one pasted', async () => {
    const { page: signedOut, problems: first } = await openDashboard();
    const form = await signedOut.waitForSelector('[data-testid="sign-in"][data-reason="signedOut"]');
    expect(await form.textContent()).toContain('secrets/admin-token');
    expect(first).toEqual([]);
    await signedOut.close();

    const { page, problems } = await openDashboard('?token=not-the-token');
    const refusal = await page.waitForSelector('[data-testid="sign-in-refused"]');
    expect(await refusal.textContent()).toContain('The collector refused this token.');
    expect(await refusal.textContent()).toContain('The admin token is wrong'); // the server's own message
    // The sign-in link's token left the address bar at once.
    expect(new URL(page.url()).search).toBe('');

    await page.fill('input[name="token"]', server.adminToken);
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-testid="dashboard"] [data-testid="liveness"][data-tone="live"]', { timeout: 30_000 });
    expect(await page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY)).toBe(server.adminToken);
    expect(problems).toEqual([]);

    // Signing out forgets the token and asks again.
    await page.click('button:has-text("Sign out")');
    await page.waitForSelector('[data-testid="sign-in"][data-reason="signedOut"]');
    expect(await page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY)).toBeNull();
    await page.close();
  });

  it('signed in by link, its charts and table follow a video playing in another tab', async () => {
    const cleared = await fetch(`${server.origin}/collector/api/events`, { method: 'DELETE', headers: { authorization: `Bearer ${server.adminToken}` } });
    expect(cleared.status).toBe(200);

    // The dashboard, signed in by a `/collector?token=…` link: an empty store says so.
    const { page: dashboard, problems } = await openDashboard(`?token=${encodeURIComponent(server.adminToken)}`);
    await dashboard.waitForSelector('[data-testid="liveness"][data-tone="live"]', { timeout: 30_000 });
    expect(new URL(dashboard.url()).search).toBe('');
    await dashboard.waitForSelector('[data-testid="banner-empty"]');
    await dashboard.waitForSelector('[data-testid="table-empty"]');
    expect(await chartTotal(dashboard, 'events')).toBe(0);
    const drawnEmpty = await eventsCanvas(dashboard);

    // A video plays in another tab (framed by a host on another origin).
    // Looping, so that it is still playing when the viewer pauses it below, however long the batches take.
    const { page: video, frame } = await openEmbed(context, server, host, 'VFcitylight', 'autoplay=1&loop=1');
    await frame.waitForFunction(() => document.querySelector('video')!.currentTime > 1, null, POLL);

    // Its batches reach the dashboard: the events chart counts them and is redrawn, the table lists the load and a
    // state change (which may come in the first batch or a later one: the page batches by time, not by kind).
    await dashboard.waitForFunction(
      () => {
        const names = [...document.querySelectorAll<HTMLElement>('[data-testid="event-row"]')].map((row) => row.dataset.name);
        return (
          Number(document.querySelector('[data-chart="events"]')?.getAttribute('data-total')) > 0 &&
          names.includes('playerLoad') &&
          names.includes('playerStateChange')
        );
      },
      null,
      FIRST_EVENTS,
    );
    const eventsWhilePlaying = await chartTotal(dashboard, 'events');
    expect(await eventsCanvas(dashboard)).not.toBe(drawnEmpty);
    expect(await rowNames(dashboard)).toEqual(expect.arrayContaining(['playerLoad', 'playerStateChange']));
    expect(await chartTotal(dashboard, 'states')).toBeGreaterThan(0);
    expect(await dashboard.isVisible('[data-testid="banner-empty"]')).toBe(false);
    const stored = Number(await dashboard.getAttribute('[data-stat="events"]', 'data-value'));
    expect(stored).toBe(eventsWhilePlaying);
    const rowsWhilePlaying = (await rowNames(dashboard)).length;
    const drawnPlaying = await eventsCanvas(dashboard);

    // The viewer pauses (a watch-time segment closes) and leaves: the page's last events arrive, and the dashboard moves on.
    await frame.evaluate(() => document.querySelector('video')!.pause());
    await frame.waitForSelector('.vf-player[data-state="2"]');
    await video.close({ runBeforeUnload: true });
    await dashboard.bringToFront();
    // The chart and the table poll on their own: wait for both (the table may list a segment of an earlier loop already).
    await dashboard.waitForFunction(
      ([before, rowsBefore]) => {
        const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="event-row"]')];
        return (
          Number(document.querySelector('[data-chart="events"]')?.getAttribute('data-total')) > before &&
          Number(document.querySelector('[data-chart="watch"]')?.getAttribute('data-total')) > 1 &&
          rows.length > rowsBefore &&
          rows.some((r) => r.dataset.name === 'watchTimeSegment')
        );
      },
      [eventsWhilePlaying, rowsWhilePlaying],
      POLL,
    );
    expect((await rowNames(dashboard)).length).toBeGreaterThan(rowsWhilePlaying);
    expect(await rowNames(dashboard)).toContain('watchTimeSegment');
    expect(await eventsCanvas(dashboard)).not.toBe(drawnPlaying);
    expect(await dashboard.textContent('[data-testid="headline-watch"]')).toMatch(/^\d+(\.\d)? s$/);

    // The table's search goes through the admin API: only the watch-time segment matches its name.
    await dashboard.fill('input[type="search"]', 'watchTimeSegment');
    await dashboard.waitForFunction(
      () => {
        const names = [...document.querySelectorAll<HTMLElement>('[data-testid="event-row"]')].map((r) => r.dataset.name);
        return names.length > 0 && names.every((n) => n === 'watchTimeSegment');
      },
      null,
      POLL,
    );
    // Its JSON is a click away.
    await dashboard.click('[data-testid="event-row"]');
    const json = JSON.parse((await dashboard.textContent('.json'))!) as { watchTimeSegment: { videoId: string } };
    expect(json.watchTimeSegment.videoId).toBe('VFcitylight');

    expect(await dashboard.getAttribute('[data-testid="liveness"]', 'data-tone')).toBe('live');
    expect(problems).toEqual([]);
    await dashboard.close();
  }, 180_000);

  it('counts an event id sent again with another payload as a conflict, and lists both copies', async () => {
    const cleared = await fetch(`${server.origin}/collector/api/events`, { method: 'DELETE', headers: { authorization: `Bearer ${server.adminToken}` } });
    expect(cleared.status).toBe(200);
    // A page's stream token (minted with the server's own keys, as its embed page would get it) used twice for one id.
    const { token } = createStreamTokensFor({ dataDir: server.dataDir }).issue();
    const antiForgery = createIdentityTokens({ dataDir: server.dataDir }).antiForgery;
    const send = async (state: number) => {
      const res = await fetch(`${server.origin}/youtubei/v1/log_event`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': token },
        body: JSON.stringify({
          session_token: antiForgery.issue().token,
          context: { client: { clientName: 'WEB_EMBEDDED_PLAYER', clientVersion: '1.0' } },
          events: [{ eventTimeMs: Date.now(), clientEventId: 'pgConflict:1', playerStateChange: { previousState: -1, state } }],
          requestTimeMs: Date.now(),
          serializedClientEventId: { serializedEventId: 'pgConflict', clientCounter: state },
        }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { collector: unknown }).collector;
    };
    expect(await send(5)).toMatchObject({ accepted: 1, duplicates: 0, conflicts: 0 });
    expect(await send(1)).toMatchObject({ accepted: 0, duplicates: 0, conflicts: 1 });

    const { page: dashboard, problems } = await openDashboard(`?token=${encodeURIComponent(server.adminToken)}`);
    await dashboard.waitForSelector('[data-stat="conflicts"][data-value="1"] .tile-value.alert', { timeout: 30_000 });
    await dashboard.waitForFunction(() => document.querySelectorAll('[data-testid="event-row"]').length === 1, null, POLL);
    const stateOfOpenRow = async () => {
      await dashboard.click('[data-testid="event-row"]');
      await dashboard.waitForSelector('[data-testid="event-row"].open .row-toggle[aria-expanded="true"]', POLL);
      return (JSON.parse((await dashboard.textContent('.json'))!) as { playerStateChange: { state: number } }).playerStateChange.state;
    };
    expect(await stateOfOpenRow()).toBe(5); // the first arrival, among the events

    await dashboard.click('[aria-label="Table lists"] >> text=Conflicts');
    await dashboard.waitForFunction(
      () => document.querySelector('[data-testid="table-status"]')?.textContent === '1 conflict in the last 5 minutes · live',
      null,
      POLL,
    );
    expect(await dashboard.textContent('.events h2')).toBe('Conflicting events');
    expect(await stateOfOpenRow()).toBe(1); // the page's own event, kept as a conflict
    expect(problems).toEqual([]);
    await dashboard.close();
  });
});
