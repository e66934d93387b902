import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { HostServer, RunningServer } from './helpers/servers';
import { frameWith, launchBrowser } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';
import { damageFramesAfter } from './helpers/damagedMedia';
import { cache, events, rawHostPage, waitCache, waitMessage } from './host.helpers';

/**
 * Issue 17, items 8–12, end to end: what a raw postMessage host on another origin receives from the real embed, message
 * by message. Like the real IFrame-API clients, the host subscribes (`addEventListener`) only after `onReady`. Every
 * wait is on a message or a condition in a page; "nothing more came" is proven by a round trip (a command whose own
 * answer arrives after everything the embed had to say before it).
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;
let gestureBrowser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));
beforeAll(async () => {
  // The browser's own autoplay policy: unmuted autoplay in a cross-origin frame is refused.
  gestureBrowser = await launchBrowser({ autoplay: 'gesture' });
});
afterAll(() => gestureBrowser?.close());

async function openHost(videoId: string, query: string, on: Browser = browser, prepare?: (page: Page) => Promise<unknown>): Promise<Page> {
  const page = await on.newPage();
  await prepare?.(page);
  const embedUrl = `${server.origin}/embed/${videoId}?enablejsapi=1&origin=${encodeURIComponent(host.origin)}&widgetid=1&${query}`;
  await page.goto(host.page(`/delivery-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
  return page;
}
const subscribe = (page: Page, ...names: string[]) => page.evaluate((list) => list.forEach((n) => window.send('addEventListener', [n])), names);
/** A round trip: everything the embed posted before this command's answer has arrived once it has. */
async function roundTrip(page: Page, volume: number) {
  await page.evaluate((v) => window.send('setVolume', [v]), volume);
  await waitCache(page, 'c.volume === arg', volume);
}
const received = (page: Page) => page.evaluate(() => window.received);
const count = (list: string[], name: string) => list.filter((e) => e === name).length;

describe('events owed to a host that subscribes after onReady', () => {
  it('item 8: a decode error between onReady and addEventListener("onError") reaches the host at its subscription, once', async () => {
    // VFcitylight with the frames of its second half zeroed (structure kept): its metadata and first half play, then
    // the decoder fails (MediaError 3). The second half is held back until the host has its onReady, so the failure
    // comes after the handshake, every time.
    const file = readFileSync(resolve(__dirname, '../../media/videos/VFcitylight/medium.webm'));
    const cut = Math.floor(file.length * 0.5);
    const damaged = damageFramesAfter(file, cut);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const page = await openHost('VFcitylight', 'autoplay=1&mute=1', browser, (p) =>
      p.route('**/media/videos/VFcitylight/*.webm', async (route) => {
        const start = Number(/bytes=(\d+)-/.exec(route.request().headers()['range'] ?? '')?.[1] ?? 0);
        if (start >= cut) await released;
        const end = start < cut ? cut - 1 : damaged.length - 1;
        await route.fulfill({
          status: 206,
          headers: {
            'content-type': 'video/webm',
            'accept-ranges': 'bytes',
            'content-range': `bytes ${start}-${end}/${damaged.length}`,
            'content-length': String(end - start + 1),
          },
          body: damaged.subarray(start, end + 1),
        });
      }),
    );
    await waitMessage(page, 'onReady');
    release();
    const frame = await frameWith(page, '/embed/');
    // The embed has seen the failure (its error screen shows the mapped code) ...
    await frame.waitForSelector('.vf-error[data-error-code="5"]', { timeout: 20_000 });
    await roundTrip(page, 55);
    // ... and the host, not subscribed yet, has heard nothing of it: the race of real clients under load.
    expect(await events(page)).not.toContain('onError');

    await subscribe(page, 'onError');
    await waitMessage(page, 'onError', 5);
    await subscribe(page, 'onError');
    await roundTrip(page, 40);
    const all = await received(page);
    expect(
      count(
        all.map((m) => m.event),
        'onError',
      ),
    ).toBe(1);
    expect(all.find((m) => m.event === 'onError')).toMatchObject({ info: 5, id: 1, channel: 'widget' });
    await page.close();
  });

  it('item 9: a refused autoplay at load reaches a host that subscribes to onAutoplayBlocked after onReady, once; the state never claims 1', async () => {
    const page = await openHost('VFsunrise01', 'autoplay=1', gestureBrowser);
    await waitMessage(page, 'onReady');
    const frame = await frameWith(page, '/embed/');
    await subscribe(page, 'onAutoplayBlocked', 'onStateChange');
    await waitMessage(page, 'onAutoplayBlocked', null);
    await roundTrip(page, 50);
    const all = await received(page);
    const names = all.map((m) => m.event);
    expect(count(names, 'onAutoplayBlocked')).toBe(1);
    expect(names.indexOf('onAutoplayBlocked')).toBeGreaterThan(names.indexOf('onReady'));
    expect((await cache(page)).playerState).toBe(5);
    expect(all.filter((m) => m.event === 'onStateChange').map((m) => m.info)).not.toContain(1);
    expect(await frame.evaluate(() => document.querySelector('video')!.paused)).toBe(true);
    await page.close();
  });
});

