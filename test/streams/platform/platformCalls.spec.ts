import { lastValueFrom, NEVER, type Observable, of, throwError } from 'rxjs';
import { createPlatformCalls, type FetchApi, type PlatformCallLog, type PlatformResult } from '../../../streams/platform/platformCalls';
import { decodeOpaque } from '../../../streams/platform/payloads';
import { ApiFetchError, ExtensionBlockingError, JsonParseError, requestTimedOut, unknownRequestError } from '../../../streams/transport/apiErrors';
import { buildClientContext } from '../../../streams/transport/buildClientContext';
import { createApiTransport, type FetchLike } from '../../../streams/transport/createApiTransport';
import type { ApiResponse } from '../../../streams/transport/parseApiResponse';
import { createTestScheduler } from '../../helpers/testScheduler';

/** The opaque encoding, computed here on its own (base64url of the JSON), so the encoders are checked too. */
const opaque = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

const ok = (body: unknown, status = 200): ApiResponse => ({ status, body, text: JSON.stringify(body) });

/** A fake `fetchApi` answering every call with `answer` and keeping what was sent. */
function fakeApi(answer: () => Observable<ApiResponse> = () => of(ok({ answered: true }))) {
  const sent: { endpoint: string; payload: Record<string, unknown> }[] = [];
  const fetchApi: FetchApi = (endpoint, payload) => {
    sent.push({ endpoint, payload });
    return answer();
  };
  const logged: Parameters<PlatformCallLog>[] = [];
  const log: PlatformCallLog = (...args) => logged.push(args);
  return { calls: createPlatformCalls({ fetchApi, log }), sent, logged };
}

