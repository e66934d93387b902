import {
  encodeChannelPreferenceParams,
  encodeChannelPreferenceSecondaryParams,
  encodeSubscribeParams,
  EMBED_SUBSCRIBE_SILO,
  PLATFORM_ENDPOINTS,
} from '../../../streams/platform/payloads';
import { SUBSCRIBE_CHANNEL_IDS_MAX } from '../../../server/platform/limits';
import { GOOD_ATTESTATION, SAMPLES_CHANNEL, startPlatformApp, STUDIO_CHANNEL, type PlatformTestApp } from './platformTestApp';

/** Subscriptions and their bells (spec §7 subscribe, unsubscribe, modify_channel_preference), per account, in SQLite. */
describe('platform: subscribe, unsubscribe, channel preference', () => {
  let t: PlatformTestApp;
  let ada: string;
  let grace: string;
  const params = encodeSubscribeParams({ source: 'embed_channel_bar', videoId: 'VFsunrise01' });
  const subscribe = (token: string | undefined, over: Record<string, unknown> = {}) =>
    t.call(
      PLATFORM_ENDPOINTS.subscribe,
      {
        channelIds: [SAMPLES_CHANNEL],
        siloName: EMBED_SUBSCRIBE_SILO,
        params,
        botguardResponse: GOOD_ATTESTATION,
        clientFeature: 'embed_channel_bar',
        ...over,
      },
      token,
    );
  const unsubscribe = (token: string | undefined, over: Record<string, unknown> = {}) =>
    t.call(PLATFORM_ENDPOINTS.unsubscribe, { channelIds: [SAMPLES_CHANNEL], siloName: EMBED_SUBSCRIBE_SILO, params, ...over }, token);
  const bell = (token: string | undefined, level: unknown, channelId: unknown = SAMPLES_CHANNEL, over: Record<string, unknown> = {}) =>
    t.call(
      PLATFORM_ENDPOINTS.modifyChannelPreference,
      {
        params: encodeChannelPreferenceParams({ channelId, level } as never),
        secondaryParams: encodeChannelPreferenceSecondaryParams({ source: 'embed_bell' }),
        ...over,
      },
      token,
    );
  const subscriptions = () =>
    t.rows<{ account_id: string; channel_id: string; notification_level: string }>(
      'SELECT account_id, channel_id, notification_level FROM subscriptions ORDER BY account_id, channel_id',
    );

  beforeAll(async () => {
    t = await startPlatformApp();
    ada = await t.signIn('ada');
    grace = await t.signIn('grace');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    // Each test starts unsubscribed from both catalogue channels (unsubscribe is idempotent).
    for (const token of [ada, grace]) expect((await unsubscribe(token, { channelIds: [SAMPLES_CHANNEL, STUDIO_CHANNEL] })).statusCode).toBe(200);
  });

  it('subscribes a signed-in account at the personalized bell, idempotently, and unsubscribes it', async () => {
    const first = await subscribe(ada);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      channelId: SAMPLES_CHANNEL,
      subscribed: true,
      notificationLevel: 'personalized',
      channels: [{ channelId: SAMPLES_CHANNEL, subscribed: true, notificationLevel: 'personalized' }],
    });
    expect(first.json().responseContext.consistencyTokenJar.encryptedTokenJarContents).toMatch(/^v1\./);
    expect(subscriptions()).toEqual([{ account_id: 'acc_demoAdaLovelace0000000', channel_id: SAMPLES_CHANNEL, notification_level: 'personalized' }]);

    // Again, after changing the bell: still one row, and the bell is kept.
    expect((await bell(ada, 'all')).statusCode).toBe(200);
    const again = await subscribe(ada);
    expect(again.json()).toMatchObject({ subscribed: true, notificationLevel: 'all' });
    expect(subscriptions()).toHaveLength(1);

    const gone = await unsubscribe(ada);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toMatchObject({ channelId: SAMPLES_CHANNEL, subscribed: false });
    expect(gone.json().notificationLevel).toBeUndefined();
    expect((await unsubscribe(ada)).json()).toMatchObject({ subscribed: false });
    expect(subscriptions()).toEqual([]);
  });

  it("keeps each account's subscriptions its own", async () => {
    expect((await subscribe(ada)).statusCode).toBe(200);
    expect((await subscribe(grace, { channelIds: [STUDIO_CHANNEL] })).statusCode).toBe(200);
    expect(subscriptions().map((r) => [r.account_id, r.channel_id])).toEqual([
      ['acc_demoAdaLovelace0000000', SAMPLES_CHANNEL],
      ['acc_demoGraceHopper0000000', STUDIO_CHANNEL],
    ]);
    // Grace unsubscribing from Ada's channel changes nothing of Ada's.
    expect((await unsubscribe(grace)).json()).toMatchObject({ subscribed: false });
    expect(subscriptions()).toHaveLength(2);
  });

  it('subscribes to several channels at once and answers each (duplicates named once)', async () => {
    const both = await subscribe(ada, { channelIds: [STUDIO_CHANNEL, SAMPLES_CHANNEL, STUDIO_CHANNEL] });
    expect(both.statusCode).toBe(200);
    expect(both.json().channelId).toBe(STUDIO_CHANNEL);
    expect(both.json().channels.map((c: { channelId: string }) => c.channelId)).toEqual([STUDIO_CHANNEL, SAMPLES_CHANNEL]);
  });

  it("a delegated request (acting for a channel) changes the account's own subscriptions", async () => {
    const asGrace = await t.signIn('ada', 'UCgraceLectures000000000');
    const delegated = await subscribe(asGrace, { context: { user: { delegatedSessionId: 'UCgraceLectures000000000' } } });
    expect(delegated.statusCode).toBe(200);
    expect(subscriptions()).toEqual([{ account_id: 'acc_demoAdaLovelace0000000', channel_id: SAMPLES_CHANNEL, notification_level: 'personalized' }]);
  });

  it('refuses an anonymous viewer with a 401 that says to sign in, and writes nothing', async () => {
    for (const response of [await subscribe(undefined), await unsubscribe(undefined), await bell(undefined, 'all')]) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error.message).toMatch(/^Sign in to /);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
    expect((await t.call(PLATFORM_ENDPOINTS.subscribe, { channelIds: [SAMPLES_CHANNEL] }, 'vfat1.forged.token')).statusCode).toBe(401);
    expect(subscriptions()).toEqual([]);
  });

  it('refuses a request without the anti-forgery field, or a forged one, with a 403', async () => {
    expect((await subscribe(ada, { session_token: undefined })).statusCode).toBe(403);
    const forged = await unsubscribe(ada, { session_token: 'v1.forged' });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error.message).toMatch(/anti-forgery/);
    expect(subscriptions()).toEqual([]);
  });

  it('needs a valid attestation response to subscribe (403 with the reason), not to unsubscribe', async () => {
    const missing = await subscribe(ada, { botguardResponse: undefined });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().error.message).toMatch(/needs the attestation response \(botguardResponse\)/);
    const refused = await subscribe(ada, { botguardResponse: 'made-up' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('The attestation response (botguardResponse) was refused: the fake verifier does not know this response');
    expect((await subscribe(ada, { botguardResponse: { nested: ['object'] } })).statusCode).toBe(403);
    expect(subscriptions()).toEqual([]);
    expect((await subscribe(ada)).statusCode).toBe(200);
    expect((await unsubscribe(ada, { botguardResponse: undefined })).json()).toMatchObject({ subscribed: false });
  });

  it.each([
    ['channelIds', { channelIds: undefined }, 'channelIds must be a non-empty list'],
    ['channelIds', { channelIds: [] }, 'channelIds must be a non-empty list'],
    ['channelIds', { channelIds: SAMPLES_CHANNEL }, 'channelIds must be a non-empty list'],
    ['channelIds', { channelIds: Array(SUBSCRIBE_CHANNEL_IDS_MAX + 1).fill(SAMPLES_CHANNEL) }, `at most ${SUBSCRIBE_CHANNEL_IDS_MAX} channel ids`],
    ['channelIds[1]', { channelIds: [SAMPLES_CHANNEL, null] }, 'channelIds[1] must be a channel id'],
    ['channelIds[0]', { channelIds: ['UCshort'] }, 'channelIds[0] must be a channel id'],
    ['siloName', { siloName: 42 }, 'siloName must be a non-empty string'],
    ['siloName', { siloName: 'x'.repeat(201) }, 'siloName must be a non-empty string of at most 200 characters'],
    ['params', { params: 'not-base64-json' }, 'params must be an opaque string'],
    ['params', { params: null }, 'params must be an opaque string'],
    ['clientFeature', { clientFeature: ['x'] }, 'clientFeature must be a non-empty string'],
  ])('subscribe: 400 naming %s', async (_field, over, message) => {
    const response = await subscribe(ada, over);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(message);
    expect(subscriptions()).toEqual([]);
  });

  it('unsubscribe validates the same fields; an unknown channel is a 404 naming it', async () => {
    expect((await unsubscribe(ada, { siloName: undefined })).json().error.message).toMatch(/^siloName must be/);
    expect((await unsubscribe(ada, { params: '' })).json().error.message).toMatch(/^params must be/);
    const unknown = await subscribe(ada, { channelIds: [SAMPLES_CHANNEL, 'UCnobodyHere000000000000'] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('channelIds[1]: no channel UCnobodyHere000000000000');
    expect((await unsubscribe(ada, { channelIds: ['UCnobodyHere000000000000'] })).statusCode).toBe(404);
    // An account's own channel is not a catalogue channel.
    expect((await subscribe(grace, { channelIds: ['UCadaWorkshop00000000000'] })).statusCode).toBe(404);
    expect(subscriptions()).toEqual([]);
  });

  it('changes the bell of a subscribed channel, per account; not subscribed is a 409', async () => {
    const notYet = await bell(ada, 'all');
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().error.message).toBe(`Subscribe to channel ${SAMPLES_CHANNEL} before changing its notifications`);
    await subscribe(ada);
    await subscribe(grace);
    for (const level of ['all', 'none', 'personalized', 'none']) {
      const changed = await bell(ada, level);
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toMatchObject({ channelId: SAMPLES_CHANNEL, notificationLevel: level });
    }
    expect(subscriptions().map((r) => r.notification_level)).toEqual(['none', 'personalized']); // Ada's, Grace's
  });

  it.each([
    ['params', { params: 'nope' }, 'params must be an opaque string'],
    ['secondaryParams', { secondaryParams: 7 }, 'secondaryParams must be an opaque string'],
    [
      'params.level',
      { params: encodeChannelPreferenceParams({ channelId: SAMPLES_CHANNEL, level: 'loud' as never }) },
      'params.level must be one of all, personalized, none',
    ],
    ['params.channelId', { params: encodeChannelPreferenceParams({ channelId: 'UC1', level: 'all' }) }, 'params.channelId must be a channel id'],
  ])('modify_channel_preference: 400 naming %s', async (_field, over, message) => {
    await subscribe(ada);
    const response = await bell(ada, 'all', SAMPLES_CHANNEL, over);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(message);
    expect(subscriptions()[0].notification_level).toBe('personalized');
  });

  it('modify_channel_preference: an unknown channel is a 404', async () => {
    const response = await bell(ada, 'all', 'UCnobodyHere000000000000');
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe('params.channelId: no channel UCnobodyHere000000000000');
  });
});
