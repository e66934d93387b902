import type { Browser, Frame, Page } from 'playwright-core';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { frameWith } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * Chapters where the viewer meets them, in a framed embed on another origin: the seek bar of a video with chapters
 * (VFsunrise01: "Before dawn" 0 s, "The horizon" 4 s, "Full light" 8 s of 12 s) is cut into their parts, hovering it
 * names the chapter under the pointer, the slider's value text names the chapter after a seek, and the chapter named
 * after the time changes as playback crosses a boundary. A video without chapters shows none of it. Needs
 * `npm run build`; every wait is on a condition in the page.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

async function openFramed(videoId: string): Promise<{ page: Page; frame: Frame }> {
  const page = await browser.newPage({ viewport: { width: 700, height: 420 } });
  const embedUrl = `${server.origin}/embed/${videoId}?autoplay=0&mute=1`;
  await page.goto(host.page(`/chapters-${videoId}-${Math.random().toString(36).slice(2)}.html`, framingPage(embedUrl)));
  const frame = await frameWith(page, '/embed/');
  await frame.waitForSelector('.vf-player[data-state="5"][data-readiness="ready"]');
  await frame.waitForSelector('.vf-seek');
  return { page, frame };
}

/** Hovers the seek bar at `fraction` of its width; resolves with what its preview says (chapter, time). */
async function hoverAt(frame: Frame, fraction: number): Promise<{ chapter: string | null; text: string }> {
  const box = (await (await frame.$('.vf-seek'))!.boundingBox())!;
  await frame.hover('.vf-seek', { position: { x: box.width * fraction, y: box.height / 2 } });
  const preview = await frame.waitForSelector('.vf-seek-hover');
  return preview.evaluate((el) => ({ chapter: el.querySelector('.vf-seek-chapter')?.textContent ?? null, text: el.textContent ?? '' }));
}

const valueText = (frame: Frame) => frame.getAttribute('.vf-seek', 'aria-valuetext');

describe('chapters on the seek bar, in its preview, its value text and beside the time', () => {
  it('a video with chapters: parts on the bar, the hovered chapter named, the current one after a seek and while playing', async () => {
    const { page, frame } = await openFramed('VFsunrise01');

    // The bar is cut into three parts: its fill is masked with a gap at each chapter's start (4/12 and 8/12).
    await frame.waitForSelector('.vf-seek-track[data-chapters]');
    const mask = await frame.$eval('.vf-seek-fill', (el) => getComputedStyle(el).maskImage || getComputedStyle(el).webkitMaskImage);
    expect(mask).toContain('linear-gradient');
    // Each boundary cut as a see-through band around its start (the media lasts 12.008 s: a start's fraction of it).
    const cuts = [...new Set([...mask.matchAll(/calc\(([\d.]+)% - 1px\)/g)].map((m) => Number(m[1])))];
    expect(cuts).toHaveLength(2);
    expect(cuts[0]).toBeCloseTo((4 / 12.008) * 100, 2);
    expect(cuts[1]).toBeCloseTo((8 / 12.008) * 100, 2);
    expect(mask).toMatch(/rgba\(0, 0, 0, 0\) calc\([\d.]+% - 1px\), rgba\(0, 0, 0, 0\) calc\([\d.]+% \+ 1px\)/);
    // The thumb is outside the masked fill: it stays whole at a boundary.
    expect(await frame.$$eval('.vf-seek-fill .vf-seek-thumb', (els) => els.length)).toBe(0);

    // Hovering names the chapter under the pointer, above its time.
    expect(await hoverAt(frame, 0.1)).toEqual({ chapter: 'Before dawn', text: 'Before dawn0:01' });
    expect((await hoverAt(frame, 0.5)).chapter).toBe('The horizon');
    expect((await hoverAt(frame, 0.9)).chapter).toBe('Full light');

    // Before playing: the value text and the title beside the time name the first chapter.
    expect(await valueText(frame)).toBe('0 seconds of 12 seconds, Chapter: Before dawn');
    await frame.waitForSelector('.vf-chapter-title');
    expect(await frame.textContent('.vf-chapter-title')).toBe('Before dawn');

    // Playing, a seek (a click at 5.5/12 of the bar) moves the value text and the title to the chapter there.
    await frame.click('.vf-playpause');
    await frame.waitForSelector('.vf-player[data-state="1"]');
    const box = (await (await frame.$('.vf-seek'))!.boundingBox())!;
    await frame.click('.vf-seek', { position: { x: box.width * (5.5 / 12), y: box.height / 2 } });
    await frame.waitForFunction(() => document.querySelector('.vf-seek')!.getAttribute('aria-valuetext')!.endsWith('Chapter: The horizon'));
    expect(await valueText(frame)).toMatch(/^[5-7] seconds of 12 seconds, Chapter: The horizon$/);
    await frame.waitForFunction(() => document.querySelector('.vf-chapter-title')?.textContent === 'The horizon');

    // Playing on across 8 s: the chapter beside the time and in the value text becomes the next one.
    await frame.waitForFunction(() => document.querySelector('.vf-chapter-title')?.textContent === 'Full light', undefined, { timeout: 15_000 });
    await frame.waitForFunction(() => document.querySelector('.vf-seek')!.getAttribute('aria-valuetext')!.endsWith('Chapter: Full light'));
    // The title sits after the time, in the same row, and the time still shows.
    const order = await frame.evaluate(() => {
      const time = document.querySelector('.vf-time')!.getBoundingClientRect();
      const title = document.querySelector('.vf-chapter-title')!.getBoundingClientRect();
      return { after: title.left >= time.right - 0.5, sameRow: Math.abs(title.top + title.height / 2 - (time.top + time.height / 2)) < 4 };
    });
    expect(order).toEqual({ after: true, sameRow: true });
    await page.close();
  });

  it('a video without chapters: one unbroken bar, no chapter in the preview, the value text or beside the time', async () => {
    const { page, frame } = await openFramed('VFcitylight');
    expect(await frame.$('.vf-seek-track[data-chapters]')).toBeNull();
    const mask = await frame.$eval('.vf-seek-fill', (el) => getComputedStyle(el).maskImage || getComputedStyle(el).webkitMaskImage);
    expect(mask).toBe('none');
    expect(await hoverAt(frame, 0.5)).toEqual({ chapter: null, text: '0:05' });
    expect(await valueText(frame)).toBe('0 seconds of 10 seconds');
    expect(await frame.$('.vf-chapter-title')).toBeNull();
    await page.close();
  });
});
