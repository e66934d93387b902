import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Browser, Page, Request } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import { rawHostPage, waitCache, waitMessage } from './host.helpers';

/**
 * The playlist load options of spec §3 beyond a list id, driven by a host page on another origin with a raw
 * postMessage script: `listType: 'user_uploads'` (a channel's uploads, named by its channel id or by its author's
 * name, as the IFrame API's docs name a user) and `listType: 'search'` (the catalogue videos whose title has every
 * word of the query), through the embed URL and through `loadPlaylist` / `cuePlaylist` in object syntax; the
 * `suggestedQuality` of a load by list id; and spec §5's rule that a playlist given as a string of exactly 16
 * characters, whatever they are, is the list `PL` + string. A list that names nothing gives the host `onError` 2 and
 * the player keeps answering.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

/** A channel's uploads: every catalogue video of that channel, in catalogue order. */
const uploadsOf = (channelId: string): string[] =>
  (JSON.parse(readFileSync(resolve(__dirname, '../../media/catalog.json'), 'utf8')) as { videos: { id: string; channelId: string }[] }).videos
    .filter((v) => v.channelId === channelId)
    .map((v) => v.id);
const SAMPLES_UPLOADS = uploadsOf('UCvidframeSamples0000000');
const STUDIO_UPLOADS = uploadsOf('UCvidframeStudio00000000');

