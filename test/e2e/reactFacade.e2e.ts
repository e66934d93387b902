import type { Browser, Page, Request } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { launchBrowser } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * Issue 16 item 3, end to end: `<EmbeddedPlayer facade>` on the demo page's many-players view (`/?view=facades`),
 * opened as `http://localhost:PORT` and pointed at the embed on `http://127.0.0.1:PORT` (another origin), in real
 * Chromium under the browser's own autoplay policy (a gesture is needed): no iframe and no request to the embed until
 * a facade is pressed; then that one player plays (state 1 reaches the host page) and holds the focus. Needs
 * `npm run build`. Every wait is on a condition in the page.
 */
let server: RunningServer;
let browser: Browser;

withE2eEnvironment(
  (env: { server: RunningServer; host: HostServer; browser: Browser }) => ({ server, browser } = env),
  () => launchBrowser({ autoplay: 'gesture' }),
);

const pageOrigin = () => server.origin.replace('127.0.0.1', 'localhost');
const events = (page: Page) => page.$$eval('[data-testid="facade-events"] li', (items) => items.map((li) => li.textContent ?? ''));
async function waitEvent(page: Page, text: string): Promise<void> {
  try {
    await page.waitForFunction((t) => [...document.querySelectorAll('[data-testid="facade-events"] li')].some((li) => li.textContent === t), text, {
      timeout: 20_000,
    });
  } catch (error) {
    // Say what the page saw instead, so a failure can be read.
    throw new Error(`no "${text}" among the page's events: ${JSON.stringify(await events(page))}`, { cause: error });
  }
}

describe('the lazy facade (<EmbeddedPlayer facade>)', () => {
  let page: Page;
  const embedRequests: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (request: Request) => {
      const url = new URL(request.url());
      if (url.origin === server.origin && !url.pathname.startsWith('/vi/')) embedRequests.push(url.pathname);
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    await page.goto(`${pageOrigin()}/?view=facades&host=${encodeURIComponent(server.origin)}`);
    await page.waitForSelector('[data-testid="facade-VFoceanwave"] button');
  });
  afterAll(() => page?.close());

  it('shows each video’s poster from the embed origin and a labelled button, and creates no iframe', async () => {
    const facades = await page.$$eval('[data-testid="facade-strip"] li', (items) =>
      items.map((li) => ({
        id: li.getAttribute('data-testid'),
        label: li.querySelector('button')?.getAttribute('aria-label'),
        poster: li.querySelector('img')?.getAttribute('src'),
      })),
    );
    expect(facades).toEqual([
      { id: 'facade-VFsunrise01', label: 'Play: Sunrise over the test pattern', poster: `${server.origin}/vi/VFsunrise01/poster` },
      { id: 'facade-VFcitylight', label: 'Play: City lights', poster: `${server.origin}/vi/VFcitylight/poster` },
      { id: 'facade-VFoceanwave', label: 'Play: Ocean wave', poster: `${server.origin}/vi/VFoceanwave/poster` },
      { id: 'facade-VFladder001', label: 'Play: Adaptive ladder', poster: `${server.origin}/vi/VFladder001/poster` },
    ]);
    // The posters really load (the route answers, and the demo page's CSP allows the embed origin's images).
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('[data-testid="facade-strip"] img')].every((img) => img.complete && img.naturalWidth > 0),
    );
    expect(await page.locator('iframe').count()).toBe(0);
    expect(embedRequests).toEqual([]);
  });

  it('keeps its box, poster and button whole under the page’s rules for buttons, images and icons', async () => {
    /** Each facade's box, its button, poster and play icon (width × height, in CSS pixels). */
    const sizes = () =>
      page.$$eval('[data-testid="facade-strip"] [data-facade]', (boxes) =>
        boxes.map((box) => {
          const size = (el: Element | null) => {
            const r = el!.getBoundingClientRect();
            return `${Math.round(r.width)}x${Math.round(r.height)}`;
          };
          return { box: size(box), button: size(box.querySelector('button')), poster: size(box.querySelector('img')), icon: size(box.querySelector('svg')) };
        }),
      );
    const whole = (seen: Awaited<ReturnType<typeof sizes>>) => {
      expect(seen).toHaveLength(4);
      for (const facade of seen) {
        expect(facade).toEqual({ box: facade.box, button: facade.box, poster: facade.box, icon: '64x64' });
        expect(Number(facade.box.split('x')[1])).toBeGreaterThan(100);
      }
    };
    // The demo page's own stylesheet gives every button a height of 32 px.
    whole(await sizes());
    // Rules of the kind sites write for their own buttons, images and icons (a constructed sheet: the demo page's CSP
    // allows no inline style element).
    const rules = `button { height: 32px; width: auto; min-height: 0; max-height: 32px; padding: 0 12px; display: inline-flex; line-height: 32px }
      img { height: auto; max-width: 100%; max-height: 40px } svg { width: 1em; height: 1em; max-width: 16px }`;
    await page.evaluate((css) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    }, rules);
    whole(await sizes());
    await page.evaluate(() => (document.adoptedStyleSheets = document.adoptedStyleSheets.slice(0, -1)));
  });

  it('hovering warms the embed origin up, still without an iframe', async () => {
    await page.hover('[data-testid="facade-VFsunrise01"] button');
    await page.waitForSelector(`link[rel="preconnect"][href="${server.origin}"]`, { state: 'attached' });
    expect(await page.locator('iframe').count()).toBe(0);
    expect(embedRequests).toEqual([]);
  });

  it('a click creates that one player, which plays (state 1 reaches the host) and holds the focus', async () => {
    await page.click('[data-testid="facade-VFsunrise01"] button');
    await waitEvent(page, 'VFsunrise01 state 1');
    expect(await events(page)).toContain('VFsunrise01 play');
    expect(await events(page)).toContain('VFsunrise01 ready');
    const iframes = await page.$$eval('iframe', (frames) =>
      frames.map((f) => ({ src: f.src, inSunrise: !!f.closest('[data-testid="facade-VFsunrise01"]'), focused: document.activeElement === f, title: f.title })),
    );
    expect(iframes).toHaveLength(1);
    expect(iframes[0]).toMatchObject({ inSunrise: true, focused: true, title: 'Sunrise over the test pattern' });
    const src = new URL(iframes[0].src);
    expect(src.origin).toBe(server.origin);
    expect(src.pathname).toBe('/embed/VFsunrise01');
    expect(src.searchParams.get('autoplay')).toBe('1');
    expect(embedRequests.filter((path) => path.startsWith('/embed/'))).toEqual(['/embed/VFsunrise01']);
    expect(await page.locator('[data-testid="facade-VFsunrise01"] button').count()).toBe(0);
  });

  it('the keyboard works too: Tab to another facade, Enter, and that one plays', async () => {
    await page.focus('[data-testid="facade-VFcitylight"] button');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Play: Ocean wave');
    await page.keyboard.press('Enter');
    await waitEvent(page, 'VFoceanwave state 1');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="facade-VFoceanwave"]') && document.activeElement?.tagName)).toBe(
      'IFRAME',
    );
    expect(await page.locator('iframe').count()).toBe(2);
    // The one never pressed is still a facade.
    expect(await page.locator('[data-testid="facade-VFcitylight"] iframe').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
