import type { Browser, Page } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { framingPage } from './helpers/servers';
import { frameWith, reachForPlayer, servicesStarted } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';
import { rawHostPage, videoElement, waitCache, waitMessage } from './host.helpers';
import { collectorOf, oneTo, openEmbed, sequenceNumbers, until } from './telemetry.helpers';
import { CONTROLS_RETRY_AFTER_MS, PLAYER_BOOT_FIRST_FRAME_WAIT_MS, SERVICES_RETRY_AFTER_MS } from '../../streams/timing';

/**
 * Issue 15, where a viewer and a host meet it: the `<video>` comes with the HTML, so its media request starts before
 * any script has run; the player adopts that very element; React and the controls arrive in their own chunk after
 * the player is ready; and when that chunk cannot load, the video, the host channel and a click still work.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

/** Before any script of the frame: the first `<video>` the parser inserts, kept on `window.__parsedVideo`. */
const KEEP_PARSED_VIDEO = `(() => {
  if (window === window.top) return;
  new MutationObserver((_, observer) => {
    const v = document.querySelector('video');
    if (v) {
      window.__parsedVideo = v;
      window.__seeks = 0;
      v.addEventListener('seeking', () => window.__seeks++);
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
})();`;

/** `controlsWhen`: the controls chunk is served only while it says so (refused before, as on a network failure). */
async function openHost(query: string, { blockControls = false, controlsWhen }: { blockControls?: boolean; controlsWhen?: () => boolean } = {}): Promise<Page> {
  const page = await browser.newPage();
  await page.addInitScript(KEEP_PARSED_VIDEO);
  if (blockControls) await page.route(/\/assets\/ui-[^/]*\.js$/, (route) => route.abort('failed'));
  if (controlsWhen) await page.route(/\/assets\/ui-[^/]*\.js$/, (route) => (controlsWhen() ? route.continue() : route.abort('failed')));
  const embedUrl = `${server.origin}/embed/VFsunrise01?enablejsapi=1&origin=${encodeURIComponent(host.origin)}&${query}`;
  await page.goto(host.page(`/early-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
  return page;
}

/**
 * A cued embed framed by a raw host, its media request held back until `release()`: the player is ready (it has its
 * video) long before the element knows anything of the media.
 */
async function openWithMediaHeld() {
  const page = await browser.newPage();
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  await page.route(/\/media\/videos\/[^/]+\/[a-z0-9]+\.webm/, async (route) => {
    await released;
    await route.continue();
  });
  const embedUrl = `${server.origin}/embed/VFsunrise01?enablejsapi=1&origin=${encodeURIComponent(host.origin)}`;
  await page.goto(host.page(`/early-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
  await waitMessage(page, 'onReady');
  return { page, frame: await frameWith(page, '/embed/'), release };
}

describe('the video arrives with the page; the controls after it (issue 15)', () => {
  it('the media loads, and a muted autoplay plays, with no script of the page at all', async () => {
    const page = await browser.newPage();
    // Every script of the embed refused: what is left is the HTML the server wrote.
    await page.route(/\/assets\/[^/]+\.js$/, (route) => route.abort('failed'));
    const embedUrl = `${server.origin}/embed/VFsunrise01?enablejsapi=1&autoplay=1&mute=1`;
    await page.goto(host.page(`/early-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
    const frame = await frameWith(page, '/embed/');
    await frame.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.2);
    expect(await frame.evaluate(() => typeof (window as unknown as { vidframePlayer?: unknown }).vidframePlayer)).toBe('undefined');
    expect(await frame.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/media\//.test(e.name)))).toBe(true);
    await page.close();
  });

  it('the served page carries the <video> with its source; the player adopts that very element; the controls come only when the viewer reaches for it', async () => {
    const html = await (await fetch(`${server.origin}/embed/VFsunrise01?autoplay=1&mute=1`)).text();
    expect(html).toMatch(/<video class="vf-video" src="\/media\/videos\/VFsunrise01\/[a-z0-9]+\.webm" preload="auto" autoplay muted playsinline/);

    const page = await openHost('autoplay=1&mute=1');
    const controlsRequested: number[] = [];
    page.on('request', (r) => {
      if (/\/assets\/ui-[^/]+\.js$/.test(new URL(r.url()).pathname)) controlsRequested.push(Date.now());
    });
    await waitMessage(page, 'onReady');
    await waitCache(page, 'c.playerState === 1');
    const frame = await frameWith(page, '/embed/');
    // The services came (ready, loaded, idle): had the playing video needed the controls, they would have been asked
    // for then, in the same task as the services' chunk — before it arrived, so before the page could answer below
    // (the browser reports the requests in order). Nobody reached for it: no controls, and the shell shows the player's state by itself.
    await servicesStarted(frame);
    expect(controlsRequested).toEqual([]);
    expect(await frame.locator('.vf-ui').evaluate((ui) => ui.childElementCount)).toBe(0);
    expect(await frame.getAttribute('.vf-player', 'data-state')).toBe('1');
    await reachForPlayer(frame);
    await frame.waitForSelector('.vf-chrome');
    expect(controlsRequested).toHaveLength(1);
    const timing = await frame.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const find = (re: RegExp) => entries.find((e) => re.test(new URL(e.name).pathname));
      const media = find(/^\/media\//);
      const controls = find(/^\/assets\/ui-[^/]+\.js$/);
      return {
        mediaStart: media?.startTime,
        controlsStart: controls?.startTime,
        sameElement:
          (window as unknown as { __parsedVideo?: Element }).__parsedVideo === (window.vidframePlayer!.element$ as unknown as { value: Element | null }).value,
        videos: document.querySelectorAll('video').length,
      };
    });
    // React and the views come in their own chunk, after the media request.
    expect(timing.controlsStart).toBeGreaterThan(timing.mediaStart!);
    // The player plays the element the parser made; no second element.
    expect(timing.sameElement).toBe(true);
    expect(timing.videos).toBe(1);
    await waitCache(page, 'c.playerState === 1');
    // Adopted where the browser had started it: no jump back to 0; its autoplay is the player's from now on.
    expect(await frame.evaluate(() => (window as unknown as { __seeks: number }).__seeks)).toBe(0);
    expect(await frame.getAttribute('video.vf-video', 'autoplay')).toBeNull();
    // So a cued video stays cued: the element's autoplay does not start the new source.
    await page.evaluate(() => window.send('cueVideoById', [{ videoId: 'VFcitylight' }]));
    await waitCache(page, 'c.playerState === 5');
    await frame.waitForFunction(() => /VFcitylight/.test(document.querySelector('video')!.currentSrc) && document.querySelector('video')!.readyState >= 1);
    expect((await videoElement(frame)).paused).toBe(true);
    expect(await page.evaluate(() => (window.cache as { playerState?: number }).playerState)).toBe(5);
    await page.close();
  });

  it("a muted autoplay shows its first frame before the page's boot takes the main thread", async () => {
    // In the frame, before its scripts: when its first video frame is presented, and when the page's player comes to be.
    const RECORD_BOOT = `(() => {
      if (window === window.top) return;
      new MutationObserver((_, observer) => {
        const v = document.querySelector('video');
        if (!v) return;
        observer.disconnect();
        v.requestVideoFrameCallback(() => { window.__firstFrameAt = performance.now(); });
      }).observe(document, { childList: true, subtree: true });
      let player;
      Object.defineProperty(window, 'vidframePlayer', {
        configurable: true,
        get: () => player,
        set: (value) => {
          window.__bootAt = performance.now();
          window.__readyStateAtBoot = document.querySelector('video') ? document.querySelector('video').readyState : -1;
          player = value;
        },
      });
    })();`;
    type Probe = { __bootAt?: number; __firstFrameAt?: number; __readyStateAtBoot?: number };
    const page = await browser.newPage();
    await page.addInitScript(RECORD_BOOT);
    const embedUrl = `${server.origin}/embed/VFsunrise01?enablejsapi=1&origin=${encodeURIComponent(host.origin)}&autoplay=1&mute=1`;
    await page.goto(host.page(`/boot-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
    const frame = await frameWith(page, '/embed/');
    await frame.waitForFunction(() => (window as unknown as Probe).__bootAt !== undefined);
    const autoplay = await frame.evaluate(() => {
      const w = window as unknown as Probe;
      return { __bootAt: w.__bootAt, __firstFrameAt: w.__firstFrameAt, __readyStateAtBoot: w.__readyStateAtBoot };
    });
    // The first frame came before the player; or the element already had it when the page's script ran (readyState
    // 2 or more: the boot does not wait then, and the compositor presents it a frame or two later, off the main
    // thread); or (a machine so slow the frame took longer) the boot waited its longest, PLAYER_BOOT_FIRST_FRAME_WAIT_MS
    // after the frame's start at the least. Without the wait the boot comes as soon as the page's script has run,
    // before any of these.
    const firstFrameFirst = autoplay.__firstFrameAt !== undefined && autoplay.__firstFrameAt <= autoplay.__bootAt!;
    const frameReady = autoplay.__readyStateAtBoot! >= 2;
    expect({ ...autoplay, firstFrameFirst, frameReady, waitedLongest: autoplay.__bootAt! >= PLAYER_BOOT_FIRST_FRAME_WAIT_MS }).toEqual(
      expect.objectContaining(firstFrameFirst ? { firstFrameFirst: true } : frameReady ? { frameReady: true } : { waitedLongest: true }),
    );
    await page.close();
  });

  it('a video playing on its own that the host pauses shows its controls, with nobody reaching for it', async () => {
    const page = await openHost('autoplay=1&mute=1');
    await waitMessage(page, 'onReady');
    await waitCache(page, 'c.playerState === 1');
    const frame = await frameWith(page, '/embed/');
    await servicesStarted(frame);
    expect(await frame.locator('.vf-ui').evaluate((ui) => ui.childElementCount)).toBe(0);
    await page.evaluate(() => window.send('pauseVideo'));
    // Paused, it needs its play button and title: the controls come by themselves, shown.
    await frame.waitForSelector('.vf-player[data-state="2"][data-controls-visible="true"] .vf-chrome .vf-playpause[aria-label="Play (k)"]');
    expect(await frame.locator('.vf-titlebar').count()).toBe(1);
    await page.close();
  });

  it('without the controls chunk the video still plays, the host is served, and a click or a key on the player pauses it', async () => {
    const page = await openHost('autoplay=1&mute=1', { blockControls: true });
    await waitMessage(page, 'onReady');
    await waitCache(page, 'c.playerState === 1');
    const frame = await frameWith(page, '/embed/');
    // No controls ever came: the shell is as the server wrote it.
    expect(await frame.locator('.vf-ui').evaluate((ui) => ui.childElementCount)).toBe(0);
    await frame.click('video.vf-video');
    await waitCache(page, 'c.playerState === 2');
    expect((await videoElement(frame)).paused).toBe(true);
    // A host command still works too.
    await page.evaluate(() => window.send('playVideo'));
    await frame.waitForFunction(() => !document.querySelector('video')!.paused);
    // And the keyboard: on the focused player (a Tab into the frame lands there), k pauses and Space plays again.
    await frame.focus('.vf-player');
    await frame.press('.vf-player', 'k');
    await waitCache(page, 'c.playerState === 2');
    await frame.press('.vf-player', 'Space');
    await frame.waitForFunction(() => !document.querySelector('video')!.paused);
    expect(await frame.locator('.vf-ui').evaluate((ui) => ui.childElementCount)).toBe(0);
    await page.close();
  });

  it('a controls chunk that failed to load is asked for again by itself, not sooner than the retry delay, and the controls come', async () => {
    let served = false;
    const page = await openHost('autoplay=1&mute=1', { controlsWhen: () => served });
    // One attempt fetches the chunk once or twice: its module preload (sent with the chunk's stylesheet) and, when
    // that failed, the import itself.
    const controlsRequests: number[] = [];
    page.on('request', (r) => void (/\/assets\/ui-[^/]+\.js$/.test(new URL(r.url()).pathname) && controlsRequests.push(Date.now())));
    const failures: string[] = [];
    page.on('console', (m) => void (m.text().includes('the controls could not load') && failures.push(m.text())));
    await waitMessage(page, 'onReady');
    await waitCache(page, 'c.playerState === 1');
    const frame = await frameWith(page, '/embed/');
    await servicesStarted(frame);
    // The viewer reaches for it: the chunk fails (the page says so); the video plays on without controls, the player
    // still a tab stop.
    // A reach each time: a key on the player (Shift: no shortcut of the shell's).
    const reach = () => frame.press('.vf-player', 'Shift');
    const failure = page.waitForEvent('console', { predicate: (m) => m.text().includes('the controls could not load') });
    await reach();
    await failure;
    const failedAt = Date.now();
    const firstAttempt = controlsRequests.length;
    expect(firstAttempt).toBeGreaterThanOrEqual(1);
    expect(firstAttempt).toBeLessThanOrEqual(2);
    expect(await frame.locator('.vf-ui').evaluate((ui) => ui.childElementCount)).toBe(0);
    expect(await frame.getAttribute('.vf-player', 'tabindex')).toBe('0');
    // Another reach at once, within the retry delay: nothing is asked for (a request now would be refused and counted).
    await reach();
    // The chunk can be served again; with nobody reaching, the page asks for it once more after the delay, and the
    // controls come.
    served = true;
    await frame.waitForSelector('.vf-player[data-controls-visible]', { state: 'attached', timeout: 4 * CONTROLS_RETRY_AFTER_MS });
    const retried = controlsRequests.slice(firstAttempt);
    expect(retried.length).toBeGreaterThanOrEqual(1);
    expect(retried.length).toBeLessThanOrEqual(2);
    expect(retried[0]! - failedAt).toBeGreaterThanOrEqual(CONTROLS_RETRY_AFTER_MS - 100);
    expect(failures).toHaveLength(1);
    expect(await frame.getAttribute('.vf-player', 'tabindex')).toBe('-1');
    await page.close();
  });

  it('a cued video: the shell shows the poster at once; the big play button arrives with the controls and plays', async () => {
    const page = await openHost('autoplay=0');
    await waitMessage(page, 'onReady');
    const frame = await frameWith(page, '/embed/');
    expect(await frame.getAttribute('video.vf-video', 'preload')).toBe('metadata');
    expect(await frame.getAttribute('video.vf-video', 'poster')).toMatch(/VFsunrise01/);
    await frame.click('.vf-bigplay');
    await waitCache(page, 'c.playerState === 1');
    await page.close();
  });

  it('a seek asked before the media has its metadata is told to the host at once, and the video starts there', async () => {
    const { page, frame, release } = await openWithMediaHeld();
    await page.evaluate(() => window.send('seekTo', [5, true]));
    // The host's getCurrentTime (its cache) says where the video will be, while the element has no metadata yet.
    await waitCache(page, 'c.currentTime === 5');
    expect(await frame.evaluate(() => document.querySelector('video')!.readyState)).toBe(0);
    release();
    await frame.waitForFunction(() => document.querySelector('video')!.readyState >= 1);
    await frame.waitForFunction(() => Math.abs(document.querySelector('video')!.currentTime - 5) < 0.3);
    await waitCache(page, 'Math.abs(c.currentTime - 5) < 0.3 && c.duration > 0');
    expect((await videoElement(frame)).currentTime).toBeCloseTo(5, 0);
    await page.close();
  });

  it('before the metadata: a seek past the end shows the video length, and a cue of the video shows 0 again', async () => {
    const { page, frame, release } = await openWithMediaHeld();
    await page.evaluate(() => window.send('seekTo', [1000, true]));
    await waitCache(page, 'c.currentTime > 11 && c.currentTime <= c.duration');
    // A cue of the same video: its start, not the old target (the host wiped its cache when it sent the cue).
    await page.evaluate(() => window.send('cueVideoById', ['VFsunrise01']));
    await waitCache(page, 'c.currentTime === 0 && c.playerState === 5');
    expect(await frame.evaluate(() => document.querySelector('video')!.readyState)).toBe(0);
    release();
    await frame.waitForFunction(() => document.querySelector('video')!.readyState >= 1);
    expect((await videoElement(frame)).currentTime).toBe(0);
    await page.close();
  });

  it('a services chunk that failed to load is asked for again, later after each failure, and logging then delivers the session from its first event', async () => {
    const collector = collectorOf(server);
    await collector.clear(); // its events and error reports
    const page = await browser.newPage();
    // The first two requests for the services chunk fail (the network, a deploy in between); the next is served.
    const servicesRequests: number[] = [];
    await page.route(/\/assets\/services-[^/]*\.js$/, (route) => {
      servicesRequests.push(Date.now());
      return servicesRequests.length <= 2 ? route.abort('failed') : route.continue();
    });
    const failure = page.waitForEvent('console', { predicate: (m) => m.text().includes('the services could not load') });
    // Looping by itself, so that no end of the video brings the controls (which would ask for the services at once).
    const opened = openEmbed(browser, server, host, 'VFsunrise01', 'autoplay=1&mute=1&loop=1&playlist=VFsunrise01', { page });
    await failure;
    // The page asks again by itself: the delay after the first failure, twice that after the second; then logging
    // starts (openEmbed waits for it).
    const { frame, pageId } = await opened;
    expect(servicesRequests).toHaveLength(3);
    expect(servicesRequests[1] - servicesRequests[0]).toBeGreaterThanOrEqual(SERVICES_RETRY_AFTER_MS);
    expect(servicesRequests[2] - servicesRequests[1]).toBeGreaterThanOrEqual(2 * SERVICES_RETRY_AFTER_MS);
    // Nothing of the time before was lost: the session reaches the collector from its first event. The replayed events
    // may miss the first request (they go at their delayed-event tiers), and a later batch may wait up to
    // LOG_BATCH_MAX_QUEUE_WAIT_MS while the looping video keeps logging: the page's flush sends what it holds now.
    await frame.evaluate(() => window.vidframeTelemetry!.flush());
    const events = await until(
      () => collector.events(pageId),
      (e) => e.some((x) => x.name === 'playerStateChange' && x.event.playerStateChange?.state === 1),
      'the session up to playing at the collector',
    );
    // In the order they happened (their numbers follow the dispatch tiers: a navigation goes before what waits), the
    // first is the session's opening, from before the chunk was first asked for; no number is missing.
    const byTime = [...events].sort((x, y) => (x.event.eventTimeMs as number) - (y.event.eventTimeMs as number));
    expect(byTime[0].name).toBe('playerLoad');
    expect(byTime[0].event.eventTimeMs as number).toBeLessThan(servicesRequests[0]);
    expect(events.map((e) => e.name)).toEqual(expect.arrayContaining(['playerLoad', 'playerReady', 'playerStateChange']));
    expect(
      sequenceNumbers(
        events.map((e) => e.clientEventId),
        pageId,
      ),
    ).toEqual(oneTo(events.length));
    // The failures were reported once, not at each retry (a second report would have gone out at the second failure,
    // long before the session arrived).
    const servicesErrors = await until(
      async () => (await collector.errors<{ message: string }>()).filter((e) => e.message.startsWith('services: ') && e.message.includes('/assets/services-')),
      (errors) => errors.length > 0,
      'the failed services chunk reported',
    );
    expect(servicesErrors).toHaveLength(1);
    await page.close();
  });

  it('a services chunk waiting out its backoff is asked for at once when the controls come, and starts before them', async () => {
    const page = await browser.newPage();
    // The first request for the services chunk fails; the next would wait SERVICES_RETRY_AFTER_MS.
    const servicesRequests: number[] = [];
    await page.route(/\/assets\/services-[^/]*\.js$/, (route) => {
      servicesRequests.push(Date.now());
      return servicesRequests.length <= 1 ? route.abort('failed') : route.continue();
    });
    const failure = page.waitForEvent('console', { predicate: (m) => m.text().includes('the services could not load') });
    await page.goto(
      host.page(
        `/host-${Math.random().toString(36).slice(2)}.html`,
        framingPage(`${server.origin}/embed/VFsunrise01?autoplay=1&mute=1&loop=1&playlist=VFsunrise01`),
      ),
    );
    await failure;
    const failedAt = Date.now();
    const frame = await frameWith(page, '/embed/');
    // The viewer reaches for the player during the backoff: the controls come, and the services with them.
    await reachForPlayer(frame);
    await servicesStarted(frame);
    expect(servicesRequests).toHaveLength(2);
    expect(servicesRequests[1]! - failedAt).toBeLessThan(SERVICES_RETRY_AFTER_MS);
    // The controls mounted once the services' attempt was over, so the views found attestation started.
    expect(await frame.evaluate(() => window.vidframeAttestation !== undefined)).toBe(true);
    await page.close();
  });

  it('logging comes in its own chunk after ready, and still delivers the session from its first event, each at the time it happened', async () => {
    const collector = collectorOf(server);
    const { page, frame, pageId } = await openEmbed(browser, server, host, 'VFsunrise01', 'autoplay=1&mute=1');
    // When the page asked for the services chunk (logging, storage, retry), on the epoch clock.
    const servicesRequestedAt = await frame.evaluate(() => {
      const entry = performance.getEntriesByType('resource').find((e) => /\/assets\/services-[^/]+\.js$/.test(new URL(e.name).pathname));
      return entry ? performance.timeOrigin + entry.startTime : NaN;
    });
    expect(Number.isFinite(servicesRequestedAt)).toBe(true);
    const events = await until(
      () => collector.events(pageId),
      (e) => e.some((x) => x.name === 'playerStateChange' && x.event.playerStateChange?.state === 1),
      'the session up to playing at the collector',
    );
    const times = events.map((e) => e.event.eventTimeMs as number);
    // The session opens with playerLoad, logged before the logging's code was even asked for: recorded, then replayed
    // with its own time.
    expect(events[0].name).toBe('playerLoad');
    expect(times[0]).toBeLessThan(servicesRequestedAt);
    const before = events.filter((e) => (e.event.eventTimeMs as number) < servicesRequestedAt).map((e) => e.name);
    expect(before).toEqual(expect.arrayContaining(['playerLoad', 'playerStateChange']));
    await page.close();
  });
});