async function openHost(path: string, query: string): Promise<Page> {
  const page = await browser.newPage();
  const embedUrl = `${server.origin}${path}?${query}${query ? '&' : ''}enablejsapi=1&origin=${encodeURIComponent(host.origin)}&widgetid=1`;
  await page.goto(host.page(`/lists-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
  await waitMessage(page, 'onReady');
  await page.evaluate(() => {
    for (const name of ['onStateChange', 'onError']) window.send('addEventListener', [name]);
  });
  return page;
}

/** The host's cache holds this playlist (ids, index, id) and the video at that index in this state. */
const playlistHeld = (page: Page, want: { playlist: string[]; index: number; id: string | null; state: number }) =>
  waitCache(
    page,
    'JSON.stringify(c.playlist) === JSON.stringify(arg.playlist) && c.playlistIndex === arg.index && c.playlistId === arg.id && ' +
      'c.videoData && c.videoData.video_id === arg.playlist[arg.index] && c.playerState === arg.state',
    want,
  );

const errorsSeen = (page: Page) => page.evaluate(() => window.received.filter((m) => m.event === 'onError').map((m) => m.info));

/** The JSON body of an API request of the embed (gzipped when it is long enough, spec §5). */
function bodyOf(request: Request): Record<string, unknown> {
  const raw = request.postDataBuffer() ?? Buffer.alloc(0);
  const text = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return JSON.parse(text) as Record<string, unknown>;
}

/** After a failed load the player still carries out commands: a cue of another video reaches state 5. */
async function stillAnswers(page: Page): Promise<void> {
  await page.evaluate(() => window.send('cueVideoById', ['VFoceanwave']));
  await waitCache(page, "c.videoData && c.videoData.video_id === 'VFoceanwave' && c.playerState === 5");
}

describe('playlists by channel and by search (listType user_uploads and search)', () => {
  it("embed URL listType=user_uploads&list=<channel id> cues the channel's uploads", async () => {
    const page = await openHost('/embed/videoseries', 'listType=user_uploads&list=UCvidframeStudio00000000');
    await playlistHeld(page, { playlist: STUDIO_UPLOADS, index: 0, id: 'UUvidframeStudio00000000', state: 5 });
    expect(await errorsSeen(page)).toEqual([]);
    await page.close();
  });

  it('embed URL listType=search&list=<query> plays the videos whose title has every word of the query', async () => {
    const page = await openHost('/embed/videoseries', 'listType=search&list=the%20PATTERN%20sunrise&autoplay=1&mute=1');
    await playlistHeld(page, { playlist: ['VFsunrise01'], index: 0, id: null, state: 1 });
    expect(await errorsSeen(page)).toEqual([]);
    await page.close();
  });

  it('cuePlaylist / loadPlaylist({listType, list, index, startSeconds, suggestedQuality}) by author name and by search', async () => {
    const page = await openHost('/embed/VFoceanwave', 'autoplay=0');
    await page.evaluate(() => window.send('cuePlaylist', [{ listType: 'user_uploads', list: 'VidFrame Samples', index: 1 }]));
    await playlistHeld(page, { playlist: SAMPLES_UPLOADS, index: 1, id: 'UUvidframeSamples0000000', state: 5 });

    await page.evaluate(() => window.send('loadPlaylist', [{ listType: 'search', list: 'lights', index: 0, startSeconds: 2, suggestedQuality: 'small' }]));
    await playlistHeld(page, { playlist: ['VFcitylight'], index: 0, id: null, state: 1 });
    await waitCache(page, "c.playbackQuality === 'small' && c.currentTime >= 2");
    expect(await errorsSeen(page)).toEqual([]);
    await page.close();
  });

  it('an unknown channel, a search with no match, an over-long query and an unknown list type give onError 2; the player keeps answering', async () => {
    const page = await openHost('/embed/VFsunrise01', 'autoplay=0');
    await waitCache(page, 'c.playerState === 5');
    await page.evaluate(() => window.send('loadPlaylist', [{ listType: 'user_uploads', list: 'UCnobodyUploadsHere00000' }]));
    await page.waitForFunction(() => window.received.filter((m) => m.event === 'onError').length === 1);
    await stillAnswers(page);
    await page.evaluate(() => window.send('cuePlaylist', [{ listType: 'search', list: 'zebra crossing' }]));
    await page.waitForFunction(() => window.received.filter((m) => m.event === 'onError').length === 2);
    await page.evaluate(() => window.send('cuePlaylist', [{ listType: 'search', list: 'x'.repeat(5000) }]));
    await page.waitForFunction(() => window.received.filter((m) => m.event === 'onError').length === 3);
    await page.evaluate(() => window.send('loadPlaylist', [{ listType: 'everything', list: 'VidFrame Samples' }]));
    await page.waitForFunction(() => window.received.filter((m) => m.event === 'onError').length === 4);
    expect(await errorsSeen(page)).toEqual([2, 2, 2, 2]);
    await page.evaluate(() => window.send('cuePlaylist', [{ listType: 'user_uploads', list: 'vidframe studio' }]));
    await playlistHeld(page, { playlist: STUDIO_UPLOADS, index: 0, id: 'UUvidframeStudio00000000', state: 5 });
    await page.close();
  });

  it('an embed URL naming an unknown channel reports onError 2 after onReady; the player keeps answering', async () => {
    const page = await openHost('/embed/videoseries', 'listType=user_uploads&list=Nobody%20At%20All');
    await waitMessage(page, 'onError', 2);
    await stillAnswers(page);
    await page.close();
  });
});

describe('playlist load options by list id', () => {
  it('loadPlaylist({list, index, suggestedQuality}) plays in the suggested quality, as the array form does', async () => {
    const page = await openHost('/embed/VFoceanwave', 'autoplay=0');
    await page.evaluate(() => window.send('loadPlaylist', [{ list: 'PLvfDemoPlaylist01', index: 1, suggestedQuality: 'small' }]));
    await playlistHeld(page, { playlist: ['VFsunrise01', 'VFcitylight', 'VFoceanwave'], index: 1, id: 'PLvfDemoPlaylist01', state: 1 });
    await waitCache(page, "c.playbackQuality === 'small'");
    await page.close();
  });

  it('a playlist given as a string of exactly 16 characters, any characters, is asked for as the list PL + string (spec §5)', async () => {
    const page = await openHost('/embed/VFsunrise01', 'autoplay=0');
    await waitCache(page, 'c.playerState === 5');
    const sixteen = 'my list, 16 char';
    expect(sixteen).toHaveLength(16);
    const asked = page.waitForRequest((r) => r.url().endsWith('/youtubei/v1/next') && bodyOf(r).playlistId === `PL${sixteen}`, { timeout: 15_000 });
    await page.evaluate((list) => window.send('cuePlaylist', [list, 0]), sixteen);
    await asked;
    // No such list: onError 2, once, and the player goes on.
    await waitMessage(page, 'onError', 2);
    await stillAnswers(page);
    expect(await errorsSeen(page)).toEqual([2]);
    await page.close();
  });
});
