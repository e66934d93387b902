import { readEndScreenSuggestions } from '../../../streams/player/endScreenSuggestions';
import { startPlatformApp, type PlatformTestApp, SAMPLES_CHANNEL, STUDIO_CHANNEL } from '../platform/platformTestApp';

/** `next {videoId}`: the end screen's suggestions (YouTube's `playerOverlays`), by channel when `rel=0` asks so. */
describe('POST /youtubei/v1/next {videoId}: end-screen suggestions', () => {
  let t: PlatformTestApp;
  beforeAll(async () => {
    t = await startPlatformApp();
  });
  afterAll(() => t.close());

  const suggestions = async (body: Record<string, unknown>, accessToken?: string) => {
    const r = await t.call('next', body, accessToken);
    expect(r.statusCode).toBe(200);
    return readEndScreenSuggestions(r.json(), String(body.videoId));
  };

  it('any channel by default: both channels, the channel of the video first, never the video itself', async () => {
    const all = await suggestions({ videoId: 'VFsunrise01' });
    const ids = all.map((s) => s.videoId);
    expect(ids).not.toContain('VFsunrise01');
    expect(ids).toContain('VFcitylight');
    expect(ids).toContain('VFoceanwave');
    expect(all[0].channelId).toBe(SAMPLES_CHANNEL);
    expect(all.map((s) => s.channelId)).toContain(STUDIO_CHANNEL);
    // Not embeddable, or without a length: nothing an embed can play.
    expect(ids).not.toContain('VFnoembed01');
    expect(ids).not.toContain('VFbrokenvid');
    expect(all.find((s) => s.videoId === 'VFoceanwave')).toEqual({
      videoId: 'VFoceanwave',
      title: 'Ocean wave',
      channel: 'VidFrame Studio',
      channelId: STUDIO_CHANNEL,
      length: '0:15',
      thumbnailUrl: expect.stringContaining('VFoceanwave/poster.jpg'),
    });
  });

  it('sameChannelOnly (rel=0): only the channel of the video', async () => {
    const same = await suggestions({ videoId: 'VFsunrise01', sameChannelOnly: true });
    expect(same.length).toBeGreaterThan(0);
    expect(new Set(same.map((s) => s.channelId))).toEqual(new Set([SAMPLES_CHANNEL]));
    const studio = await suggestions({ videoId: 'VFoceanwave', sameChannelOnly: true });
    expect(studio.map((s) => s.videoId)).not.toContain('VFoceanwave');
    expect(new Set(studio.map((s) => s.channelId))).toEqual(new Set([STUDIO_CHANNEL]));
  });

  it('never a video this viewer could not play: sign-in only for an anonymous viewer, blocked in the viewer’s region', async () => {
    const anonymous = (await suggestions({ videoId: 'VFsunrise01' })).map((s) => s.videoId);
    expect(anonymous).not.toContain('VFmembers01');
    expect(anonymous).toContain('VFregional1');
    const signedIn = (await suggestions({ videoId: 'VFsunrise01' }, await t.signIn('ada'))).map((s) => s.videoId);
    expect(signedIn).toContain('VFmembers01');
    const inGermany = await suggestions({ videoId: 'VFsunrise01', context: { client: { clientName: 'WEB_EMBEDDED_PLAYER', gl: 'de' } } });
    expect(inGermany.map((s) => s.videoId)).not.toContain('VFregional1');
    expect(inGermany.map((s) => s.videoId)).toContain('VFoceanwave');
  });
});
