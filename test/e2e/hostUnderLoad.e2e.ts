import type { Browser, Page } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import { rawHostPage, slowDown, waitCache, waitMessage } from './host.helpers';

/**
 * The host protocol on a slow page (`slowDown`: 4× CPU, every chunk and API answer late), where the element's events,
 * the host's commands and the services arrive in other orders than on a quiet machine. Each scenario runs several
 * times; each must come out the same every time. Needs `npm run build`.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

const ROUNDS = 3;
const jsapi = (extra = '') => `enablejsapi=1&origin=${encodeURIComponent(host.origin)}&widgetid=1${extra}`;

/** A raw host page framing the embed, its renderer `rate` times slower, the embed's chunks and answers delayed. */
async function openSlowHost(videoId: string, query: string, rate = 4): Promise<Page> {
  const page = await browser.newPage();
  await slowDown(page, rate);
  const embedUrl = `${server.origin}/embed/${videoId}?${query}`;
  await page.goto(host.page(`/slow-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
  return page;
}

describe('the host protocol on a throttled page with late chunks and answers', () => {
  for (let round = 1; round <= ROUNDS; round++) {
    it(`loadPlaylist(ids, 1) plays the second video, round ${round}`, async () => {
      const page = await openSlowHost('VFsunrise01', jsapi('&autoplay=0&mute=1'));
      await waitMessage(page, 'onReady');
      await page.evaluate(() => window.send('addEventListener', ['onStateChange']));
      await page.evaluate(() => window.send('loadPlaylist', [['VFcitylight', 'VFsunrise01'], 1]));
      await waitCache(page, "c.playerState === 1 && c.playlistIndex === 1 && c.videoData && c.videoData.video_id === 'VFsunrise01'");
      expect(await page.evaluate(() => window.cache.playlist)).toEqual(['VFcitylight', 'VFsunrise01']);
      await waitMessage(page, 'onStateChange', 1);
      await page.close();
    });

    it(`a quality change while the load's play is pending still plays, round ${round}`, async () => {
      const page = await openSlowHost('VFsunrise01', jsapi('&autoplay=0&mute=1'));
      await waitMessage(page, 'onReady');
      const quality = await page.evaluate(() => window.cache.playbackQuality);
      const other = quality === 'small' ? 'medium' : 'small';
      await page.evaluate((q) => {
        window.send('loadPlaylist', [['VFcitylight', 'VFsunrise01'], 1]);
        window.send('setPlaybackQuality', [q]);
      }, other);
      await waitCache(page, 'c.playerState === 1 && c.playlistIndex === 1 && c.playbackQuality === arg', other);
      await page.close();
    });

    it(`playVideo and a quality change sent together: it plays in the new quality, round ${round}`, async () => {
      const page = await openSlowHost('VFsunrise01', jsapi('&autoplay=0&mute=1'));
      await waitMessage(page, 'onReady');
      await waitCache(page, 'c.playerState === 5');
      const quality = await page.evaluate(() => window.cache.playbackQuality);
      const other = quality === 'small' ? 'medium' : 'small';
      // Both commands reach the embed before the element's play event: the switch must not drop the play.
      await page.evaluate((q) => {
        window.send('playVideo');
        window.send('setPlaybackQuality', [q]);
      }, other);
      await waitCache(page, 'c.playerState === 1 && c.playbackQuality === arg', other);
      await page.close();
    });

    it(`cueVideoById and playVideo sent together: the cued video plays when its answer comes, round ${round}`, async () => {
      const page = await openSlowHost('VFsunrise01', jsapi('&autoplay=0&mute=1'));
      await waitMessage(page, 'onReady');
      await waitCache(page, 'c.playerState === 5');
      // The answer for the cued video is held back by the route: the play reaches the embed before it.
      await page.evaluate(() => {
        window.send('cueVideoById', ['VFcitylight']);
        window.send('playVideo');
      });
      await waitCache(page, "c.playerState === 1 && c.videoData && c.videoData.video_id === 'VFcitylight'");
      await page.close();
    });

    it(`cuePlaylist by list id and playVideo sent together: the list's video plays, round ${round}`, async () => {
      const page = await openSlowHost('VFsunrise01', jsapi('&autoplay=0&mute=1'));
      await waitMessage(page, 'onReady');
      await page.evaluate(() => {
        window.send('cuePlaylist', [{ list: 'PLvfDemoPlaylist01', index: 2 }]);
        window.send('playVideo');
      });
      await waitCache(page, "c.playerState === 1 && c.playlistIndex === 2 && c.videoData && c.videoData.video_id === 'VFoceanwave'");
      await page.close();
    });

    it(`loadVideoById and pauseVideo sent together: the video waits, paused, where the host asked, round ${round}`, async () => {
      const page = await openSlowHost('VFsunrise01', jsapi('&autoplay=0&mute=1'));
      await waitMessage(page, 'onReady');
      await page.evaluate(() => {
        window.send('loadVideoById', ['VFcitylight']);
        window.send('pauseVideo');
        window.send('seekTo', [2, true]);
      });
      await waitCache(page, "c.videoData && c.videoData.video_id === 'VFcitylight' && c.duration > 0 && c.currentTime === 2");
      const frame = page.frames().find((f) => f.url().includes('/embed/'))!;
      await frame.waitForFunction(() => document.querySelector('video')!.readyState >= 2);
      expect(await frame.evaluate(() => document.querySelector('video')!.paused)).toBe(true);
      expect(await page.evaluate(() => window.cache.playerState)).not.toBe(1);
      await page.close();
    });

    it(`seekTo while paused gives the host the new time, round ${round}`, async () => {
      const page = await openSlowHost('VFsunrise01', jsapi('&autoplay=0&mute=1'));
      await waitMessage(page, 'onReady');
      await waitCache(page, 'c.playerState === 5');
      await page.evaluate(() => window.send('playVideo'));
      await waitCache(page, 'c.playerState === 1');
      await page.evaluate(() => window.send('pauseVideo'));
      await waitCache(page, 'c.playerState === 2');
      await page.evaluate(() => window.send('seekTo', [3, true]));
      // A paused player stays paused (a seek from any other state plays).
      await waitCache(page, 'c.currentTime === 3 && c.playerState === 2');
      await page.close();
    });

    it(`cc_load_policy=1&cc_lang_pref=es shows the Spanish track, round ${round}`, async () => {
      const page = await openSlowHost('VFsunrise01', jsapi('&autoplay=0&cc_load_policy=1&cc_lang_pref=es'));
      await waitMessage(page, 'onReady');
      await page.waitForFunction(
        () => (window.apiInfo as { captions?: { track?: { languageCode?: string } } } | null)?.captions?.track?.languageCode === 'es',
        undefined,
        { timeout: 15_000 },
      );
      expect(await page.evaluate(() => (window.apiInfo as { namespaces: string[] }).namespaces)).toEqual(['captions']);
      await page.close();
    });

    it(`a video that cannot play: one onError (5), and the player still answers, round ${round}`, async () => {
      const page = await openSlowHost('VFbrokenvid', jsapi('&autoplay=1&mute=1'));
      await waitMessage(page, 'onReady');
      await page.evaluate(() => window.send('addEventListener', ['onError']));
      await waitMessage(page, 'onError', 5);
      await page.evaluate(() => window.send('loadVideoById', ['VFcitylight']));
      await waitCache(page, "c.playerState === 1 && c.videoData && c.videoData.video_id === 'VFcitylight'");
      expect((await page.evaluate(() => window.received.map((m) => m.event))).filter((e) => e === 'onError')).toHaveLength(1);
      await page.close();
    });

    it(`an onError listener added 300 ms after onReady hears the failure once, after it subscribed, round ${round}`, async () => {
      const page = await openSlowHost('VFbrokenvid', jsapi('&autoplay=1&mute=1'));
      await waitMessage(page, 'onReady');
      await new Promise((r) => setTimeout(r, 300));
      // A widget script's listener hears only what arrives after it was added: what came before is not counted.
      const subscribedAt = await page.evaluate(() => {
        window.send('addEventListener', ['onError']);
        return window.received.length;
      });
      await waitMessage(page, 'onError', 5);
      const errors = await page.evaluate(() => window.received.flatMap((m, i) => (m.event === 'onError' ? [i] : [])));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeGreaterThanOrEqual(subscribedAt);
      await page.close();
    });
  }
});