describe('createPlatformCalls: the exact payload of each call of spec §7', () => {
  const cases: [string, (c: ReturnType<typeof createPlatformCalls>) => Observable<unknown>, string, Record<string, unknown>][] = [
    [
      'subscribe, one channel, with attestation and client feature',
      (c) =>
        c.subscribe({
          channelId: 'UCada',
          source: 'embed_channel_bar',
          videoId: 'VFsunrise01',
          botguardResponse: 'bg-token',
          clientFeature: 'embed_channel_bar',
        }),
      'subscription/subscribe',
      {
        channelIds: ['UCada'],
        siloName: 'embed',
        params: opaque({ source: 'embed_channel_bar', videoId: 'VFsunrise01' }),
        botguardResponse: 'bg-token',
        clientFeature: 'embed_channel_bar',
      },
    ],
    [
      'subscribe, several channels, nothing optional',
      (c) => c.subscribe({ channelIds: ['UCada', 'UCgrace'], source: 'end_screen' }),
      'subscription/subscribe',
      { channelIds: ['UCada', 'UCgrace'], siloName: 'embed', params: opaque({ source: 'end_screen' }) },
    ],
    [
      'unsubscribe',
      (c) => c.unsubscribe({ channelId: 'UCada', source: 'embed_channel_bar', videoId: 'VFsunrise01' }),
      'subscription/unsubscribe',
      { channelIds: ['UCada'], siloName: 'embed', params: opaque({ source: 'embed_channel_bar', videoId: 'VFsunrise01' }) },
    ],
    [
      'get_share_panel with a playlist and a start time',
      (c) => c.getSharePanel({ videoId: 'VFsunrise01', playlistId: 'PLwalks', startTimeSeconds: 42 }),
      'share/get_share_panel',
      { serializedSharedEntity: opaque({ videoId: 'VFsunrise01', playlistId: 'PLwalks' }), clientParams: { startTimeSeconds: 42 } },
    ],
    [
      'get_share_panel, the video alone',
      (c) => c.getSharePanel({ videoId: 'VFsunrise01' }),
      'share/get_share_panel',
      { serializedSharedEntity: opaque({ videoId: 'VFsunrise01' }), clientParams: {} },
    ],
    [
      'get_web_player_share_panel',
      (c) => c.getWebPlayerSharePanel({ videoId: 'VFsunrise01', playlistId: 'PLwalks', includeListId: false }),
      'share/get_web_player_share_panel',
      { serializedSharedEntity: opaque({ videoId: 'VFsunrise01', playlistId: 'PLwalks' }), includeListId: false },
    ],
    [
      'feedback, merged',
      (c) => c.sendFeedback({ tokens: ['t1', 't2'], cpn: 'cpn-123', shouldMerge: true }),
      'feedback',
      { feedbackTokens: ['t1', 't2'], feedbackContext: { cpn: 'cpn-123' }, isFeedbackTokenUnencrypted: false, shouldMerge: true },
    ],
    [
      'feedback, shouldMerge false by default',
      (c) => c.sendFeedback({ tokens: ['t1'], cpn: 'cpn-123' }),
      'feedback',
      { feedbackTokens: ['t1'], feedbackContext: { cpn: 'cpn-123' }, isFeedbackTokenUnencrypted: false, shouldMerge: false },
    ],
    [
      'modify_channel_preference',
      (c) => c.modifyChannelPreference({ channelId: 'UCada', level: 'all', source: 'embed_bell' }),
      'notification/modify_channel_preference',
      { params: opaque({ channelId: 'UCada', level: 'all' }), secondaryParams: opaque({ source: 'embed_bell' }) },
    ],
    [
      'edit_playlist, adds then removals',
      (c) => c.editPlaylist({ playlistId: 'PLwalks', add: ['v1', 'v2'], remove: 'v3', source: 'embed_menu', videoId: 'v1' }),
      'browse/edit_playlist',
      {
        actions: [
          { action: 'ACTION_ADD_VIDEO', addedVideoId: 'v1' },
          { action: 'ACTION_ADD_VIDEO', addedVideoId: 'v2' },
          { action: 'ACTION_REMOVE_VIDEO_BY_VIDEO_ID', removedVideoId: 'v3' },
        ],
        params: opaque({ source: 'embed_menu', videoId: 'v1' }),
        playlistId: 'PLwalks',
      },
    ],
    [
      'addToWatchLater',
      (c) => c.addToWatchLater('VFsunrise01', 'embed_watch_later'),
      'browse/edit_playlist',
      {
        actions: [{ action: 'ACTION_ADD_VIDEO', addedVideoId: 'VFsunrise01' }],
        params: opaque({ source: 'embed_watch_later', videoId: 'VFsunrise01' }),
        playlistId: 'WL',
      },
    ],
    [
      'removeFromWatchLater',
      (c) => c.removeFromWatchLater('VFsunrise01', 'embed_watch_later'),
      'browse/edit_playlist',
      {
        actions: [{ action: 'ACTION_REMOVE_VIDEO_BY_VIDEO_ID', removedVideoId: 'VFsunrise01' }],
        params: opaque({ source: 'embed_watch_later', videoId: 'VFsunrise01' }),
        playlistId: 'WL',
      },
    ],
    ['videoViewerState over next {videoId}', (c) => c.videoViewerState('VFsunrise01'), 'next', { videoId: 'VFsunrise01' }],
  ];

  it.each(cases)('%s', async (_name, callOf, endpoint, payload) => {
    const { calls, sent } = fakeApi();
    await lastValueFrom(callOf(calls));
    expect(sent).toHaveLength(1);
    expect(sent[0].endpoint).toBe(endpoint);
    expect(sent[0].payload).toEqual(payload);
    // No key the spec does not name, not even one set to undefined (JSON would drop it, toEqual would ignore it).
    expect(Object.keys(sent[0].payload).sort()).toEqual(Object.keys(payload).sort());
  });

  it('the opaque fields decode back to what was asked (as the reference server reads them)', async () => {
    const { calls, sent } = fakeApi();
    await lastValueFrom(calls.modifyChannelPreference({ channelId: 'UCgrace', level: 'none', source: 'bell' }));
    expect(decodeOpaque(sent[0].payload.params)).toEqual({ channelId: 'UCgrace', level: 'none' });
    expect(decodeOpaque(sent[0].payload.secondaryParams)).toEqual({ source: 'bell' });
  });

  it('is cold: nothing is sent before a subscription, one request per subscription', async () => {
    const { calls, sent } = fakeApi();
    const call$ = calls.videoViewerState('VFsunrise01');
    expect(sent).toHaveLength(0);
    await lastValueFrom(call$);
    await lastValueFrom(call$);
    expect(sent).toHaveLength(2);
  });

  it('through the real transport, the wire body is {context, …payload, session_token} at the root-relative URL', async () => {
    const bodies: { url: string; body: unknown }[] = [];
    const fetch: FetchLike = async (url, init) => {
      bodies.push({ url, body: JSON.parse(init.body as string) });
      return { status: 200, headers: { get: () => 'application/json' }, text: async () => '{"channelId":"UCada","subscribed":true}' };
    };
    const context = buildClientContext({ page: { hl: 'en', visitorData: 'VISITOR' } });
    const transport = createApiTransport({ fetch, settings: () => ({ context, xsrfToken: 'xsrf-1' }) });
    const logged: string[] = [];
    const calls = createPlatformCalls({ fetchApi: transport.fetchApi, log: (message) => logged.push(message) });
    const result = await lastValueFrom(calls.unsubscribe({ channelId: 'UCada', source: 's' }));
    expect(result).toEqual({ ok: true, status: 200, body: { channelId: 'UCada', subscribed: true } });
    expect(bodies).toEqual([
      {
        url: '/youtubei/v1/subscription/unsubscribe',
        body: { context, channelIds: ['UCada'], siloName: 'embed', params: opaque({ source: 's' }), session_token: 'xsrf-1' },
      },
    ]);
    expect(logged).toEqual([]);
  });
});

