import type { Browser, Page } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import { rawHostPage, waitCache, waitMessage } from './host.helpers';

/**
 * A stream that cannot play, where the host meets it: the adaptive sample `VFladder001` in the framed embed, with no
 * rendition the browser says it decodes (`fmt.noneavailable`), or with video segments that are not media
 * (`fmt.decode`). Either way the host hears code 5 on `onError` once, and the player still answers commands: a
 * following `loadVideoById` of the progressive sample plays. Needs `npm run build`.
 */
jest.setTimeout(60_000);

let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

/** A raw host page framing the adaptive sample, autoplaying and muted, listening to errors and states. */
async function openAdaptive(page: Page): Promise<void> {
  const query = `enablejsapi=1&origin=${encodeURIComponent(host.origin)}&widgetid=1&autoplay=1&mute=1`;
  await page.goto(host.page(`/failing-${Math.random().toString(36).slice(2)}.html`, rawHostPage(`${server.origin}/embed/VFladder001?${query}`, server.origin)));
  await waitMessage(page, 'onReady');
  await page.evaluate(() => {
    window.send('addEventListener', ['onError']);
    window.send('addEventListener', ['onStateChange']);
  });
}

/** After the error the player still plays what it is asked to: the progressive sample, from a command. */
async function stillAnswers(page: Page): Promise<void> {
  await page.evaluate(() => window.send('loadVideoById', ['VFsunrise01']));
  await waitCache(page, "c.videoData && c.videoData.video_id === 'VFsunrise01' && c.playerState === 1 && c.currentTime > 0.3");
}

/** A box of 4 bytes, where an ISO BMFF box needs at least its 8-byte header: no parser reads past it. */
const notMedia = Buffer.concat([Buffer.from([0, 0, 0, 4]), Buffer.from('moof'), Buffer.alloc(4_000)]);

const errorsOf = (page: Page) => page.evaluate(() => window.received.filter((m) => m.event === 'onError').map((m) => m.info));

describe('an adaptive stream that cannot play', () => {
  it('no rendition the browser decodes: the host hears 5 (fmt.noneavailable), and the player still answers', async () => {
    const page = await browser.newPage();
    // Every frame of this page says it decodes none of the ladder's types, as a browser without H.264 and VP9 would.
    await page.addInitScript(() => {
      const no = { supported: false, smooth: false, powerEfficient: false };
      Object.defineProperty(navigator, 'mediaCapabilities', { value: { decodingInfo: () => Promise.resolve(no) }, configurable: true });
      if (window.MediaSource) window.MediaSource.isTypeSupported = () => false;
    });
    await openAdaptive(page);
    await waitMessage(page, 'onError', 5);
    expect(await errorsOf(page)).toEqual([5]);
    await stillAnswers(page);
    await page.close();
  });

  it('video segments that are not media: the host hears 5 (fmt.decode) at once, and the player still answers', async () => {
    const page = await browser.newPage();
    // The ladder's video segments (renditions 0–3; the audio is 4) answer with bytes no demuxer reads.
    await page.route(/\/seg-[0-3]-\d+\./, (route) => route.fulfill({ status: 200, contentType: 'video/mp4', body: notMedia }));
    await openAdaptive(page);
    await waitMessage(page, 'onError', 5);
    expect(await errorsOf(page)).toEqual([5]);
    await page.unroute(/\/seg-[0-3]-\d+\./);
    await stillAnswers(page);
    await page.close();
  });
});
