import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import { slowDown } from './host.helpers';

/**
 * A third-party player drives the embed: Plyr (its own YouTube provider code, unchanged, from npm) on a host page that
 * includes `/iframe_api`, on a page slowed as a loaded machine is (`slowDown`: 4× CPU, late chunks and answers). Plyr
 * calls the player API as it does on YouTube: its faux media element plays, pauses, seeks, sets the volume and the rate
 * through the commands and reads them back through the getters and events. Each scenario runs several times and must
 * come out the same every time. Needs `npm run build`.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

const ROUNDS = 3;
/** Plyr's browser build (a script defining `Plyr`) and its styles, as a site includes them. */
const PLYR_DIST = dirname(require.resolve('plyr'));
const PLYR_JS = readFileSync(join(PLYR_DIST, 'plyr.polyfilled.min.js'), 'utf8');
const PLYR_CSS = readFileSync(join(PLYR_DIST, 'plyr.css'), 'utf8');

interface PlyrPage {
  log: string[];
  plyr: {
    play(): unknown;
    pause(): void;
    currentTime: number;
    readonly paused: boolean;
    readonly playing: boolean;
    volume: number;
    speed: number;
    readonly media: { error?: { code: number } };
    readonly embed: { getVolume(): number; getPlaybackRate(): number; getPlayerState(): number };
  };
}
type PlyrWindow = Window & PlyrPage;

/**
 * Plyr on a host page of its own origin, playing `videoId` from VidFrame. Plyr names YouTube's host for the frame; the
 * page points it at VidFrame, as a site moving to VidFrame does (the script URL by Plyr's own option, the frame's host by
 * wrapping `YT.Player`). Plyr's title lookup goes to the host page's own server, which answers 404, and its poster images fail: it plays on.
 * Its icon sprite, fetched from a CDN this machine cannot reach, is not loaded. `errors`: what the page threw.
 */
async function openPlyr(videoId: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await slowDown(page);
  const embed = JSON.stringify(server.origin);
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>Plyr host</title><style>${PLYR_CSS}</style></head><body>
<div id="player" data-plyr-provider="youtube" data-plyr-embed-id="${videoId}"></div>
<script src="${server.origin}/iframe_api"></script>
<script>${PLYR_JS}</script>
<script>
  window.log = [];
  function onYouTubeIframeAPIReady() {
    var Player = YT.Player;
    YT.Player = function (element, options) { return new Player(element, Object.assign({}, options, { host: ${embed} })); };
    window.plyr = new Plyr('#player', {
      muted: true,
      loadSprite: false,
      urls: { youtube: { sdk: ${embed} + '/iframe_api', api: '/no-title/{0}' } },
    });
    ['ready', 'playing', 'pause', 'seeked', 'error', 'volumechange', 'ratechange'].forEach(function (name) {
      window.plyr.on(name, function () { window.log.push(name); });
    });
  }
</script></body></html>`;
  await page.goto(host.page(`/plyr-${Math.random().toString(36).slice(2)}.html`, html));
  return { page, errors };
}

/** Waits until `predicate` (a function of the page's Plyr state) holds. */
const waitPlyr = (page: Page, predicate: (w: PlyrPage) => boolean) => page.waitForFunction(`(${predicate.toString()})(window)`, undefined, { timeout: 20_000 });

describe('Plyr, a third-party player, drives the embed on a slowed page', () => {
  for (let round = 1; round <= ROUNDS; round++) {
    it(`plays, pauses, seeks while paused, and sets the volume and the rate, round ${round}`, async () => {
      const { page, errors } = await openPlyr('VFsunrise01');
      await waitPlyr(page, (w) => w.log.includes('ready'));
      await page.evaluate(() => void (window as unknown as PlyrWindow).plyr.play());
      await waitPlyr(page, (w) => w.log.includes('playing') && w.plyr.playing && w.plyr.currentTime > 0.5);
      await page.evaluate(() => (window as unknown as PlyrWindow).plyr.pause());
      await waitPlyr(page, (w) => w.plyr.paused && w.plyr.embed.getPlayerState() === 2);
      await page.evaluate(() => ((window as unknown as PlyrWindow).plyr.currentTime = 3));
      // A seek while paused stays paused, and the time Plyr reads is the new one.
      await waitPlyr(page, (w) => Math.abs(w.plyr.currentTime - 3) < 0.05 && w.plyr.embed.getPlayerState() === 2);
      await page.evaluate(() => ((window as unknown as PlyrWindow).plyr.volume = 0.5));
      await waitPlyr(page, (w) => w.plyr.embed.getVolume() === 50);
      await page.evaluate(() => ((window as unknown as PlyrWindow).plyr.speed = 1.5));
      await waitPlyr(page, (w) => w.log.includes('ratechange') && w.plyr.embed.getPlaybackRate() === 1.5);
      expect(errors).toEqual([]);
      await page.close();
    });

    it(`a video that cannot play: Plyr's error event, once, with code 5, round ${round}`, async () => {
      const { page, errors } = await openPlyr('VFbrokenvid');
      await waitPlyr(page, (w) => w.log.includes('error'));
      expect(await page.evaluate(() => (window as unknown as PlyrWindow).plyr.media.error?.code)).toBe(5);
      expect((await page.evaluate(() => (window as unknown as PlyrWindow).log)).filter((e) => e === 'error')).toHaveLength(1);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