describe('createPlatformCalls: the response rules of spec §7/§8', () => {
  /** The real transport over a fake fetch answering `status` with `text` of `contentType`. */
  function overTransport(status: number, text: string, contentType = 'application/json; charset=UTF-8') {
    const fetch: FetchLike = async () => ({
      status,
      headers: { get: (n) => (n.toLowerCase() === 'content-type' ? contentType : null) },
      text: async () => text,
    });
    const context = buildClientContext({ page: { hl: 'en' } });
    const transport = createApiTransport({ fetch, settings: () => ({ context }) });
    const logged: Parameters<PlatformCallLog>[] = [];
    return { calls: createPlatformCalls({ fetchApi: transport.fetchApi, log: (...args) => logged.push(args) }), logged };
  }

  it('a success resolves { ok: true, status, body } and logs nothing', async () => {
    const answer = { playlistId: 'WL', videoIds: ['VFsunrise01'] };
    const { calls, logged } = fakeApi(() => of(ok(answer)));
    expect(await lastValueFrom(calls.addToWatchLater('VFsunrise01', 's'))).toEqual({ ok: true, status: 200, body: answer });
    expect(logged).toEqual([]);
  });

  it('500 with a JSON body: logs "Error: API fetch failed" and resolves with the body plus errorMetadata.status', async () => {
    const { calls, logged } = overTransport(500, `)]}'\n{"error":{"code":500,"message":"Internal error"}}`);
    const result = await lastValueFrom(calls.subscribe({ channelId: 'UCada', source: 's' }));
    expect(result).toEqual({
      ok: false,
      kind: 'http',
      status: 500,
      message: 'Error: API fetch failed',
      body: { error: { code: 500, message: 'Internal error' }, errorMetadata: { status: 500 } },
    });
    expect(logged).toEqual([['Error: API fetch failed', { endpoint: 'subscription/subscribe', status: 500, error: expect.any(ApiFetchError) }]]);
  });

  it('500 with a text body: the text is kept under body.text with the status attached', async () => {
    const { calls, logged } = overTransport(500, '<html>Bad gateway</html>', 'text/html');
    expect(await lastValueFrom(calls.getSharePanel({ videoId: 'VFsunrise01' }))).toEqual({
      ok: false,
      kind: 'http',
      status: 500,
      message: 'Error: API fetch failed',
      body: { text: '<html>Bad gateway</html>', errorMetadata: { status: 500 } },
    });
    expect(logged.map(([message]) => message)).toEqual(['Error: API fetch failed']);
  });

  it('401 (signed out meanwhile): an HTTP failure like any other, with the reason in the body', async () => {
    const { calls, logged } = overTransport(401, '{"error":{"code":401,"message":"The access token has expired"}}');
    const result = await lastValueFrom(calls.modifyChannelPreference({ channelId: 'UCada', level: 'all', source: 's' }));
    expect(result).toEqual({
      ok: false,
      kind: 'http',
      status: 401,
      message: 'Error: API fetch failed',
      body: { error: { code: 401, message: 'The access token has expired' }, errorMetadata: { status: 401 } },
    });
    expect(logged).toEqual([
      ['Error: API fetch failed', { endpoint: 'notification/modify_channel_preference', status: 401, error: expect.any(ApiFetchError) }],
    ]);
  });

  it('an error answer whose details hold a BrowseResponse resolves with that response (no failure, no log)', async () => {
    const browse = { '@type': 'type.googleapis.com/vidframe.BrowseResponse', playlistId: 'WL', videoIds: [] };
    const { calls, logged } = overTransport(409, JSON.stringify({ error: { code: 409, details: [browse] } }));
    expect(await lastValueFrom(calls.removeFromWatchLater('VFsunrise01', 's'))).toEqual({ ok: true, status: 409, body: { playlistId: 'WL', videoIds: [] } });
    expect(logged).toEqual([]);
  });

  it('a timeout resolves { kind: request, code: net.timeout, "Request timed out" } after 30 s, logged, never an error', () => {
    const fetch: FetchLike = () => new Promise(() => undefined);
    const logged: string[] = [];
    createTestScheduler().run(({ expectObservable }) => {
      const context = buildClientContext({ page: { hl: 'en' } });
      // The production timeout (API_REQUEST_TIMEOUT_MS = 30 s) on the test clock.
      const transport = createApiTransport({ fetch, settings: () => ({ context }) });
      const calls = createPlatformCalls({ fetchApi: transport.fetchApi, log: (message) => logged.push(message) });
      expectObservable(calls.sendFeedback({ tokens: ['t'], cpn: 'c' })).toBe('30000ms (f|)', {
        f: { ok: false, kind: 'request', code: 'net.timeout', message: 'Request timed out' },
      });
    });
    expect(logged).toEqual(['Request timed out']);
  });

  it.each<[string, unknown, PlatformResult<never>]>([
    ['offline', unknownRequestError(new TypeError('Failed to fetch')), { ok: false, kind: 'request', code: 'net.unknown', message: 'Unknown request error' }],
    [
      'an extension blocking',
      new ExtensionBlockingError(),
      { ok: false, kind: 'request', code: 'net.unknown', message: 'An extension is blocking network request.' },
    ],
    [
      'a success that does not parse',
      new JsonParseError(200, '{'),
      { ok: false, kind: 'request', code: 'json', status: 200, message: 'JSON parsing failed after fetch' },
    ],
    ['a timeout', requestTimedOut(), { ok: false, kind: 'request', code: 'net.timeout', message: 'Request timed out' }],
    [
      'a broken settings source (not a transport error)',
      new Error('settings exploded'),
      { ok: false, kind: 'request', code: 'net.unknown', message: 'Unknown request error' },
    ],
  ])('%s resolves as a failure with its spec §8 message, logged', async (_name, error, expected) => {
    const { calls, logged } = fakeApi(() => throwError(() => error));
    expect(await lastValueFrom(calls.videoViewerState('VFsunrise01'))).toEqual(expected);
    expect(logged).toEqual([[(expected as { message: string }).message, expect.objectContaining({ endpoint: 'next', error })]]);
  });

  it('a fetchApi that throws while building the request still resolves as a failure', async () => {
    const logged: string[] = [];
    const calls = createPlatformCalls({
      fetchApi: () => {
        throw new TypeError('Invalid API endpoint');
      },
      log: (message) => logged.push(message),
    });
    expect(await lastValueFrom(calls.editPlaylist({ playlistId: 'PL', add: 'v', source: 's' }))).toMatchObject({ ok: false, code: 'net.unknown' });
    expect(logged).toEqual(['Unknown request error']);
  });

  it('a success without a JSON object (204, text, an array) is a json failure: the caller never gets a body it did not ask for', async () => {
    for (const response of [{ status: 204, body: undefined, text: '' }, { status: 200, body: undefined, text: 'hello' }, ok([1, 2])]) {
      const { calls } = fakeApi(() => of(response));
      expect(await lastValueFrom(calls.getWebPlayerSharePanel({ videoId: 'v', includeListId: true }))).toEqual({
        ok: false,
        kind: 'request',
        code: 'json',
        status: response.status,
        message: 'JSON parsing failed after fetch',
      });
    }
  });

  it('a log reporter that throws does not turn a handled failure into an error', async () => {
    const calls = createPlatformCalls({
      fetchApi: () => throwError(() => new ApiFetchError(503, 'busy')),
      log: () => {
        throw new Error('console gone');
      },
    });
    expect(await lastValueFrom(calls.subscribe({ channelId: 'UC', source: 's' }))).toMatchObject({
      ok: false,
      kind: 'http',
      status: 503,
      body: { text: 'busy', errorMetadata: { status: 503 } },
    });
  });

  it('unsubscribing before the answer lets go of the request', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer = cold<ApiResponse>('-----a|', { a: ok({}) });
      const calls = createPlatformCalls({ fetchApi: () => answer, log: () => undefined });
      expectObservable(calls.videoViewerState('v'), '^--!').toBe('---');
      expectSubscriptions(answer.subscriptions).toBe('^--!');
    });
    // and a never-answering fetch leaves the result pending, not failed (the transport's timeout decides)
    const calls = createPlatformCalls({ fetchApi: () => NEVER, log: () => undefined });
    let settled = false;
    calls
      .videoViewerState('v')
      .subscribe(() => (settled = true))
      .unsubscribe();
    expect(settled).toBe(false);
  });
});
