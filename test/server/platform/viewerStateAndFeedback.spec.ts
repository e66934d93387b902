import { encodeSubscribeParams, PLATFORM_ENDPOINTS, type VideoViewerState } from '../../../streams/platform/payloads';
import { FEEDBACK_TOKENS_MAX } from '../../../server/platform/limits';
import { FEEDBACK_TOKEN_LIFETIME_MS } from '../../../server/tokens/limits';
import { GOOD_ATTESTATION, SAMPLES_CHANNEL, startPlatformApp, STUDIO_CHANNEL, T0, type PlatformTestApp } from './platformTestApp';

/** `next {videoId}` (the viewer state) and `feedback` with the tokens it hands out. */
describe('platform: next {videoId} and feedback', () => {
  let t: PlatformTestApp;
  let ada: string;
  let grace: string;
  const state = async (token?: string, videoId: unknown = 'VFsunrise01', headers: Record<string, string> = {}) => {
    const response = await t.call('next', { videoId }, token, headers);
    expect(response.statusCode).toBe(200);
    return response.json() as VideoViewerState & { responseContext: Record<string, unknown> };
  };
  const feedback = (token: string | undefined, over: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.call(
      PLATFORM_ENDPOINTS.feedback,
      { feedbackContext: { cpn: 'AbCdEfGh_-123456' }, isFeedbackTokenUnencrypted: false, shouldMerge: false, ...over },
      token,
      headers,
    );
  const rows = () =>
    t.rows<{ account_id: string | null; visitor_id: string | null; video_id: string; kind: string; reason: string | null; times: number; cpn: string }>(
      'SELECT account_id, visitor_id, video_id, kind, reason, times, cpn FROM feedback ORDER BY id',
    );

  beforeAll(async () => {
    t = await startPlatformApp();
    ada = await t.signIn('ada');
    grace = await t.signIn('grace');
  });
  afterAll(() => t.close());

  it('answers an anonymous viewer the channel and feedback tokens, without account state', async () => {
    const anonymous = await state(undefined);
    expect(anonymous).toMatchObject({ videoId: 'VFsunrise01', channel: { channelId: SAMPLES_CHANNEL, title: 'VidFrame Samples' } });
    expect(anonymous.channel).not.toHaveProperty('subscribed');
    expect(anonymous.channel).not.toHaveProperty('notificationLevel');
    expect(anonymous).not.toHaveProperty('inWatchLater');
    expect(anonymous.feedback.notInterested).toMatch(/^vffb1\./);
    expect(anonymous.feedback.report.map((r) => r.label)).toEqual([
      'Spam or misleading',
      'Violent or repulsive content',
      'Hateful or abusive content',
      'Infringes my rights',
    ]);
    expect(new Set(anonymous.feedback.report.map((r) => r.token)).size).toBe(4);
    expect(anonymous.responseContext.visitorData).toMatch(/^v1\./); // an anonymous viewer without one gets a visitor id
  });

  it('answers a signed-in viewer its subscription, bell and watch later, per account', async () => {
    expect(await state(ada, 'VFoceanwave')).toMatchObject({ channel: { channelId: STUDIO_CHANNEL, subscribed: false }, inWatchLater: false });
    const subscribed = await t.call(
      PLATFORM_ENDPOINTS.subscribe,
      { channelIds: [STUDIO_CHANNEL], siloName: 'embed', params: encodeSubscribeParams({ source: 'test' }), botguardResponse: GOOD_ATTESTATION },
      ada,
    );
    expect(subscribed.statusCode).toBe(200);
    const added = await t.call(
      PLATFORM_ENDPOINTS.editPlaylist,
      { actions: [{ action: 'ACTION_ADD_VIDEO', addedVideoId: 'VFoceanwave' }], params: encodeSubscribeParams({ source: 'test' }), playlistId: 'WL' },
      ada,
    );
    expect(added.statusCode).toBe(200);
    expect(await state(ada, 'VFoceanwave')).toMatchObject({
      channel: { channelId: STUDIO_CHANNEL, title: 'VidFrame Studio', subscribed: true, notificationLevel: 'personalized' },
      inWatchLater: true,
    });
    const graces = await state(grace, 'VFoceanwave');
    expect(graces).toMatchObject({ channel: { subscribed: false }, inWatchLater: false });
    expect(graces.channel.notificationLevel).toBeUndefined();
    // Another video of the same channel: subscribed, not in watch later.
    expect(await state(ada, 'VFnoembed01')).toMatchObject({ channel: { subscribed: true }, inWatchLater: false });
  });

  it('keeps next {playlistId}, and refuses a bad videoId (400) or an unknown one (404)', async () => {
    const playlist = await t.call('next', { playlistId: 'PLvfDemoPlaylist01' });
    expect(playlist.json()).toMatchObject({
      playlistId: 'PLvfDemoPlaylist01',
      videos: [{ videoId: 'VFsunrise01' }, { videoId: 'VFcitylight' }, { videoId: 'VFoceanwave' }],
    });
    for (const videoId of [null, 42, 'short', ['VFsunrise01']]) {
      const bad = await t.call('next', { videoId });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.message).toBe('videoId must be a video id (11 characters of [A-Za-z0-9_-])');
    }
    const unknown = await t.call('next', { videoId: 'VFnothere01' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('videoId: no video VFnothere01');
    expect((await t.call('next', {})).json().error.message).toBe('The request body must be a JSON object with a playlistId or a videoId.');
    expect((await t.call('next', { videoId: 'VFsunrise01', session_token: undefined })).statusCode).toBe(403);
  });

  it("records feedback under the account, or an anonymous viewer's visitor id; merges a repeated token only with shouldMerge", async () => {
    const before = rows().length;
    const { feedback: tokens } = await state(ada, 'VFcitylight');
    const spam = tokens.report[0].token;
    const first = await feedback(ada, { feedbackTokens: [tokens.notInterested, spam] });
    expect(first.statusCode).toBe(200);
    expect(first.json().feedbackResponses).toEqual([
      { token: tokens.notInterested, isProcessed: true },
      { token: spam, isProcessed: true },
    ]);
    expect((await feedback(ada, { feedbackTokens: [spam], shouldMerge: true, feedbackContext: { cpn: 'second_cpn_00000' } })).statusCode).toBe(200);
    expect(rows().slice(before)).toEqual([
      {
        account_id: 'acc_demoAdaLovelace0000000',
        visitor_id: null,
        video_id: 'VFcitylight',
        kind: 'not_interested',
        reason: null,
        times: 1,
        cpn: 'AbCdEfGh_-123456',
      },
      {
        account_id: 'acc_demoAdaLovelace0000000',
        visitor_id: null,
        video_id: 'VFcitylight',
        kind: 'report',
        reason: 'spam',
        times: 2,
        cpn: 'second_cpn_00000',
      },
    ]);
    // Without shouldMerge, the same token is a second record.
    expect((await feedback(ada, { feedbackTokens: [spam] })).statusCode).toBe(200);
    expect(rows().slice(before)).toHaveLength(3);

    const anonymous = await state(undefined, 'VFsunrise01');
    const visitor = String(anonymous.responseContext.visitorData);
    const rights = anonymous.feedback.report[3].token;
    expect((await feedback(undefined, { feedbackTokens: [rights], shouldMerge: true }, { 'x-goog-visitor-id': visitor })).statusCode).toBe(200);
    expect((await feedback(undefined, { feedbackTokens: [rights], shouldMerge: true }, { 'x-goog-visitor-id': visitor })).statusCode).toBe(200);
    const last = rows().at(-1)!;
    expect(last).toMatchObject({ account_id: null, video_id: 'VFsunrise01', kind: 'report', reason: 'rights', times: 2 });
    expect(last.visitor_id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
  });

  it('refuses a forged, altered or expired token (400 naming it) and records nothing of the request', async () => {
    const before = rows().length;
    const { feedback: tokens } = await state(ada);
    const [body, signature] = [
      tokens.notInterested.slice(0, tokens.notInterested.lastIndexOf('.')),
      tokens.notInterested.slice(tokens.notInterested.lastIndexOf('.') + 1),
    ];
    const claims = JSON.parse(Buffer.from(body.slice('vffb1.'.length), 'base64url').toString());
    const altered = `vffb1.${Buffer.from(JSON.stringify({ ...claims, v: 'VFoceanwave' })).toString('base64url')}.${signature}`;
    const forged = await feedback(ada, { feedbackTokens: [tokens.report[0].token, altered] });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.message).toBe('feedbackTokens[1] has a wrong signature (forged or from another server)');
    const junk = await feedback(ada, { feedbackTokens: ['made-up'] });
    expect(junk.json().error.message).toBe('feedbackTokens[0] is not a feedback token of this server');
    expect((await feedback(ada, { feedbackTokens: [{ token: 1 }] })).statusCode).toBe(400);
    t.clock.now = T0 + FEEDBACK_TOKEN_LIFETIME_MS + 1;
    const late = await feedback(undefined, { feedbackTokens: [tokens.notInterested] });
    t.clock.now = T0;
    expect(late.statusCode).toBe(400);
    expect(late.json().error.message).toBe('feedbackTokens[0] has expired; ask for the video again');
    expect(rows()).toHaveLength(before);
  });

  it.each([
    ['feedbackTokens', { feedbackTokens: [] }, 'feedbackTokens must be a non-empty list'],
    ['feedbackTokens', { feedbackTokens: 'x' }, 'feedbackTokens must be a non-empty list'],
    ['feedbackTokens', { feedbackTokens: Array(FEEDBACK_TOKENS_MAX + 1).fill('x') }, `at most ${FEEDBACK_TOKENS_MAX} feedback tokens`],
    ['feedbackContext', { feedbackContext: null }, 'feedbackContext must be an object'],
    ['feedbackContext.cpn', { feedbackContext: {} }, 'feedbackContext.cpn must be the client playback nonce'],
    ['feedbackContext.cpn', { feedbackContext: { cpn: 'short' } }, 'feedbackContext.cpn must be the client playback nonce'],
    ['feedbackContext.cpn', { feedbackContext: { cpn: 'sixteen chars!!!' } }, 'feedbackContext.cpn must be the client playback nonce'],
    ['isFeedbackTokenUnencrypted', { isFeedbackTokenUnencrypted: 'false' }, 'isFeedbackTokenUnencrypted must be true or false'],
    ['shouldMerge', { shouldMerge: null }, 'shouldMerge must be true or false'],
  ])('feedback: 400 naming %s', async (_field, over, message) => {
    const before = rows().length;
    const { feedback: tokens } = await state(undefined);
    const response = await feedback(undefined, { feedbackTokens: [tokens.notInterested], ...over });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(message);
    expect(rows()).toHaveLength(before);
  });

  it('feedback needs the anti-forgery field (403); a bad bearer token is a 401, not an anonymous record', async () => {
    const { feedback: tokens } = await state(undefined);
    expect((await feedback(undefined, { feedbackTokens: [tokens.notInterested], session_token: 'nope' })).statusCode).toBe(403);
    expect((await feedback('vfat1.not-a-token.x', { feedbackTokens: [tokens.notInterested] })).statusCode).toBe(401);
  });
});
