import { gzipSync } from 'node:zlib';
import { encodeEditPlaylistParams, PLATFORM_ENDPOINTS, WATCH_LATER_PLAYLIST_ID, type EditPlaylistAction } from '../../../streams/platform/payloads';
import { EDIT_PLAYLIST_ACTIONS_MAX, PLATFORM_BODY_MAX_BYTES } from '../../../server/platform/limits';
import { startPlatformApp, type PlatformTestApp } from './platformTestApp';

/** Watch later (spec §7 browse/edit_playlist): each account's own WL list, edited in order, bounded. */
describe('platform: browse/edit_playlist on watch later', () => {
  let t: PlatformTestApp;
  let ada: string;
  let grace: string;
  const params = encodeEditPlaylistParams({ source: 'embed_watch_later', videoId: 'VFsunrise01' });
  const add = (id: unknown): EditPlaylistAction => ({ action: 'ACTION_ADD_VIDEO', addedVideoId: id as string });
  const remove = (id: unknown): EditPlaylistAction => ({ action: 'ACTION_REMOVE_VIDEO_BY_VIDEO_ID', removedVideoId: id as string });
  const edit = (token: string | undefined, actions: unknown, over: Record<string, unknown> = {}) =>
    t.call(PLATFORM_ENDPOINTS.editPlaylist, { actions, params, playlistId: WATCH_LATER_PLAYLIST_ID, ...over }, token);
  const all = ['VFsunrise01', 'VFcitylight', 'VFoceanwave', 'VFbrokenvid', 'VFnoembed01'];
  const stored = () => t.rows<{ account_id: string; video_id: string }>('SELECT account_id, video_id FROM watch_later ORDER BY account_id, position');

  beforeAll(async () => {
    t = await startPlatformApp();
    ada = await t.signIn('ada');
    grace = await t.signIn('grace');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    for (const token of [ada, grace]) expect((await edit(token, all.map(remove))).json().videoIds).toEqual([]);
  });

  it('adds and removes in order, answers the list after the actions, and is per account', async () => {
    const first = await edit(ada, [add('VFoceanwave'), add('VFsunrise01'), add('VFcitylight'), remove('VFsunrise01')]);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ playlistId: 'WL', videoIds: ['VFoceanwave', 'VFcitylight'] });
    expect(first.json().responseContext).toBeDefined();
    // A re-add after a remove goes last.
    expect((await edit(ada, [add('VFsunrise01')])).json().videoIds).toEqual(['VFoceanwave', 'VFcitylight', 'VFsunrise01']);
    // Grace's watch later is hers.
    expect((await edit(grace, [add('VFnoembed01')])).json().videoIds).toEqual(['VFnoembed01']);
    expect(stored()).toEqual([
      { account_id: 'acc_demoAdaLovelace0000000', video_id: 'VFoceanwave' },
      { account_id: 'acc_demoAdaLovelace0000000', video_id: 'VFcitylight' },
      { account_id: 'acc_demoAdaLovelace0000000', video_id: 'VFsunrise01' },
      { account_id: 'acc_demoGraceHopper0000000', video_id: 'VFnoembed01' },
    ]);
  });

  it('a duplicate add and the remove of an absent video are no-ops (a retried request is harmless)', async () => {
    expect((await edit(ada, [add('VFcitylight'), add('VFcitylight')])).json().videoIds).toEqual(['VFcitylight']);
    expect((await edit(ada, [add('VFcitylight')])).json().videoIds).toEqual(['VFcitylight']);
    expect((await edit(ada, [remove('VFoceanwave')])).json().videoIds).toEqual(['VFcitylight']);
    expect(stored()).toHaveLength(1);
  });

  it('takes a gzip body, as the client sends 500 bytes and more', async () => {
    const body = { actions: all.map(add), params, playlistId: 'WL', session_token: t.antiForgeryToken(), padding: 'x'.repeat(600) };
    const zipped = await t.app.inject({
      method: 'POST',
      url: `/youtubei/v1/${PLATFORM_ENDPOINTS.editPlaylist}`,
      payload: gzipSync(JSON.stringify(body)),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: `Bearer ${ada}` },
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.json().videoIds).toEqual(all);
    const bomb = await t.app.inject({
      method: 'POST',
      url: `/youtubei/v1/${PLATFORM_ENDPOINTS.editPlaylist}`,
      payload: gzipSync(JSON.stringify({ ...body, padding: 'x'.repeat(1_000_000) })),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: `Bearer ${ada}` },
    });
    expect(bomb.statusCode).toBe(413);
  });

  it('is all or nothing: a bad action anywhere changes nothing', async () => {
    await edit(ada, [add('VFcitylight')]);
    const response = await edit(ada, [add('VFsunrise01'), remove('VFcitylight'), add('VFnothere01')]);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe('actions[2].addedVideoId: no video VFnothere01');
    expect(stored().map((r) => r.video_id)).toEqual(['VFcitylight']);
  });

  it.each([
    ['actions', undefined, 'actions must be a non-empty list'],
    ['actions', [], 'actions must be a non-empty list'],
    ['actions', { 0: add('VFsunrise01') }, 'actions must be a non-empty list'],
    ['actions[0]', [null], 'actions[0] must be an object'],
    [
      'actions[1].action',
      [add('VFsunrise01'), { action: 'ACTION_DELETE_ALL' }],
      'actions[1].action must be ACTION_ADD_VIDEO or ACTION_REMOVE_VIDEO_BY_VIDEO_ID',
    ],
    ['actions[0].addedVideoId', [add(42)], 'actions[0].addedVideoId must be a video id'],
    ['actions[0].removedVideoId', [remove('short')], 'actions[0].removedVideoId must be a video id'],
  ])('400 naming %s', async (_field, actions, message) => {
    const response = await edit(ada, actions);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(message);
  });

  it('validates params and playlistId: 400 malformed, 403 a catalogue playlist, 404 an unknown one', async () => {
    const noParams = await edit(ada, [add('VFsunrise01')], { params: 'x' });
    expect(noParams.statusCode).toBe(400);
    expect(noParams.json().error.message).toMatch(/^params must be an opaque string/);
    const noList = await edit(ada, [add('VFsunrise01')], { playlistId: { id: 'WL' } });
    expect(noList.statusCode).toBe(400);
    expect(noList.json().error.message).toMatch(/^playlistId must be a non-empty string/);
    const catalogue = await edit(ada, [add('VFsunrise01')], { playlistId: 'PLvfDemoPlaylist01' });
    expect(catalogue.statusCode).toBe(403);
    expect(catalogue.json().error.message).toBe('playlistId: PLvfDemoPlaylist01 is a catalogue playlist; only watch later (WL) is editable');
    const unknown = await edit(ada, [add('VFsunrise01')], { playlistId: 'PLsomeoneElses' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('playlistId: no playlist PLsomeoneElses (only watch later, WL, is editable)');
    const unknownRemove = await edit(ada, [remove('VFnothere01')]);
    expect(unknownRemove.statusCode).toBe(404);
    expect(unknownRemove.json().error.message).toBe('actions[0].removedVideoId: no video VFnothere01');
    expect(stored()).toEqual([]);
  });

  it(`bounds the actions per request (${EDIT_PLAYLIST_ACTIONS_MAX}, then 413) and the body size`, async () => {
    expect((await edit(ada, Array(EDIT_PLAYLIST_ACTIONS_MAX).fill(add('VFsunrise01')))).json().videoIds).toEqual(['VFsunrise01']);
    const tooMany = await edit(ada, Array(EDIT_PLAYLIST_ACTIONS_MAX + 1).fill(add('VFcitylight')));
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().error.message).toBe(`actions holds ${EDIT_PLAYLIST_ACTIONS_MAX + 1} actions; at most ${EDIT_PLAYLIST_ACTIONS_MAX} per request`);
    const huge = await edit(ada, Array(100_000).fill(add('VFcitylight')));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.message).toBe(`Request body is larger than ${PLATFORM_BODY_MAX_BYTES} bytes`);
    expect(stored().map((r) => r.video_id)).toEqual(['VFsunrise01']);
  });

  it('needs a signed-in account (401) and the anti-forgery field (403)', async () => {
    const anonymous = await edit(undefined, [add('VFsunrise01')]);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.message).toMatch(/^Sign in to edit your watch later/);
    expect((await edit(ada, [add('VFsunrise01')], { session_token: null })).statusCode).toBe(403);
    expect(stored()).toEqual([]);
  });
});
