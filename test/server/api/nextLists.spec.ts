import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startPlatformApp, type PlatformTestApp, SAMPLES_CHANNEL, STUDIO_CHANNEL } from '../platform/platformTestApp';

/** A channel's uploads in the sample catalogue: its videos, in catalogue order. */
const uploadsOf = (channelId: string): string[] =>
  (JSON.parse(readFileSync(resolve(__dirname, '../../../media/catalog.json'), 'utf8')) as { videos: { id: string; channelId: string }[] }).videos
    .filter((v) => v.channelId === channelId)
    .map((v) => v.id);

/** `next {listType, list}`: a channel's uploads and a title search, answered as a playlist is. */
describe('POST /youtubei/v1/next by listType', () => {
  let t: PlatformTestApp;
  beforeAll(async () => {
    t = await startPlatformApp();
  });
  afterAll(() => t.close());

  const videoIds = (r: Awaited<ReturnType<PlatformTestApp['call']>>) => (r.json().videos as { videoId: string }[]).map((v) => v.videoId);

  it("user_uploads: the channel's videos by channel id or author name, as the list UU…, which can be asked for again", async () => {
    const byId = await t.call('next', { listType: 'user_uploads', list: STUDIO_CHANNEL });
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toMatchObject({ playlistId: 'UUvidframeStudio00000000', title: 'Uploads from VidFrame Studio', responseContext: expect.any(Object) });
    expect(videoIds(byId)).toEqual(uploadsOf(STUDIO_CHANNEL));
    const byName = await t.call('next', { listType: 'user_uploads', list: 'vidframe samples' });
    expect(byName.json().playlistId).toBe('UUvidframeSamples0000000');
    expect(videoIds(byName)).toEqual(uploadsOf(SAMPLES_CHANNEL));
    const again = await t.call('next', { playlistId: 'UUvidframeSamples0000000' });
    expect(videoIds(again)).toEqual(uploadsOf(SAMPLES_CHANNEL));
  });

  it('search: the videos whose title has every word, with their titles, and no list id', async () => {
    const found = await t.call('next', { listType: 'search', list: 'City LIGHTS' });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ playlistId: null, title: 'City LIGHTS', videos: [{ videoId: 'VFcitylight', title: 'City lights' }] });
  });

  it('listType playlist is the same as playlistId', async () => {
    expect(videoIds(await t.call('next', { listType: 'playlist', list: 'PLvfDemoPlaylist01' }))).toEqual(['VFsunrise01', 'VFcitylight', 'VFoceanwave']);
  });

  it('404 when the list names no video: an unknown channel, a search with no match', async () => {
    for (const [body, message] of [
      [{ listType: 'user_uploads', list: 'UCnobodyUploadsHere00000' }, 'Channel not found.'],
      [{ listType: 'user_uploads', list: 'Nobody At All' }, 'Channel not found.'],
      [{ listType: 'search', list: 'zebra crossing' }, 'No video matches the search.'],
      [{ listType: 'search', list: '?!' }, 'No video matches the search.'],
      [{ playlistId: 'PLmy list, 16 char' }, 'Playlist not found.'],
    ] as const) {
      const r = await t.call('next', body);
      expect([body, r.statusCode, r.json().error.message]).toEqual([body, 404, message]);
    }
  });

  it('400 with a message for a malformed list or list type; the server answers on', async () => {
    for (const body of [
      { listType: 'search' },
      { listType: 'search', list: '' },
      { listType: 'search', list: '   ' },
      { listType: 'search', list: 'x'.repeat(201) },
      { listType: 'user_uploads', list: 42 },
      { listType: 'user_uploads', list: ['VidFrame Studio'] },
      { listType: 'favorites', list: 'VidFrame Studio' },
      { listType: null, list: 'city' },
      { listType: ['search'], list: 'city' },
      { playlistId: 'x'.repeat(201) },
      { playlistId: '' },
    ]) {
      const r = await t.call('next', body);
      expect([body, r.statusCode, typeof r.json().error.message]).toEqual([body, 400, 'string']);
    }
    expect((await t.call('next', { listType: 'search', list: 'x'.repeat(200) })).statusCode).toBe(404);
    expect((await t.call('next', { listType: 'search', list: 'lights' })).statusCode).toBe(200);
  });
});
