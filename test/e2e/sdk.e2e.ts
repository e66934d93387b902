import type { Browser, Page } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';

/**
 * Issue 5, end to end: the host SDK against the real embed, in real Chromium, always across two origins.
 * - the demo page is opened as `http://localhost:PORT/` and frames the embed from `http://127.0.0.1:PORT` (`?host=`);
 * - the plain page lives on a bare third-party server and only includes `/iframe_api`.
 * Needs `npm run build` (the pages, `/iframe_api` and the SDK). Every wait is on a condition in the page.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

/** The same server under another host name: another origin for the page than for the embed. */
const pageOrigin = () => server.origin.replace('127.0.0.1', 'localhost');

/** Collects page errors and console errors, except the browser's own notes about messages sent before the frame loaded. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  return errors;
}

const text = (page: Page, testId: string) => page.textContent(`[data-testid="${testId}"]`).then((t) => (t ?? '').trim());

/** Waits until the readout `testId` shows `expected` (a string, or a test on the text). */
async function readout(page: Page, testId: string, expected: string | RegExp) {
  const pattern = typeof expected === 'string' ? `^${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` : expected.source;
  await page.waitForFunction(
    ([id, source]) => new RegExp(source).test((document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '').trim()),
    [testId, pattern] as const,
    { timeout: 20_000 },
  );
}

const waitState = (page: Page, state: number | string) => page.waitForSelector(`[data-testid="state"][data-state="${state}"]`, { timeout: 20_000 });
const currentTime = (page: Page) => page.getAttribute('[data-testid="current-time"] span[data-value]', 'data-value').then(Number);

