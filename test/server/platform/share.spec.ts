import { encodeOpaque, encodeSharedEntity, PLATFORM_ENDPOINTS } from '../../../streams/platform/payloads';
import { startPlatformApp, type PlatformTestApp } from './platformTestApp';

/** The share panels (spec §7) and the `/watch` links they hand out. */
describe('platform: share panels and /watch', () => {
  let t: PlatformTestApp;
  let ada: string;
  const panel = (body: Record<string, unknown>, token?: string) => t.call(PLATFORM_ENDPOINTS.sharePanel, { clientParams: {}, ...body }, token);
  const webPanel = (body: Record<string, unknown>) => t.call(PLATFORM_ENDPOINTS.webPlayerSharePanel, { includeListId: true, ...body });

  beforeAll(async () => {
    t = await startPlatformApp();
    ada = await t.signIn('ada');
  });
  afterAll(() => t.close());

  it('answers root-relative links for a video, at a time, and in a playlist, anonymous or signed in', async () => {
    const plain = await panel({ serializedSharedEntity: encodeSharedEntity({ videoId: 'VFoceanwave' }) });
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toMatchObject({ title: 'Ocean wave', videoUrl: '/watch?v=VFoceanwave', embedUrl: '/embed/VFoceanwave' });
    expect(plain.json()).not.toHaveProperty('videoUrlAtTime');
    expect(plain.json()).not.toHaveProperty('playlistUrl');
    const timed = await panel(
      { serializedSharedEntity: encodeSharedEntity({ videoId: 'VFsunrise01', playlistId: 'PLvfDemoPlaylist01' }), clientParams: { startTimeSeconds: 7.9 } },
      ada,
    );
    expect(timed.statusCode).toBe(200);
    expect(timed.json()).toMatchObject({
      title: 'Sunrise over the test pattern',
      videoUrl: '/watch?v=VFsunrise01',
      videoUrlAtTime: '/watch?v=VFsunrise01&t=7s',
      playlistUrl: '/watch?v=VFsunrise01&list=PLvfDemoPlaylist01',
      embedUrl: '/embed/VFsunrise01?list=PLvfDemoPlaylist01',
    });
    expect(
      (await panel({ serializedSharedEntity: encodeSharedEntity({ videoId: 'VFsunrise01' }), clientParams: { startTimeSeconds: 0 } })).json(),
    ).not.toHaveProperty('videoUrlAtTime');
    // clientParams may be left out.
    expect((await panel({ serializedSharedEntity: encodeSharedEntity({ videoId: 'VFsunrise01' }), clientParams: undefined })).statusCode).toBe(200);
  });

  it('the web-player panel includes the playlist only with includeListId', async () => {
    const entity = encodeSharedEntity({ videoId: 'VFcitylight', playlistId: 'PLvfDemoPlaylist01' });
    expect((await webPanel({ serializedSharedEntity: entity })).json()).toMatchObject({
      playlistUrl: '/watch?v=VFcitylight&list=PLvfDemoPlaylist01',
      embedUrl: '/embed/VFcitylight?list=PLvfDemoPlaylist01',
    });
    const without = (await webPanel({ serializedSharedEntity: entity, includeListId: false })).json();
    expect(without).toMatchObject({ title: 'City lights', videoUrl: '/watch?v=VFcitylight', embedUrl: '/embed/VFcitylight' });
    expect(without).not.toHaveProperty('playlistUrl');
    const bad = await webPanel({ serializedSharedEntity: entity, includeListId: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('includeListId must be true or false');
  });

  it.each([
    ['serializedSharedEntity', { serializedSharedEntity: 'VFsunrise01' }, 400, 'serializedSharedEntity must be an opaque string'],
    ['serializedSharedEntity', { serializedSharedEntity: encodeOpaque(['VFsunrise01']) }, 400, 'serializedSharedEntity must be an opaque string'],
    ['serializedSharedEntity.videoId', { serializedSharedEntity: encodeOpaque({ videoId: 'x' }) }, 400, 'serializedSharedEntity.videoId must be a video id'],
    [
      'serializedSharedEntity.videoId',
      { serializedSharedEntity: encodeSharedEntity({ videoId: 'VFnothere01' }) },
      404,
      'serializedSharedEntity.videoId: no video VFnothere01',
    ],
    [
      'serializedSharedEntity.playlistId',
      { serializedSharedEntity: encodeOpaque({ videoId: 'VFsunrise01', playlistId: 5 }) },
      400,
      'serializedSharedEntity.playlistId must be a playlist id',
    ],
    [
      'serializedSharedEntity.playlistId',
      { serializedSharedEntity: encodeSharedEntity({ videoId: 'VFsunrise01', playlistId: 'PLnobodys' }) },
      404,
      'serializedSharedEntity.playlistId: no playlist PLnobodys',
    ],
    ['clientParams', { serializedSharedEntity: encodeSharedEntity({ videoId: 'VFsunrise01' }), clientParams: 3 }, 400, 'clientParams must be an object'],
    [
      'clientParams.startTimeSeconds',
      { serializedSharedEntity: encodeSharedEntity({ videoId: 'VFsunrise01' }), clientParams: { startTimeSeconds: -1 } },
      400,
      'clientParams.startTimeSeconds must be a number',
    ],
    [
      'clientParams.startTimeSeconds',
      { serializedSharedEntity: encodeSharedEntity({ videoId: 'VFsunrise01' }), clientParams: { startTimeSeconds: '5' } },
      400,
      'clientParams.startTimeSeconds must be a number',
    ],
  ])('get_share_panel: refuses a bad %s', async (_field, body, status, message) => {
    const response = await panel(body);
    expect(response.statusCode).toBe(status);
    expect(response.json().error.message).toContain(message);
  });

  it('share calls need the anti-forgery field (403)', async () => {
    expect((await panel({ serializedSharedEntity: encodeSharedEntity({ videoId: 'VFsunrise01' }), session_token: undefined })).statusCode).toBe(403);
    expect((await webPanel({ serializedSharedEntity: encodeSharedEntity({ videoId: 'VFsunrise01' }), session_token: 'x' })).statusCode).toBe(403);
  });

  it('GET /watch opens the embed page (302 with start and list), and refuses bad or unknown ids', async () => {
    const go = async (query: string) => t.app.inject({ url: `/watch${query}` });
    expect((await go('?v=VFsunrise01')).headers.location).toBe('/embed/VFsunrise01');
    const timed = await go('?v=VFsunrise01&t=7s&list=PLvfDemoPlaylist01');
    expect(timed.statusCode).toBe(302);
    expect(timed.headers.location).toBe('/embed/VFsunrise01?start=7&list=PLvfDemoPlaylist01');
    expect((await go('?v=VFsunrise01&t=12')).headers.location).toBe('/embed/VFsunrise01?start=12');
    expect((await go('?v=VFsunrise01&t=0s')).headers.location).toBe('/embed/VFsunrise01');
    for (const [query, status, message] of [
      ['', 400, 'v must be a video id'],
      ['?v=bad', 400, 'v must be a video id'],
      ['?v=VFsunrise01&v=VFcitylight', 400, 'v must be a video id'],
      ['?v=VFsunrise01&t=soon', 400, 't must be whole seconds'],
      ['?v=VFsunrise01&list=PL%20x', 400, 'list must be a playlist id'],
      ['?v=VFnothere01', 404, 'v: no video VFnothere01'],
      ['?v=VFsunrise01&list=PLnobodys', 404, 'list: no playlist PLnobodys'],
    ] as const) {
      const response = await go(query);
      expect([query, response.statusCode]).toEqual([query, status]);
      expect(response.json().error.message).toContain(message);
    }
  });
});
