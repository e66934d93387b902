import type { Browser, Frame } from 'playwright-core';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { frameWith, reachForPlayer } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * What a viewer sees of an adaptive stream, in the real embed framed by a host on another origin, playing the sample
 * ladder `VFladder001` (144p–480p, H.264 and VP9) through Media Source Extensions: the quality menu's "Auto (480p)" and
 * the ladder's levels, the stats panel the `i` key opens, and the storyboard thumbnail over the seek bar. Every wait is
 * on a condition in the page.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

const VIDEO = 'VFladder001';

async function openPlaying(): Promise<Frame> {
  const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
  const embedUrl = `${server.origin}/embed/${VIDEO}?autoplay=1&mute=1`;
  await page.goto(host.page(`/host-${Math.random().toString(36).slice(2)}.html`, framingPage(embedUrl)));
  const frame = await frameWith(page, '/embed/');
  // Streaming (the element plays an object URL of a MediaSource) with a picture on screen.
  await frame.waitForFunction(() => {
    const v = document.querySelector('video');
    return !!v && v.src.startsWith('blob:') && v.videoWidth > 0 && v.currentTime > 0;
  });
  await reachForPlayer(frame);
  return frame;
}

describe('adaptive streaming as the viewer sees it', () => {
  let frame: Frame;
  beforeAll(async () => {
    frame = await openPlaying();
  });

  it('the quality menu reads Auto with the quality on screen and lists the ladder’s levels, Auto checked', async () => {
    await frame.click('.vf-settings');
    const row = await frame.waitForSelector('.vf-menu [role="menuitem"]:has-text("Quality")');
    expect(await row.textContent()).toMatch(/^QualityAuto \((144|240|360|480)p\)$/);
    await row.click();
    await frame.waitForSelector('.vf-menu[data-page="quality"]');
    const choices = await frame.$$eval('.vf-menu [role="menuitemradio"]', (items) => items.map((it) => [it.textContent, it.getAttribute('aria-checked')]));
    expect(choices.slice(0, 4)).toEqual([
      ['480p', 'false'],
      ['360p', 'false'],
      ['240p', 'false'],
      ['144p', 'false'],
    ]);
    expect(choices[4]?.[0]).toMatch(/^Auto \((144|240|360|480)p\)$/);
    expect([choices.length, choices[4]?.[1]]).toEqual([5, 'true']);
    await frame.press('.vf-menu', 'Escape');
    await frame.waitForSelector('.vf-menu', { state: 'detached' });
  });

  it('i opens the stats panel with the codec and resolution on screen; i again closes it', async () => {
    await frame.press('.vf-player', 'i');
    await frame.waitForSelector('[role="region"][aria-labelledby="vf-stats-title"]');
    // Filled once the element is sampled and the stream has decided and measured.
    await frame.waitForFunction(() => {
      const v = (label: string) => document.querySelector(`.vf-stats [data-stat="${label}"] dd`)?.textContent ?? '';
      return v('Codecs').includes('codecs=') && /^\d+×\d+ \(\d+p\)$/.test(v('Current Res')) && v('Connection Speed').endsWith('bps');
    });
    const stats = await frame.evaluate(() => {
      const v = (label: string) => document.querySelector(`.vf-stats [data-stat="${label}"] dd`)?.textContent ?? '';
      const video = document.querySelector('video')!;
      return {
        id: v('Video ID'),
        codec: v('Codecs'),
        res: v('Current Res'),
        optimal: v('Optimal Res'),
        frames: v('Dropped Frames'),
        live: document.querySelector('.vf-stats')!.getAttribute('aria-live'),
        size: `${video.videoWidth}×${video.videoHeight}`,
      };
    });
    expect(stats.id).toBe(VIDEO);
    expect(stats.codec).toMatch(/^video\/(mp4|webm); codecs="(avc1|vp09?)[^"]*"$/);
    expect(stats.res.startsWith(`${stats.size} (`)).toBe(true);
    expect(stats.optimal).toMatch(/\((144|240|360|480)p\)$/);
    expect(stats.frames).toMatch(/^\d+ dropped of \d+$/);
    expect(stats.live).toBe('off');
    await frame.press('.vf-player', 'i');
    await frame.waitForSelector('.vf-stats', { state: 'detached' });
  });

  it('hovering the seek bar shows the storyboard thumbnail of that time, from the answer’s sheet', async () => {
    const bar = (await frame.$('.vf-seek'))!;
    const box = (await bar.boundingBox())!;
    await frame.hover('.vf-seek', { position: { x: box.width * 0.75, y: box.height / 2 } });
    const thumb = await frame.waitForSelector('.vf-seek-thumbnail');
    const seen = await thumb.evaluate((el) => {
      const style = getComputedStyle(el);
      return { image: style.backgroundImage, position: style.backgroundPosition, width: style.width };
    });
    const sheet = /^url\("(.+)"\)$/.exec(seen.image)?.[1] ?? '';
    expect(sheet).toMatch(new RegExp(`^${server.origin}/media/videos/${VIDEO}/[0-9a-f]+/storyboard/sheet-000\\.jpg$`));
    // 75% of 20 s is 15 s: thumbnail 7 (one every 2 s), column 7 of the first row of 160-px cells.
    expect([seen.position, seen.width]).toEqual(['-1120px 0px', '160px']);
    const fetched = await frame.evaluate(async (url) => {
      const r = await fetch(url);
      return { status: r.status, type: r.headers.get('content-type') };
    }, sheet);
    expect(fetched).toEqual({ status: 200, type: 'image/jpeg' });
  });
});