describe('the demo host page drives the embed on another origin', () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    errors = watchErrors(page);
    await page.goto(`${pageOrigin()}/?host=${encodeURIComponent(server.origin)}`);
    await waitState(page, 5);
  });
  afterAll(() => page?.close());

  it('frames the embed cross-origin and shows its first snapshot', async () => {
    const iframeSrc = await page.getAttribute('[data-testid="stage"] iframe', 'src');
    expect(new URL(iframeSrc!).origin).toBe(server.origin);
    expect(new URL(page.url()).origin).toBe(pageOrigin());
    expect(new URL(iframeSrc!).searchParams.get('origin')).toBe(pageOrigin());
    expect(await text(page, 'embed-origin')).toBe(server.origin);
    await readout(page, 'video-id', 'VFsunrise01');
    await readout(page, 'video-title', 'Sunrise over the test pattern');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="duration"]')?.getAttribute('data-value')) > 11);
    await page.waitForSelector('[data-event="onReady"]');
  });

  it('play, pause, seek (paused and playing), stop', async () => {
    await page.click('[data-testid="play"]');
    await waitState(page, 1);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="current-time"] span')?.getAttribute('data-value')) > 0.3);
    await page.click('[data-testid="pause"]');
    await waitState(page, 2);
    await page.fill('[data-testid="seek-input"]', '6');
    await page.click('[data-testid="seek"]');
    // Time moves to 6 s while paused (the embed delivers the time after a seek completes).
    await page.waitForFunction(() => Math.abs(Number(document.querySelector('[data-testid="current-time"] span')?.getAttribute('data-value')) - 6) < 0.3);
    expect(await page.getAttribute('[data-testid="state"]', 'data-state')).toBe('2');
    await page.click('[data-testid="play"]');
    await waitState(page, 1);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="current-time"] span')?.getAttribute('data-value')) > 6.2);
    await page.click('[data-testid="stop"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="state"]')?.getAttribute('data-state') !== '1');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="current-time"] span')?.getAttribute('data-value')) < 0.5);
    expect(await currentTime(page)).toBeLessThan(0.5);
  });

  it('volume and mute', async () => {
    await page.fill('[data-testid="volume-slider"]', '40');
    await readout(page, 'volume', '40');
    await page.click('[data-testid="mute-toggle"]');
    await readout(page, 'muted', 'yes');
    await page.click('[data-testid="mute-toggle"]');
    await readout(page, 'muted', 'no');
    await page.waitForSelector('[data-event="onVolumeChange"]');
  });

  it('playback rate and quality', async () => {
    await page.selectOption('[data-testid="rate-select"]', '1.5');
    await readout(page, 'rate', '1.5');
    await page.waitForSelector('[data-event="onPlaybackRateChange"][data-data="1.5"]');
    await page.selectOption('[data-testid="quality-select"]', 'small');
    await readout(page, 'quality', 'small');
    await page.selectOption('[data-testid="rate-select"]', '1');
    await readout(page, 'rate', '1');
  });

  it('captions on (English) and off', async () => {
    await page.waitForSelector('[data-testid="captions-select"] option[value="en"]', { state: 'attached' });
    await page.selectOption('[data-testid="captions-select"]', 'en');
    await readout(page, 'captions', 'en');
    await page.selectOption('[data-testid="captions-select"]', '');
    await readout(page, 'captions', 'off');
  });

  it('size: the iframe and the embed follow', async () => {
    await page.fill('[data-testid="width-input"]', '480');
    await page.fill('[data-testid="height-input"]', '270');
    await page.click('[data-testid="set-size"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="stage"] iframe')?.getAttribute('width') === '480');
    expect(await page.getAttribute('[data-testid="stage"] iframe', 'height')).toBe('270');
    await readout(page, 'size', '480×270');
    await page.click('text=640×360');
    await readout(page, 'size', '640×360');
  });

  it('load by id, cue by id, load by URL, cue from the catalogue', async () => {
    await page.fill('[data-testid="video-id-input"]', 'VFoceanwave');
    await page.click('[data-testid="load-id"]');
    await readout(page, 'video-id', 'VFoceanwave');
    await readout(page, 'video-title', 'Ocean wave');
    await waitState(page, 1);
    await page.fill('[data-testid="video-id-input"]', 'VFsunrise01');
    await page.click('[data-testid="cue-id"]');
    await readout(page, 'video-id', 'VFsunrise01');
    await waitState(page, 5);
    await page.fill('[data-testid="video-url-input"]', `${server.origin}/embed/VFcitylight`);
    await page.click('[data-testid="load-url"]');
    await readout(page, 'video-id', 'VFcitylight');
    await waitState(page, 1);
    await page.selectOption('[data-testid="catalog-select"]', 'VFoceanwave');
    await page.click('[data-testid="catalog-cue"]');
    await readout(page, 'video-id', 'VFoceanwave');
    await waitState(page, 5);
  });

  it('playlist: load at an index, next, previous; by list id', async () => {
    await page.fill('[data-testid="playlist-input"]', 'VFsunrise01,VFcitylight,VFoceanwave');
    await page.fill('[data-testid="playlist-index-input"]', '1');
    await page.click('[data-testid="load-playlist"]');
    await readout(page, 'playlist', 'VFsunrise01, VFcitylight, VFoceanwave');
    await readout(page, 'playlist-index', '1');
    await readout(page, 'video-id', 'VFcitylight');
    await page.click('[data-testid="next"]');
    await readout(page, 'playlist-index', '2');
    await readout(page, 'video-id', 'VFoceanwave');
    await page.click('[data-testid="previous"]');
    await readout(page, 'playlist-index', '1');
    await page.fill('[data-testid="playlist-input"]', 'PLvfDemoPlaylist01');
    await page.fill('[data-testid="playlist-index-input"]', '0');
    await page.click('[data-testid="cue-playlist"]');
    await readout(page, 'playlist-index', '0');
    await readout(page, 'video-id', 'VFsunrise01');
    await waitState(page, 5);
  });

  it("an unknown video is reported as error 5 (spec §8; not YouTube's 100); the log shows events and clears", async () => {
    await page.fill('[data-testid="video-id-input"]', 'VFunknown00');
    await page.click('[data-testid="load-id"]');
    await readout(page, 'error-code', '5');
    await page.waitForSelector('[data-event="onError"]');
    expect(await page.locator('[data-event="onStateChange"]').count()).toBeGreaterThan(3);
    await page.click('[data-testid="clear-log"]');
    await page.waitForSelector('[data-testid="event-log"]', { state: 'detached' });
    expect(errors).toEqual([]);
  });
});

