import type { Browser, Page, Route } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import { rawHostPage, waitCache, waitMessage } from './host.helpers';

/**
 * The player call's answers as the page meets them behind proxies and failing servers, driven by a raw postMessage
 * host on another origin: the browser answers the page's `POST /youtubei/v1/player` in the server's place (Playwright
 * routing), and everything is observed at the host — its `onError` codes and its cache of the player's state.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

const jsapi = () => `enablejsapi=1&origin=${encodeURIComponent(host.origin)}&widgetid=1&autoplay=0`;
const PLAYER_CALL = /\/youtubei\/v1\/player(\?|$)/;

type Answer = (route: Route) => Promise<void>;

/**
 * A host page driving `/embed/VFsunrise01` (its first video comes inlined with the page: every player call is a
 * command's). The player calls go to the server unless an answer is queued with `answerNext`: each queued answer
 * replaces the next call's (bodies are compressed, so calls are told apart by their order).
 */
async function openHost(): Promise<{ page: Page; answerNext: (answer: Answer) => void }> {
  const page = await browser.newPage();
  const queued: Answer[] = [];
  await page.route(PLAYER_CALL, async (route) => {
    const answer = queued.shift();
    await (answer ? answer(route) : route.continue());
  });
  await page.goto(
    host.page(`/answers-${Math.random().toString(36).slice(2)}.html`, rawHostPage(`${server.origin}/embed/VFsunrise01?${jsapi()}`, server.origin)),
  );
  await waitMessage(page, 'onReady');
  for (const name of ['onError', 'onStateChange']) await page.evaluate((n) => window.send('addEventListener', [n]), name);
  await waitCache(page, 'c.playerState === 5');
  return { page, answerNext: (answer) => queued.push(answer) };
}

const errorsAtHost = (page: Page) => page.evaluate(() => window.received.filter((m) => m.event === 'onError').map((m) => m.info));

/** Waits until the host received its `n`th `onError`. */
const nthError = (page: Page, n: number) =>
  page.waitForFunction((count) => window.received.filter((m) => m.event === 'onError').length >= count, n, { timeout: 15_000 });

/** An error answer (spec §7) whose details carry `response` as a player response. */
const errorWithDetails = (status: number, response: Record<string, unknown>): Answer => {
  const body = {
    error: {
      code: status,
      message: 'The video is delivered with an error status.',
      status: status === 404 ? 'NOT_FOUND' : 'INTERNAL',
      details: [
        { '@type': 'type.googleapis.com/vidframe.ErrorInfo', reason: 'PLAYABILITY' },
        { '@type': 'type.googleapis.com/vidframe.PlayerResponse', ...response },
      ],
    },
  };
  return (route) => route.fulfill({ status, contentType: 'application/json; charset=UTF-8', body: JSON.stringify(body) });
};

describe('bad answers of the player call', () => {
  it('HTML, empty, unparseable or misshapen JSON, a 5xx, a network failure: each is onError 5 at the host, once, and the player carries out every later command', async () => {
    const { page, answerNext } = await openHost();
    const cases: [string, Answer][] = [
      [
        'a 200 with an HTML page from a proxy',
        (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Proxy</title><p>Sign in to the network.</p>' }),
      ],
      ['a 200 with an empty body', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: '' })],
      [
        'a 200 with JSON that does not parse',
        (r) => r.fulfill({ status: 200, contentType: 'application/json', body: '{"playabilityStatus": {"status": "OK", ' }),
      ],
      [
        'a 200 with JSON of the wrong shape',
        (r) => r.fulfill({ status: 200, contentType: 'application/json', body: '{"playabilityStatus": "OK", "streamingData": []}' }),
      ],
      ['a 503 with an HTML page', (r) => r.fulfill({ status: 503, contentType: 'text/html', body: '<!doctype html><title>Service unavailable</title>' })],
      ['a network failure', (r) => r.abort('failed')],
    ];
    let volume = 10;
    for (const [index, [label, answer]] of cases.entries()) {
      answerNext(answer);
      await page.evaluate(() => window.send('loadVideoById', ['VFcitylight']));
      await nthError(page, index + 1).catch(() => {
        throw new Error(`${label}: no onError at the host`);
      });
      expect([label, (await errorsAtHost(page))[index]]).toEqual([label, 5]);
      // The player answers what comes next: a volume change, then a good video that plays.
      volume += 10;
      await page.evaluate((v) => window.send('setVolume', [v]), volume);
      await waitCache(page, `c.volume === ${volume}`);
      const next = index % 2 === 0 ? 'VFoceanwave' : 'VFsunrise01';
      await page.evaluate((id) => window.send('loadVideoById', [id]), next);
      await waitCache(page, `c.videoData && c.videoData.video_id === '${next}' && c.playerState === 1 && c.currentTime > 0.2`);
      // Cued again before the next case, as a host does between videos.
      await page.evaluate(() => window.send('cueVideoById', ['VFsunrise01']));
      await waitCache(page, "c.videoData && c.videoData.video_id === 'VFsunrise01' && c.playerState === 5");
    }
    // One onError per failure, no more.
    expect(await errorsAtHost(page)).toEqual(cases.map(() => 5));
    await page.close();
  });
});

describe('an error answer carrying a player response in its details (spec §7: unwrapped for a player response)', () => {
  it('is that response: an unplayable one is its own error code at the host (152, not 5), a playable one plays', async () => {
    const { page, answerNext } = await openHost();
    // The owner does not allow embedding, said by a 404 whose details hold the player response.
    answerNext(
      errorWithDetails(404, {
        playabilityStatus: { status: 'UNPLAYABLE', errorCode: 'embedder.identity.denied', reason: 'The owner of this video does not allow it here.' },
        videoDetails: { videoId: 'VFcitylight', title: 'City light', author: 'VidFrame', lengthSeconds: 10 },
      }),
    );
    await page.evaluate(() => window.send('loadVideoById', ['VFcitylight']));
    await nthError(page, 1);
    expect(await errorsAtHost(page)).toEqual([152]);

    // The server's own answer for a playable video, delivered inside a 500's details: the video plays.
    answerNext(async (route) => {
      const real = await route.fetch();
      const response = (await real.json()) as Record<string, unknown>;
      expect(response).toMatchObject({ playabilityStatus: { status: 'OK' }, videoDetails: { videoId: 'VFoceanwave' } });
      await errorWithDetails(500, response)(route);
    });
    await page.evaluate(() => window.send('loadVideoById', ['VFoceanwave']));
    await waitCache(page, "c.videoData && c.videoData.video_id === 'VFoceanwave' && c.playerState === 1 && c.currentTime > 0.2");
    expect(await errorsAtHost(page)).toEqual([152]);
    await page.close();
  });
});
