import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { frameWith, reachForPlayer } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';
import { PLAYER_CONTROLS_AUTOHIDE_MS } from '../../streams/timing';

/**
 * Touch on the video, as on YouTube's touch player (Chromium with touch emulation): a double tap on the right half
 * seeks 10 s on, on the left half 10 s back, with an indicator and a polite announcement; a single tap brings the
 * hidden controls back (once the double-tap window has passed) and neither plays nor pauses the video.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;
withE2eEnvironment((env) => ({ server, host, browser } = env));

let context: BrowserContext;
afterEach(() => context?.close());

async function open(): Promise<{ page: Page; frame: Frame }> {
  context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 680, height: 400 } });
  const page = await context.newPage();
  // The longest sample of one file (15 s): seeks from 12 s back to 2 s and on again stay inside it.
  const embedUrl = `${server.origin}/embed/VFoceanwave?autoplay=1&mute=1`;
  await page.goto(host.page(`/touch-${Math.random().toString(36).slice(2)}.html`, framingPage(embedUrl)));
  const frame = await frameWith(page, '/embed/');
  await frame.waitForSelector('.vf-player[data-state="1"]');
  await reachForPlayer(frame);
  await frame.waitForSelector('.vf-chrome');
  return { page, frame };
}

/** A point on the video, in the page's coordinates: `fx` across its width, half way down. */
async function videoPoint(frame: Frame, fx: number): Promise<{ x: number; y: number }> {
  const box = (await (await frame.frameElement()).boundingBox())!;
  return { x: box.x + box.width * fx, y: box.y + box.height * 0.45 };
}

const currentTime = (frame: Frame) => frame.evaluate(() => document.querySelector('video')!.currentTime);

describe('touch gestures on the video', () => {
  it('a double tap on the right seeks +10 s, on the left -10 s, with an announced indicator', async () => {
    const { page, frame } = await open();
    await frame.click('.vf-playpause');
    await frame.waitForSelector('.vf-player[data-state="2"]');
    await frame.evaluate(() => {
      const w = window as unknown as { announced: string[] };
      w.announced = [];
      const status = document.querySelector('.vf-tapseek-status')!;
      new MutationObserver(() => status.textContent && w.announced.push(status.textContent)).observe(status, {
        childList: true,
        subtree: true,
        characterData: true,
      });
      document.querySelector('video')!.currentTime = 12;
    });
    await frame.waitForFunction(() => Math.abs(document.querySelector('video')!.currentTime - 12) < 0.1);

    const left = await videoPoint(frame, 0.2);
    await page.touchscreen.tap(left.x, left.y);
    await page.touchscreen.tap(left.x, left.y);
    await frame.waitForFunction(() => Math.abs(document.querySelector('video')!.currentTime - 2) < 0.3);
    await frame.waitForFunction(() => (window as unknown as { announced: string[] }).announced.includes('Back 10 seconds'));
    // The run ends with the window: the indicator goes; the video stays paused (a tap is no click on the video).
    await frame.waitForSelector('.vf-tapseek', { state: 'detached' });
    expect(await frame.getAttribute('.vf-player', 'data-state')).toBe('2');

    const right = await videoPoint(frame, 0.8);
    await page.touchscreen.tap(right.x, right.y);
    await page.touchscreen.tap(right.x, right.y);
    await frame.waitForFunction(() => Math.abs(document.querySelector('video')!.currentTime - 12) < 0.3);
    await frame.waitForFunction(() => (window as unknown as { announced: string[] }).announced.includes('Forward 10 seconds'));
    expect(Math.abs((await currentTime(frame)) - 12)).toBeLessThan(0.3);
    expect(await frame.getAttribute('.vf-player', 'data-state')).toBe('2');
  });

  it('a single tap shows the hidden controls, another hides them; playback goes on', async () => {
    const { page, frame } = await open();
    await frame.waitForSelector('.vf-player[data-controls-visible="false"]', { timeout: 10_000 });
    const before = await currentTime(frame);
    const middle = await videoPoint(frame, 0.5);
    await page.touchscreen.tap(middle.x, middle.y);
    await frame.waitForSelector('.vf-player[data-controls-visible="true"]');
    expect(await frame.getAttribute('.vf-player', 'data-state')).toBe('1');
    // No seek either: the time moved on from where it was, by far less than a step.
    const after = await currentTime(frame);
    expect(after).toBeGreaterThanOrEqual(before);
    expect(after - before).toBeLessThan(5);
    // Another single tap while they are up hides them: well before their own auto-hide would.
    // (The first tap's window has passed: the controls showed only then, so this tap is a new single tap.)
    const tappedAt = Date.now();
    await page.touchscreen.tap(middle.x, middle.y);
    await frame.waitForSelector('.vf-player[data-controls-visible="false"]');
    expect(Date.now() - tappedAt).toBeLessThan(PLAYER_CONTROLS_AUTOHIDE_MS - 1_000);
    expect(await frame.getAttribute('.vf-player', 'data-state')).toBe('1');
  });
});