describe('a plain page that only includes /iframe_api', () => {
  it('new YT.Player(…) gets onReady, plays, reads the cache and hears state changes', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Plain host</title></head><body>
<div id="player"></div>
<script src="${server.origin}/iframe_api"></script>
<script>
  window.log = [];
  // Defined after the script tag, as pages commonly do.
  function onYouTubeIframeAPIReady() {
    window.log.push('api ready ' + typeof YT.Player + ' ' + YT.PlayerState.PLAYING + ' loaded=' + YT.loaded);
    window.player = new YT.Player('player', {
      height: '270', width: '480', videoId: 'VFsunrise01',
      playerVars: { playsinline: 1, mute: 1 },
      events: {
        onReady: function (e) { window.log.push('ready ' + (e.target === window.player) + ' ' + e.target.getDuration()); e.target.playVideo(); },
        onStateChange: function (e) { window.log.push('state ' + e.data + ' ' + e.target.getPlayerState()); }
      }
    });
  }
</script></body></html>`;
    await page.goto(host.page('/plain.html', html));
    await page.waitForFunction(() => (window as unknown as { log: string[] }).log.includes('state 1 1'), null, { timeout: 20_000 });
    const log = await page.evaluate(() => (window as unknown as { log: string[] }).log);
    expect(log[0]).toBe('api ready function 1 loaded=1');
    expect(log[1]).toMatch(/^ready true (12\.\d+|12)$/);
    const iframe = await page.evaluate(() => {
      const f = document.getElementById('player') as HTMLIFrameElement;
      return { tag: f.tagName, src: f.src, width: f.getAttribute('width') };
    });
    expect(iframe.tag).toBe('IFRAME');
    expect(new URL(iframe.src).origin).toBe(server.origin);
    expect(new URL(iframe.src).searchParams.get('origin')).toBe(host.origin);
    expect(iframe.width).toBe('480');
    // getCurrentTime advances; the video data is there; pause is heard.
    await page.waitForFunction(() => (window as unknown as { player: { getCurrentTime(): number } }).player.getCurrentTime() > 0.5);
    const data = await page.evaluate(
      () => (window as unknown as { player: { getVideoData(): { video_id: string }; isMuted(): boolean } }).player.getVideoData().video_id,
    );
    expect(data).toBe('VFsunrise01');
    await page.evaluate(() => (window as unknown as { player: { pauseVideo(): void } }).player.pauseVideo());
    await page.waitForFunction(() => (window as unknown as { log: string[] }).log.includes('state 2 2'));
    // destroy puts the placeholder back.
    expect(
      await page.evaluate(() => {
        (window as unknown as { player: { destroy(): void } }).player.destroy();
        return document.getElementById('player')!.tagName;
      }),
    ).toBe('DIV');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('works for a library that checks for an already loaded window.YT, and with YT.ready', async () => {
    const page = await browser.newPage();
    const html = `<!doctype html><html><head><meta charset="utf-8"></head><body>
<div id="a"></div>
<script>
  window.log = [];
  // A loader library: inject the script only when YT is not there yet, then wait for it.
  function loadApi(cb) {
    if (window.YT && window.YT.Player && window.YT.loaded) { window.log.push('already loaded'); cb(); return; }
    var previous = window.onYouTubeIframeAPIReady;
    window.onYouTubeIframeAPIReady = function () { if (previous) previous(); cb(); };
    if (!document.querySelector('script[data-yt]')) {
      var s = document.createElement('script'); s.src = '${server.origin}/iframe_api'; s.setAttribute('data-yt', ''); document.head.appendChild(s);
    }
  }
  loadApi(function () {
    window.log.push('first');
    YT.ready(function () { window.log.push('YT.ready'); });
    loadApi(function () {
      new YT.Player('a', { videoId: 'VFcitylight', events: { onReady: function () { window.log.push('ready'); } } });
    });
  });
</script></body></html>`;
    await page.goto(host.page('/library.html', html));
    await page.waitForFunction(() => (window as unknown as { log: string[] }).log.includes('ready'), null, { timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { log: string[] }).log)).toEqual(['first', 'YT.ready', 'already loaded', 'ready']);
    await page.close();
  });
});

describe('<EmbeddedPlayer> in StrictMode', () => {
  it('mounts one iframe, plays, and unmounts cleanly', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${pageOrigin()}/?view=component&host=${encodeURIComponent(server.origin)}`);
    await page.waitForSelector('[data-testid="component-events"] li:has-text("ready")', { timeout: 20_000 });
    expect(await page.locator('[data-testid="component-stage"] iframe').count()).toBe(1);
    await page.click('[data-testid="component-play"]');
    await page.waitForSelector('[data-testid="component-events"] li:has-text("state 1")', { timeout: 20_000 });
    await page.click('[data-testid="component-switch"]');
    await page.waitForSelector('[data-testid="component-events"] li:has-text("state 5")', { timeout: 20_000 });
    expect(await page.locator('[data-testid="component-stage"] iframe').count()).toBe(1);
    await page.click('[data-testid="toggle-mount"]');
    await page.waitForFunction(() => document.querySelectorAll('iframe').length === 0);
    await page.click('[data-testid="toggle-mount"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="component-stage"] iframe').length === 1);
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="component-events"] li')].filter((li) => li.textContent === 'ready').length === 2,
      null,
      { timeout: 20_000 },
    );
    expect(await page.locator('iframe').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
  it('a new videoId plays in the same iframe element; new playerVars make a new one; the iframe attributes are set', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${pageOrigin()}/?view=component&host=${encodeURIComponent(server.origin)}`);
    await page.waitForSelector('[data-testid="component-events"] li:has-text("ready")', { timeout: 20_000 });
    const iframe = () =>
      page.$eval('[data-testid="component-stage"] iframe', (f) => ({
        mark: (f as HTMLElement).dataset.mark,
        src: f.getAttribute('src')!,
        className: f.className,
        loading: f.getAttribute('loading'),
      }));
    // A mark on the element itself: only the same element still carries it.
    await page.$eval('[data-testid="component-stage"] iframe', (f) => ((f as HTMLElement).dataset.mark = 'first'));
    expect(await iframe()).toMatchObject({ mark: 'first', className: 'component-iframe', loading: 'lazy' });
    expect(new URL((await iframe()).src).searchParams.get('controls')).toBe('1');

    // Playing first, so that the switch's cue is a change of state the page hears (5 after 1).
    await page.click('[data-testid="component-play"]');
    await page.waitForSelector('[data-testid="component-events"] li:has-text("state 1")', { timeout: 20_000 });
    await page.click('[data-testid="component-switch"]');
    await page.waitForSelector('[data-testid="component-events"] li:has-text("state 5")', { timeout: 20_000 });
    expect((await iframe()).mark).toBe('first');

    await page.click('[data-testid="component-controls"]');
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="component-events"] li')].filter((li) => li.textContent === 'ready').length === 2,
      null,
      { timeout: 20_000 },
    );
    const next = await iframe();
    expect(next).toMatchObject({ mark: undefined, className: 'component-iframe', loading: 'lazy' });
    expect(new URL(next.src).searchParams.get('controls')).toBe('0');
    // The new player shows the video the component names now.
    expect(new URL(next.src).pathname).toBe('/embed/VFcitylight');
    expect(await page.locator('iframe').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
