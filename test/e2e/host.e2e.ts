import type { Browser, Page } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { frameWith } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';
import { cache, events, rawHostPage, videoElement, waitCache, waitMessage } from './host.helpers';
import { HOST_GETTERS, hostApiInterface } from '../../streams/host/hostApiInterface';

/**
 * The host protocol end to end: a host page on another origin drives the real embed with a raw postMessage script of its own,
 * and reads every getter from the deliveries; a third origin and a flood of hostile messages are ignored.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

/** The third origin: the same host server reached by IP instead of `localhost`. */
const thirdOrigin = () => host.origin.replace('localhost', '127.0.0.1');

async function openHost(videoId: string, query: string, extra = ''): Promise<Page> {
  const page = await browser.newPage();
  const embedUrl = `${server.origin}/embed/${videoId}?${query}`;
  await page.goto(host.page(`/raw-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin, extra)));
  return page;
}
const jsapi = (extra = '') => `enablejsapi=1&origin=${encodeURIComponent(host.origin)}&widgetid=1${extra}`;

describe('host messaging with a raw postMessage host on another origin', () => {
  it('handshake: initialDelivery with apiInterface and every getter key, then onReady, with our id', async () => {
    const page = await openHost('VFsunrise01', jsapi('&autoplay=0'));
    await waitMessage(page, 'onReady');
    const received = await page.evaluate(() => window.received);
    const i = received.findIndex((m) => m.event === 'initialDelivery');
    expect(received[i + 1]).toMatchObject({ event: 'onReady', info: null, id: 1, channel: 'widget' });
    expect(received.slice(0, i).every((m) => m.event === 'readyToListen')).toBe(true);
    const info = received[i].info as Record<string, unknown>;
    expect(info.apiInterface).toEqual(hostApiInterface(false));
    for (const key of Object.values(HOST_GETTERS)) expect(info[key]).not.toBeUndefined();
    expect(info).toHaveProperty('currentTimeLastUpdated_');
    expect((info.videoData as { video_id: string }).video_id).toBe('VFsunrise01');
    // A repeated listening is answered with alreadyInitialized.
    await page.evaluate(() => window.rawPost(JSON.stringify({ event: 'listening', id: 1, channel: 'widget' })));
    await waitMessage(page, 'alreadyInitialized');
    await page.close();
  });

  it('drives every command and reads every getter value from the deliveries', async () => {
    const page = await openHost('VFsunrise01', jsapi('&autoplay=0'));
    await waitMessage(page, 'onReady');
    const frame = await frameWith(page, '/embed/');
    for (const e of ['onStateChange', 'onError', 'onPlaybackQualityChange', 'onPlaybackRateChange', 'onVolumeChange', 'onApiChange', 'onVideoProgress']) {
      await page.evaluate((name) => window.send('addEventListener', [name]), e);
    }
    await waitCache(page, 'c.playerState === 5');
    expect(await cache(page)).toMatchObject({ duration: expect.any(Number), playlistIndex: -1, muted: false });

    await page.evaluate(() => window.send('playVideo'));
    await waitCache(page, 'c.playerState === 1');
    await waitMessage(page, 'onStateChange', 1);
    await waitCache(page, 'c.currentTime > 0.3');
    await waitMessage(page, 'onVideoProgress');
    await page.evaluate(() => window.send('pauseVideo'));
    await waitCache(page, 'c.playerState === 2');
    await page.evaluate(() => window.send('seekTo', [5, true]));
    // While paused, time still arrives after the seek.
    await waitCache(page, 'Math.abs(c.currentTime - 5) < 0.5 && c.progressState && Math.abs(c.progressState.current - 5) < 0.5');
    expect((await videoElement(frame)).paused).toBe(true);

    await page.evaluate(() => window.send('setVolume', [30]));
    await waitCache(page, 'c.volume === 30 && c.muted === false');
    await waitMessage(page, 'onVolumeChange', { volume: 30, muted: false });
    await page.evaluate(() => window.send('mute'));
    await waitCache(page, 'c.muted === true && c.volume === 30');
    await page.evaluate(() => window.send('unMute'));
    await waitCache(page, 'c.muted === false');
    await page.evaluate(() => window.send('setPlaybackRate', [1.5]));
    await waitCache(page, 'c.playbackRate === 1.5');
    await waitMessage(page, 'onPlaybackRateChange', 1.5);
    expect((await videoElement(frame)).rate).toBe(1.5);
    await page.evaluate(() => window.send('setPlaybackQuality', ['small']));
    await page.evaluate(() => window.send('setSize', [320, 180]));
    await page.evaluate(() => window.send('setLoop', [true]));
    await page.evaluate(() => window.send('setShuffle', [false]));
    await page.evaluate(() => window.send('loadModule', ['captions']));
    await page.evaluate(() => window.send('setOption', ['captions', 'track', { languageCode: 'es' }]));
    await page.waitForFunction(() => window.apiInfo !== null && (window.apiInfo.namespaces as string[]).includes('captions'));
    await page.evaluate(() => window.send('unloadModule', ['captions']));
    await page.evaluate(() => window.send('stopVideo'));
    await page.evaluate(() => window.send('clearVideo'));

    // Loads: the host wiped its cache; the full snapshot refills every getter.
    await page.evaluate(() => window.send('cueVideoById', ['VFcitylight', 2]));
    await waitCache(page, "c.videoData && c.videoData.video_id === 'VFcitylight' && c.playerState === 5");
    const afterCue = await cache(page);
    for (const key of Object.values(HOST_GETTERS)) expect(afterCue[key]).not.toBeUndefined();
    await page.evaluate(() => window.send('loadVideoById', [{ videoId: 'VFoceanwave', startSeconds: 1 }]));
    await waitCache(page, "c.videoData && c.videoData.video_id === 'VFoceanwave' && c.playerState === 1");
    await page.evaluate(() => window.send('cueVideoByUrl', [`${location.origin}/v/VFsunrise01?version=3`]));
    await waitCache(page, "c.videoData && c.videoData.video_id === 'VFsunrise01' && c.playerState === 5");
    await page.evaluate(() => window.send('loadVideoByUrl', [{ mediaContentUrl: 'https://example.com/embed/VFcitylight' }]));
    await waitCache(page, "c.videoData && c.videoData.video_id === 'VFcitylight' && c.playerState === 1");

    await page.evaluate(() => window.send('cuePlaylist', [['VFsunrise01', 'VFcitylight', 'VFoceanwave'], 1]));
    await waitCache(page, 'Array.isArray(c.playlist) && c.playlist.length === 3 && c.playlistIndex === 1 && c.playerState === 5');
    // Index 1 is the video that was playing: cueing it stops it (it used to play on, and turn the state back to 1).
    await frame.waitForFunction(() => document.querySelector('video')!.paused);
    expect((await cache(page)).playerState).toBe(5);
    await page.evaluate(() => window.send('nextVideo'));
    await waitCache(page, 'c.playlistIndex === 2');
    await page.evaluate(() => window.send('previousVideo'));
    await waitCache(page, 'c.playlistIndex === 1');
    await page.evaluate(() => window.send('playVideoAt', [0]));
    await waitCache(page, "c.playlistIndex === 0 && c.videoData.video_id === 'VFsunrise01'");
    await page.evaluate(() => window.send('loadPlaylist', [{ list: 'PLvfDemoPlaylist01', listType: 'playlist', index: 2 }]));
    await waitCache(page, "c.playlistId === 'PLvfDemoPlaylist01' && c.playlistIndex === 2 && c.videoData.video_id === 'VFoceanwave'");

    // A malformed load: onError 2, nothing changes.
    await page.evaluate(() => window.send('loadVideoById', [42]));
    await waitMessage(page, 'onError', 2);

    // Every getter of apiInterface answers from the cache.
    const final = await cache(page);
    for (const [getter, key] of Object.entries(HOST_GETTERS)) expect([getter, final[key]]).not.toEqual([getter, undefined]);
    // State changes were always delivered before their onStateChange.
    const received = await page.evaluate(() => window.received);
    let state: unknown;
    for (const m of received) {
      if ((m.event === 'infoDelivery' || m.event === 'initialDelivery') && m.info && typeof m.info === 'object' && 'playerState' in m.info) {
        state = (m.info as { playerState: unknown }).playerState;
      }
      if (m.event === 'onStateChange') expect(m.info).toBe(state);
    }
    await page.close();
  });

  it('an unplayable video reports onError once the host subscribes, however late, and once', async () => {
    const page = await openHost('VFnoembed01', jsapi());
    await waitMessage(page, 'onReady');
    await waitCache(page, 'c.videoData && c.videoData.isPlayable === false');
    // As the widget script does: its listeners subscribe once the embed answered, a late one later still.
    await new Promise((r) => setTimeout(r, 300));
    expect(await events(page)).not.toContain('onError');
    await page.evaluate(() => window.send('addEventListener', ['onError']));
    await waitMessage(page, 'onError', 152);
    // Subscribed again, then a command whose answer comes after that subscription was handled: no second onError.
    await page.evaluate(() => window.send('addEventListener', ['onError']));
    await page.evaluate(() => window.send('setVolume', [37]));
    await waitCache(page, 'c.volume === 37');
    expect((await events(page)).filter((e) => e === 'onError')).toHaveLength(1);
    await page.close();
  });

  it('ignores commands from a page on a third origin framed in the same host', async () => {
    const attacker = host.page(
      '/attacker.html',
      `<!doctype html><script>
        var t = parent.frames[0];
        function hit() {
          ['{"event":"listening","id":5,"channel":"widget"}', '{"event":"command","func":"playVideo","args":[],"id":5}',
           '{"event":"command","func":"setVolume","args":[3],"id":5}', '{"event":"command","func":"mute","id":5}',
           '{"event":"command","func":"loadVideoById","args":["VFcitylight"],"id":5}']
            .forEach(function (m) { t.postMessage(m, '*'); });
          window.hits = (window.hits || 0) + 1;
        }
        window.got = [];
        window.addEventListener('message', function (e) { window.got.push(e.data); });
        setInterval(hit, 50);
      </script>`,
    );
    const third = thirdOrigin();
    const page = await openHost('VFsunrise01', jsapi('&autoplay=0'), `<iframe id="attacker" src="${third}/attacker.html"></iframe>`);
    expect(new URL(`${third}/attacker.html`).origin).not.toBe(host.origin);
    expect(attacker).toContain('/attacker.html');
    await waitMessage(page, 'onReady');
    const frame = await frameWith(page, '/embed/');
    const evil = page.frames().find((f) => f.url().includes('/attacker.html'))!;
    await evil.waitForFunction(() => (window as unknown as { hits: number }).hits >= 20);
    const v = await videoElement(frame);
    expect(v).toMatchObject({ paused: true, muted: false, volume: 1 });
    expect(await cache(page)).toMatchObject({ playerState: 5, volume: 100, muted: false, videoData: expect.objectContaining({ video_id: 'VFsunrise01' }) });
    expect(await evil.evaluate(() => (window as unknown as { got: unknown[] }).got)).toEqual([]);
    await page.close();
  });

  it('a fuzz of thousands of random and hostile messages: nothing throws, nothing is obeyed', async () => {
    const page = await openHost('VFsunrise01', jsapi('&autoplay=0'));
    await waitMessage(page, 'onReady');
    await page.evaluate(() => window.send('addEventListener', ['onError']));
    const frame = await frameWith(page, '/embed/');
    await frame.evaluate(() => {
      const w = window as unknown as { fuzzErrors: string[] };
      w.fuzzErrors = [];
      window.addEventListener('error', (e) => w.fuzzErrors.push(String(e.message)));
      window.addEventListener('unhandledrejection', (e) => w.fuzzErrors.push(String(e.reason)));
    });
    const before = await videoElement(frame);
    const sent = await page.evaluate(() => {
      let seed = 42;
      const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
      const junk = (): unknown =>
        pick<() => unknown>([
          () => null,
          () => rnd() * 1e6 - 5e5,
          () => NaN,
          () => 'x'.repeat(Math.floor(rnd() * 40)),
          () => ({}),
          () => [],
          () => ({ __proto__: { polluted: 1 } }),
          () => JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}'),
          () => [[['deep']]],
          () => true,
          () => '-1',
          () => 'NaN',
          () => '1e400',
        ])();
      const funcs = [
        'loadVideoById',
        'cueVideoById',
        'loadVideoByUrl',
        'cueVideoByUrl',
        'loadPlaylist',
        'cuePlaylist',
        'seekTo',
        'setVolume',
        'setPlaybackRate',
        'playVideoAt',
        'setLoop',
        'setShuffle',
        'setSize',
        'setPlaybackQuality',
        'setOption',
        'setCaptions',
        '__proto__',
        'constructor',
        'toString',
        'getPlayerState',
        'destroy',
        'eval',
        'hasOwnProperty',
        '',
      ];
      const badArgs = (f: string): unknown => {
        // Arguments no rule accepts: ids that are not ids, numbers that are not numbers.
        const bad = pick<unknown>([null, {}, [], 'not-an-id!', 'NaN', -5, { videoId: 7 }, { list: 3 }, [1, 2], 'abc']);
        if (f === 'setVolume' || f === 'seekTo' || f === 'setPlaybackRate' || f === 'playVideoAt') return [pick<unknown>([{}, 'loud', null, [], 'NaN'])];
        if (f === 'setLoop' || f === 'setShuffle') return [pick<unknown>(['maybe', {}, 7])];
        return pick<unknown>([[bad], [bad, junk()], bad, { 0: bad }]);
      };
      const messages: Array<() => unknown> = [
        () => junk(),
        () => 'not json {',
        () => JSON.stringify(junk()),
        () => JSON.stringify([1, 2, 3]),
        () => JSON.stringify({ event: pick(['hello', 'infoDelivery', 'onReady', '__proto__', 'initialDelivery']), info: junk() }),
        () => JSON.stringify({ event: 'command', func: junk() }),
        () => '{"event":"command","func":"playVideo","args":[],"pad":"' + 'y'.repeat(150_000) + '"}',
        () => '{"__proto__":{"polluted":1},"event":"command","func":"__proto__","args":{"__proto__":{"x":1}}}',
        () => {
          const f = pick(funcs);
          return JSON.stringify({ event: 'command', func: f, args: badArgs(f), id: junk() });
        },
      ];
      let n = 0;
      for (let i = 0; i < 3000; i++) {
        window.rawPost(pick(messages)());
        n++;
      }
      // Valid commands, but aimed with a wrong target origin: the browser never delivers them.
      for (let i = 0; i < 200; i++) window.rawPost(JSON.stringify({ event: 'command', func: 'playVideo', args: [] }), 'https://wrong.example');
      return n + 200;
    });
    expect(sent).toBe(3200);
    // The channel still works, and only now obeys: a fresh volume proves every earlier message was handled.
    await page.evaluate(() => window.send('setVolume', [55]));
    await waitCache(page, 'c.volume === 55');
    const after = await videoElement(frame);
    expect(after).toMatchObject({ paused: true, muted: before.muted, rate: before.rate });
    expect(await cache(page)).toMatchObject({ playerState: 5, muted: false, playbackRate: 1, videoData: expect.objectContaining({ video_id: 'VFsunrise01' }) });
    expect(await frame.evaluate(() => (window as unknown as { fuzzErrors: string[] }).fuzzErrors)).toEqual([]);
    expect(await frame.evaluate(() => (({}) as Record<string, unknown>).polluted)).toBeUndefined();
    expect(await page.evaluate(() => (({}) as Record<string, unknown>).polluted)).toBeUndefined();
    await page.close();
  });

  it('without enablejsapi=1 the embed never answers', async () => {
    const page = await openHost('VFsunrise01', `origin=${encodeURIComponent(host.origin)}&widgetid=1`);
    const frame = await frameWith(page, '/embed/');
    await frame.waitForSelector('[data-readiness="ready"]');
    // Eight more listening ticks (2 s of the host's own 250 ms interval) after the player is ready.
    const start = await page.evaluate(() => window.listenCount);
    await page.waitForFunction((n) => window.listenCount >= n + 8, start, { timeout: 15_000 });
    expect(await page.evaluate(() => window.received)).toEqual([]);
    await page.close();
  });

  it('an origin parameter without the port silences the channel (exact match)', async () => {
    const page = await openHost('VFsunrise01', `enablejsapi=1&origin=${encodeURIComponent(host.origin.replace(/:\d+$/, ''))}&widgetid=1`);
    const frame = await frameWith(page, '/embed/');
    await frame.waitForSelector('[data-readiness="ready"]');
    const start = await page.evaluate(() => window.listenCount);
    await page.waitForFunction((n) => window.listenCount >= n + 8, start, { timeout: 15_000 });
    // Only readyToListen (sent to the parent with "*" before any listening is accepted) may arrive.
    expect((await events(page)).filter((e) => e !== 'readyToListen')).toEqual([]);
    await page.close();
  });
});
