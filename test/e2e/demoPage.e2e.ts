import type { Browser, Frame, Page } from 'playwright-core';
import type { RunningServer } from './helpers/servers';
import { frameWith } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * Issue 17 item 7, the demo host page as a newcomer sees it: its load fields say what is loaded, the player's frame
 * sits in its stage at its own size (no bars), and the pages have an icon. Opened as `http://localhost:PORT/` framing
 * the embed from `http://127.0.0.1:PORT` (two origins), like the SDK suite.
 */
let server: RunningServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, browser } = env));

const pageOrigin = () => server.origin.replace('127.0.0.1', 'localhost');

async function openDemo(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(`${pageOrigin()}/?host=${encodeURIComponent(server.origin)}`);
  await page.waitForSelector('[data-testid="state"][data-state="5"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="video-id"]')?.textContent?.trim() === 'VFsunrise01');
  // The catalogue has arrived (its options are the catalogue's videos).
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="catalog-select"] option').length > 1);
  return page;
}

/** The three load fields: the catalogue choice, the id field and the media URL field. */
const loadFields = (page: Page) =>
  page.evaluate(() => ({
    catalogue: (document.querySelector('[data-testid="catalog-select"]') as HTMLSelectElement).value,
    id: (document.querySelector('[data-testid="video-id-input"]') as HTMLInputElement).value,
    url: (document.querySelector('[data-testid="video-url-input"]') as HTMLInputElement).value,
  }));

/** The stage and the player's frame in it, as laid out. */
const stage = (page: Page) =>
  page.evaluate(() => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, width: r.width, height: r.height };
    };
    const frame = document.querySelector('[data-testid="stage"] iframe')!;
    return {
      stage: box(document.querySelector('[data-testid="stage"]')!),
      frame: box(frame),
      attrs: [frame.getAttribute('width'), frame.getAttribute('height')],
    };
  });

/** Every icon a page links: root-relative, answered 200 with an image that decodes (fetched from the page itself). */
const icons = (target: Page | Frame) =>
  target.evaluate(async () => {
    const links = [...document.querySelectorAll('link[rel~="icon"]')].map((l) => l.getAttribute('href') ?? '');
    const probe = async (href: string) => {
      const response = await fetch(href, { cache: 'no-store' });
      const img = new Image();
      img.src = href;
      const decoded = await img.decode().then(
        () => img.naturalWidth > 0,
        () => false,
      );
      return { href, status: response.status, type: response.headers.get('content-type'), decoded };
    };
    return { links, answers: await Promise.all([...links, '/favicon.ico'].map(probe)) };
  });

describe('the demo page (issue 17 item 7)', () => {
  it('its load fields name the video that is loaded, and follow the next one', async () => {
    const page = await openDemo();
    expect(await loadFields(page)).toEqual({ catalogue: 'VFsunrise01', id: 'VFsunrise01', url: `${server.origin}/embed/VFsunrise01` });
    // A video loaded from the playlist controls (not from these fields): the fields follow it.
    await page.fill('[data-testid="playlist-input"]', 'PLvfDemoPlaylist01');
    await page.fill('[data-testid="playlist-index-input"]', '2');
    await page.click('[data-testid="cue-playlist"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="video-id"]')?.textContent?.trim() === 'VFoceanwave');
    await page.waitForFunction(() => (document.querySelector('[data-testid="video-id-input"]') as HTMLInputElement).value === 'VFoceanwave');
    expect(await loadFields(page)).toEqual({ catalogue: 'VFoceanwave', id: 'VFoceanwave', url: `${server.origin}/embed/VFoceanwave` });
    await page.close();
  });

  it('the stage is the 640×360 frame itself (no bars beside it), and follows a resize', async () => {
    const page = await openDemo();
    const at640 = await stage(page);
    expect(at640.attrs).toEqual(['640', '360']);
    expect(at640.frame).toMatchObject({ width: 640, height: 360 });
    expect(at640.stage).toEqual(at640.frame);
    await page.click('button.chip:has-text("480×270")');
    await page.waitForFunction(() => document.querySelector('[data-testid="stage"] iframe')?.getAttribute('width') === '480');
    const at480 = await stage(page);
    expect(at480.frame).toMatchObject({ width: 480, height: 270 });
    expect(at480.stage).toEqual(at480.frame);
    await page.close();
  });

  it('the demo page and the embed have a real icon, root-relative; /favicon.ico answers', async () => {
    const page = await openDemo();
    const frame = await frameWith(page, '/embed/');
    for (const target of [page, frame]) {
      const { links, answers } = await icons(target);
      expect(links.length).toBeGreaterThan(0);
      for (const href of links) expect(href).toMatch(/^\/[^/]/);
      for (const answer of answers) expect(answer).toMatchObject({ status: 200, type: expect.stringMatching(/^image\//), decoded: true });
    }
    await page.close();
  });
});