describe('states and video data as the reference embed sends them', () => {
  it('item 10: the natural end goes from 1 straight to 0, in onStateChange and in infoDelivery', async () => {
    const page = await openHost('VFcitylight', 'autoplay=0');
    await waitMessage(page, 'onReady');
    await subscribe(page, 'onStateChange');
    await page.evaluate(() => window.send('playVideo'));
    await waitMessage(page, 'onStateChange', 1);
    await page.evaluate(() => window.send('seekTo', [8.5, true]));
    await waitMessage(page, 'onStateChange', 0);
    await roundTrip(page, 60);
    const all = await received(page);
    const changes = all.filter((m) => m.event === 'onStateChange').map((m) => m.info);
    expect(changes[changes.length - 1]).toBe(0);
    expect(changes[changes.length - 2]).toBe(1);
    const delivered = all
      .filter((m) => m.event === 'infoDelivery' && m.info && typeof m.info === 'object' && 'playerState' in m.info)
      .map((m) => (m.info as { playerState: number }).playerState);
    // Nobody paused: no 2 anywhere, and the last states the host's cache went through are 1 then 0.
    expect(changes).not.toContain(2);
    expect(delivered).not.toContain(2);
    expect(delivered.slice(-2)).toEqual([1, 0]);
    expect((await cache(page)).playerState).toBe(0);
    await page.close();
  });

  it("item 11: a load sends the new video's data once it is known, and onApiChange once per real change", async () => {
    const page = await openHost('VFsunrise01', 'autoplay=0');
    await waitMessage(page, 'onReady');
    await subscribe(page, 'onApiChange', 'onPlaybackQualityChange', 'onStateChange');
    await roundTrip(page, 70);
    const before = (await received(page)).length;

    // Sunrise has captions, City lights has none: two real changes of the captions module, one each way.
    await page.evaluate(() => window.send('cueVideoById', ['VFcitylight']));
    await waitCache(page, "c.videoData && c.videoData.video_id === 'VFcitylight' && c.playerState === 5");
    await page.evaluate(() => window.send('loadVideoById', ['VFsunrise01']));
    await waitCache(page, "c.videoData && c.videoData.video_id === 'VFsunrise01' && c.playerState === 1");
    await page.evaluate(() => window.send('cueVideoById', ['VFsunrise01']));
    await waitCache(page, "c.videoData && c.videoData.video_id === 'VFsunrise01' && c.playerState === 5");
    await roundTrip(page, 71);

    const after = (await received(page)).slice(before);
    const deliveries = after.filter((m) => m.event === 'infoDelivery').map((m) => m.info as Record<string, unknown>);
    const withData = deliveries.filter((d) => 'videoData' in d);
    // One full snapshot per load, each with the new video's real data.
    expect(withData.map((d) => (d.videoData as { video_id: string }).video_id)).toEqual(['VFcitylight', 'VFsunrise01', 'VFsunrise01']);
    for (const d of withData) {
      expect(d.videoData).toMatchObject({ title: expect.stringMatching(/\S/), isPlayable: true, errorCode: null });
      expect(d.playbackQuality).toBe('medium');
      expect((d.availableQualityLevels as string[]).length).toBeGreaterThan(0);
    }
    expect(deliveries.filter((d) => d.playbackQuality === 'unknown')).toEqual([]);
    const names = after.map((m) => m.event);
    expect(after.filter((m) => m.event === 'onPlaybackQualityChange').map((m) => m.info)).not.toContain('unknown');
    expect(count(names, 'onApiChange')).toBe(2);
    expect(after.filter((m) => m.event === 'apiInfoDelivery').map((m) => (m.info as { namespaces: string[] }).namespaces)).toEqual([[], ['captions']]);
    await page.close();
  });

  it('item 12: an unknown video id is error 5 (spec §8), at load and on loadVideoById', async () => {
    const page = await openHost('VFunknown00', 'autoplay=0');
    await waitMessage(page, 'onReady');
    await subscribe(page, 'onError');
    await waitMessage(page, 'onError', 5);
    await page.evaluate(() => window.send('loadVideoById', ['VFsunrise01']));
    await waitCache(page, "c.videoData && c.videoData.video_id === 'VFsunrise01'");
    await page.evaluate(() => window.send('loadVideoById', ['VFunknown01']));
    await waitCache(page, "c.videoData && c.videoData.video_id === 'VFunknown01'");
    await roundTrip(page, 30);
    const errors = (await received(page)).filter((m) => m.event === 'onError').map((m) => m.info);
    expect(errors).toEqual([5, 5]);
    await page.close();
  });
});
