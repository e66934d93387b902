import { gunzipSync } from 'node:zlib';
import { asyncScheduler, firstValueFrom, lastValueFrom, type SchedulerLike } from 'rxjs';
import { ApiFetchError, ExtensionBlockingError, KeepaliveBudgetError, RequestError } from '../../../streams/transport/apiErrors';
import { buildApiRequest, STREAM_TOKEN_HEADER } from '../../../streams/transport/buildApiRequest';
import { buildClientContext } from '../../../streams/transport/buildClientContext';
import { createApiTransport, type FetchInitLike, type FetchLike } from '../../../streams/transport/createApiTransport';
import { createTestScheduler } from '../../helpers/testScheduler';

const context = buildClientContext({ timeZone: 'Europe/Paris', utcOffsetMinutes: 120, page: { hl: 'fr', gl: 'FR', visitorData: 'VISITOR' } });

const response = (status: number, body = '', contentType: string | null = 'application/json') => ({
  status,
  headers: { get: (name: string) => (name.toLowerCase() === 'content-type' ? contentType : null) },
  text: async () => body,
});

/** A fake fetch answering from a list (last answer repeats) and recording every call. */
function fakeFetch(...answers: (ReturnType<typeof response> | Error)[]) {
  const calls: { url: string; init: FetchInitLike }[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { fetch, calls };
}

const bigPayload = { events: Array.from({ length: 20 }, (_, i) => ({ eventTimeMs: i, clientEventId: `p:${i}`, x: 'y'.repeat(30) })) };
const smallPayload = { events: [] };
const settings = () => ({ context, apiKey: 'KEY' });
const gunzipText = (body: FetchInitLike['body']) => gunzipSync(body as Uint8Array).toString('utf8');

describe('createApiTransport', () => {
  it('sends a small body uncompressed, a 500–500000-byte body gzipped with Content-Encoding: gzip', async () => {
    const { fetch, calls } = fakeFetch(response(200, '{"responseContext":{}}'));
    const transport = createApiTransport({ fetch, settings });
    const small = transport.buildRequest('log_event', smallPayload);
    const big = transport.buildRequest('log_event', bigPayload);
    expect(big.options.body.length).toBeGreaterThanOrEqual(500);
    await expect(lastValueFrom(transport.send(small))).resolves.toEqual({ status: 200, body: { responseContext: {} }, text: '{"responseContext":{}}' });
    await lastValueFrom(transport.send(big));
    expect(calls[0].init.body).toBe(small.options.body);
    expect(calls[0].init.headers['Content-Encoding']).toBeUndefined();
    expect(calls[1].init.headers['Content-Encoding']).toBe('gzip');
    expect(gunzipText(calls[1].init.body)).toBe(big.options.body);
    // The stored form of the request is never changed by compression.
    expect(big.options.headers['Content-Encoding']).toBeUndefined();
  });

  it('415 on a compressed log request: resends uncompressed once and stops compressing for the page', async () => {
    const { fetch, calls } = fakeFetch(response(415, '{"error":{"code":415}}'), response(200, '{}'));
    const transport = createApiTransport({ fetch, settings });
    const request = transport.buildRequest('log_event', bigPayload);
    await expect(lastValueFrom(transport.send(request))).resolves.toMatchObject({ status: 200 });
    expect(calls).toHaveLength(2);
    expect(calls[0].init.headers['Content-Encoding']).toBe('gzip');
    expect(calls[1].init.headers['Content-Encoding']).toBeUndefined();
    expect(calls[1].init.body).toBe(request.options.body);
    expect(transport.compressionDisabled).toBe(true);
    await lastValueFrom(transport.send(request));
    expect(calls[2].init.headers['Content-Encoding']).toBeUndefined();
  });

  it('400 on a compressed log request does the same; the uncompressed retry failing is an ordinary error', async () => {
    const { fetch, calls } = fakeFetch(response(400), response(500, '{"error":{"code":500}}'));
    const transport = createApiTransport({ fetch, settings });
    const error = await lastValueFrom(transport.send(transport.buildRequest('video_stats', bigPayload))).catch((e) => e);
    expect(calls).toHaveLength(2);
    expect(error).toBeInstanceOf(ApiFetchError);
    expect(error).toMatchObject({ message: 'API fetch failed', status: 500, body: { error: { code: 500 } }, compressionFailed: false });
  });

  it('400 on a compressed non-log request is just an error (no resend)', async () => {
    const { fetch, calls } = fakeFetch(response(400, '{"error":{}}'));
    const transport = createApiTransport({ fetch, settings });
    const error = await lastValueFrom(transport.send(transport.buildRequest('feedback', bigPayload))).catch((e) => e);
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ status: 400, compressionFailed: false });
    expect(transport.compressionDisabled).toBe(false);
  });

  it('sends uncompressed when compression itself fails', async () => {
    const { fetch, calls } = fakeFetch(response(200));
    const transport = createApiTransport({ fetch, settings, compress: () => Promise.reject(new Error('no')) });
    const request = transport.buildRequest('log_event', bigPayload);
    await lastValueFrom(transport.send(request));
    expect(calls[0].init.body).toBe(request.options.body);
    expect(calls[0].init.headers['Content-Encoding']).toBeUndefined();
  });

  it('"Failed to fetch" while online → "An extension is blocking network request." (net.unknown)', async () => {
    const { fetch } = fakeFetch(new TypeError('Failed to fetch'));
    const transport = createApiTransport({ fetch, settings, isOnline: () => true });
    const error = await lastValueFrom(transport.fetchApi('log_event', smallPayload)).catch((e) => e);
    expect(error).toBeInstanceOf(ExtensionBlockingError);
    expect(error).toMatchObject({ code: 'net.unknown', message: 'An extension is blocking network request.' });
  });

  it('a network error while offline (or any other rejection) → net.unknown "Unknown request error"', async () => {
    const offline = createApiTransport({ fetch: fakeFetch(new TypeError('Failed to fetch')).fetch, settings, isOnline: () => false });
    const other = createApiTransport({ fetch: fakeFetch(new Error('boom')).fetch, settings });
    for (const transport of [offline, other]) {
      const error = await lastValueFrom(transport.fetchApi('log_event', smallPayload)).catch((e) => e);
      expect(error).toBeInstanceOf(RequestError);
      expect(error).not.toBeInstanceOf(ExtensionBlockingError);
      expect(error).toMatchObject({ code: 'net.unknown', message: 'Unknown request error' });
    }
  });

  it('an invalid endpoint is an error, not a host-built URL', async () => {
    const { fetch, calls } = fakeFetch(response(200));
    const transport = createApiTransport({ fetch, settings });
    await expect(lastValueFrom(transport.fetchApi('//evil.example/x', {}))).rejects.toThrow('Invalid API endpoint');
    expect(calls).toHaveLength(0);
  });

  it('times out with net.timeout "Request timed out" and aborts the fetch', () => {
    let signal: AbortSignal | undefined;
    const fetch: FetchLike = (_url, init) => {
      signal = init.signal;
      return new Promise(() => undefined);
    };
    createTestScheduler().run(({ expectObservable }) => {
      const transport = createApiTransport({ fetch, settings, timeoutMs: 5_000 });
      // No answer: the error comes exactly 5000 ms after the send.
      expectObservable(transport.send(transport.buildRequest('log_event', smallPayload))).toBe(
        '5000ms #',
        undefined,
        expect.objectContaining({ code: 'net.timeout', message: 'Request timed out' }),
      );
    });
    expect(signal?.aborted).toBe(true);
  });

  describe('Retry-After (issue 12)', () => {
    const limited = (status: number, retryAfter: string) => ({
      status,
      headers: { get: (name: string) => ({ 'content-type': 'application/json', 'retry-after': retryAfter })[name.toLowerCase()] ?? null },
      text: async () => '{"error":{"code":429,"message":"Rate limit exceeded"}}',
    });

    it('a 429 with Retry-After: 30 errors with status 429 and retryAfterMs 30000', async () => {
      const transport = createApiTransport({ fetch: fakeFetch(limited(429, '30')).fetch, settings });
      const error = await lastValueFrom(transport.fetchApi('log_event', smallPayload)).catch((e) => e);
      expect(error).toBeInstanceOf(ApiFetchError);
      expect(error).toMatchObject({ message: 'API fetch failed', status: 429, retryAfterMs: 30_000 });
    });

    it('a compressed log request answered 429 is not resent uncompressed: it errors with the delay', async () => {
      const { fetch, calls } = fakeFetch(limited(429, '5'));
      const transport = createApiTransport({ fetch, settings });
      const error = await lastValueFrom(transport.fetchApi('log_event', bigPayload)).catch((e) => e);
      expect(calls).toHaveLength(1);
      expect(error).toMatchObject({ status: 429, retryAfterMs: 5_000, compressionFailed: false });
    });

    it('a 503 with an HTTP date is measured against the scheduler clock, not Date.now()', async () => {
      const now = Date.UTC(2024, 0, 1);
      const clock: SchedulerLike = { now: () => now, schedule: asyncScheduler.schedule.bind(asyncScheduler) };
      const transport = createApiTransport({ fetch: fakeFetch(limited(503, 'Mon, 01 Jan 2024 00:00:45 GMT')).fetch, settings, scheduler: clock });
      const error = await lastValueFrom(transport.fetchApi('log_event', smallPayload)).catch((e) => e);
      expect(error).toMatchObject({ status: 503, retryAfterMs: 45_000 });
    });

    it('a garbage Retry-After leaves retryAfterMs unset', async () => {
      const transport = createApiTransport({ fetch: fakeFetch(limited(429, 'in a while')).fetch, settings });
      const error = await lastValueFrom(transport.fetchApi('log_event', smallPayload)).catch((e) => e);
      expect(error).toMatchObject({ status: 429 });
      expect(error.retryAfterMs).toBeUndefined();
    });
  });

  describe('stream token (issue 12)', () => {
    const token = 'v1.c3RyZWFt.c2ln';
    const withToken = () => ({ context, apiKey: 'KEY', streamToken: token });

    it('every log request carries it, compressed or not, and through the keepalive path; other calls do not', async () => {
      const { fetch, calls } = fakeFetch(response(200, '{}'));
      const transport = createApiTransport({ fetch, settings: withToken });
      await lastValueFrom(transport.fetchApi('log_event', smallPayload));
      await lastValueFrom(transport.fetchApi('log_event', bigPayload));
      await lastValueFrom(transport.fetchApi('video_stats', smallPayload));
      await lastValueFrom(transport.sendKeepalive(transport.buildRequest('log_event', bigPayload)));
      await lastValueFrom(transport.fetchApi('feedback', smallPayload));
      expect(calls.map((c) => [c.url, c.init.headers[STREAM_TOKEN_HEADER], c.init.headers['Content-Encoding'], c.init.keepalive])).toEqual([
        ['/youtubei/v1/log_event?key=KEY', token, undefined, undefined],
        ['/youtubei/v1/log_event?key=KEY', token, 'gzip', undefined],
        ['/youtubei/v1/video_stats?key=KEY', token, undefined, undefined],
        ['/youtubei/v1/log_event?key=KEY', token, undefined, true],
        ['/youtubei/v1/feedback', undefined, undefined, undefined],
      ]);
    });

    it('a 400 to a compressed log request is resent uncompressed with the token still on it', async () => {
      const { fetch, calls } = fakeFetch(response(400), response(200, '{}'));
      const transport = createApiTransport({ fetch, settings: withToken });
      await lastValueFrom(transport.fetchApi('log_event', bigPayload));
      expect(calls.map((c) => c.init.headers[STREAM_TOKEN_HEADER])).toEqual([token, token]);
    });

    it('a stored request is sent with the headers it was built with, whatever the settings are now', async () => {
      const { fetch, calls } = fakeFetch(response(200, '{}'));
      let current: string | undefined = token;
      const transport = createApiTransport({ fetch, settings: () => ({ context, streamToken: current }) });
      const stored = JSON.parse(JSON.stringify(transport.buildRequest('log_event', smallPayload)));
      current = undefined; // a later page of a server without tokens, or a newer token
      await lastValueFrom(transport.send(stored));
      await lastValueFrom(transport.fetchApi('log_event', smallPayload));
      expect(calls[0].init.headers[STREAM_TOKEN_HEADER]).toBe(token);
      expect(calls[1].init.headers[STREAM_TOKEN_HEADER]).toBeUndefined();
    });
  });

  describe('sendKeepalive (unload path)', () => {
    it('sends at once, uncompressed, with keepalive: true — even a body that send would gzip', async () => {
      const { fetch, calls } = fakeFetch(response(204, ''));
      const transport = createApiTransport({ fetch, settings });
      const request = transport.buildRequest('log_event', bigPayload);
      await lastValueFrom(transport.sendKeepalive(request));
      expect(calls[0].init).toMatchObject({ keepalive: true, body: request.options.body });
      expect(calls[0].init.headers['Content-Encoding']).toBeUndefined();
    });

    it('refuses a body over the keepalive budget without fetching', async () => {
      const { fetch, calls } = fakeFetch(response(200));
      const transport = createApiTransport({ fetch, settings, keepaliveBudgetBytes: 100 });
      const error = await firstValueFrom(transport.sendKeepalive(transport.buildRequest('log_event', bigPayload))).catch((e) => e);
      expect(error).toBeInstanceOf(KeepaliveBudgetError);
      expect(calls).toHaveLength(0);
    });

    it('uses a 64 KiB budget by default', async () => {
      const { fetch, calls } = fakeFetch(response(200));
      const transport = createApiTransport({ fetch, settings });
      const fits = transport.buildRequest('log_event', { pad: 'x'.repeat(60_000) });
      const tooBig = transport.buildRequest('log_event', { pad: 'x'.repeat(66_000) });
      await lastValueFrom(transport.sendKeepalive(fits));
      await expect(lastValueFrom(transport.sendKeepalive(tooBig))).rejects.toMatchObject({ budgetBytes: 65_536 });
      expect(calls).toHaveLength(1);
    });
  });
});

describe('buildApiRequest (spec §7)', () => {
  it('POSTs JSON {context, …payload} to the root-relative /youtubei/v1/{endpoint} with the spec headers', () => {
    const ctx = buildClientContext({
      timeZone: 'America/New_York',
      utcOffsetMinutes: -240,
      screen: { width: 1920, height: 1080 },
      page: { visitorData: 'VIS' },
    });
    const request = buildApiRequest('log_event', { events: [1] }, { context: ctx, authorization: 'tok', loggedIn: true, apiKey: 'K', xsrfToken: 'X' });
    expect(request.url).toBe('/youtubei/v1/log_event');
    expect(request.options.method).toBe('POST');
    expect(request.options.headers).toEqual({
      'Content-Type': 'application/json',
      'X-Goog-Visitor-Id': 'VIS',
      Authorization: 'Bearer tok',
      'X-Youtube-Bootstrap-Logged-In': 'true',
      'X-Youtube-Client-Name': '56',
      'X-Youtube-Client-Version': ctx.client.clientVersion,
      'X-Youtube-Utc-Offset': '-240',
      'X-Youtube-Time-Zone': 'America/New_York',
      'X-Youtube-Ad-Signals': 'flash=0&u_tz=-240&u_h=1080&u_w=1920',
    });
    const body = JSON.parse(request.options.body);
    expect(Object.keys(body)).toEqual(['context', 'events', 'session_token']);
    expect(body.context).toEqual(ctx);
    expect(body.session_token).toBe('X');
    expect(request.options.body).not.toMatch(/logged.?in/i);
  });

  it('puts the key in the query only under the kill switch, or for logging without a bearer header', () => {
    const url = (endpoint: string, extra: object) => buildApiRequest(endpoint, {}, { context, apiKey: 'K', ...extra }).url;
    expect(url('log_event', {})).toBe('/youtubei/v1/log_event?key=K');
    expect(url('video_stats', {})).toBe('/youtubei/v1/video_stats?key=K');
    expect(url('log_event', { authorization: 'Bearer t' })).toBe('/youtubei/v1/log_event');
    expect(url('feedback', {})).toBe('/youtubei/v1/feedback');
    expect(url('feedback', { keyParamKillSwitch: true, authorization: 'Bearer t' })).toBe('/youtubei/v1/feedback?key=K');
    expect(buildApiRequest('log_event', {}, { context }).url).toBe('/youtubei/v1/log_event');
  });

  it('writes the body JSON.stringify({ context, ...payload }) would: key order, getters, no inherited or symbol keys', () => {
    // The body is copied key by key instead of through a rest object and a spread (issue 15): the same bytes.
    const bare = buildClientContext({});
    const payload = Object.create({ inherited: 'no' }) as Record<string | symbol, unknown>;
    Object.assign(payload, { b: 1, 10: 'ten', context: 'evil', a: [1, { c: null }], 2: true, skipped: undefined });
    Object.defineProperty(payload, 'g', { enumerable: true, get: () => 'got' });
    Object.defineProperty(payload, 'hidden', { enumerable: false, value: 'no' });
    payload[Symbol('s')] = 'no';
    const { context: _evil, ...rest } = payload;
    const request = buildApiRequest('log_event', payload, { context: bare, xsrfToken: 'X' });
    expect(request.options.body).toBe(JSON.stringify({ context: bare, ...rest, session_token: 'X' }));
    expect(Object.keys(JSON.parse(request.options.body))).toEqual(['2', '10', 'context', 'b', 'a', 'g', 'session_token']);
  });

  it('leaves out headers it has nothing for, and never lets the payload replace the context', () => {
    const bare = buildClientContext({});
    const request = buildApiRequest('share/get_share_panel', { context: 'evil', a: 1 }, { context: bare });
    expect(request.url).toBe('/youtubei/v1/share/get_share_panel');
    expect(Object.keys(request.options.headers).sort()).toEqual(['Content-Type', 'X-Youtube-Client-Name', 'X-Youtube-Client-Version']);
    expect(JSON.parse(request.options.body)).toEqual({ context: bare, a: 1 });
  });

  it(`puts the stream token in ${STREAM_TOKEN_HEADER} on log_event and video_stats only, and only when there is one`, () => {
    const headers = (endpoint: string, streamToken?: string) => buildApiRequest(endpoint, {}, { context, streamToken }).options.headers;
    expect(STREAM_TOKEN_HEADER).toBe('X-VidFrame-Stream-Token');
    expect(headers('log_event', 'tok.en')[STREAM_TOKEN_HEADER]).toBe('tok.en');
    expect(headers('video_stats', 'tok.en')[STREAM_TOKEN_HEADER]).toBe('tok.en');
    expect(headers('feedback', 'tok.en')).not.toHaveProperty(STREAM_TOKEN_HEADER);
    expect(headers('share/get_share_panel', 'tok.en')).not.toHaveProperty(STREAM_TOKEN_HEADER);
    expect(headers('log_event')).not.toHaveProperty(STREAM_TOKEN_HEADER);
    expect(headers('log_event', '')).not.toHaveProperty(STREAM_TOKEN_HEADER);
    // Never in the body: the body is the event payload the collector stores.
    expect(buildApiRequest('log_event', {}, { context, streamToken: 'tok.en' }).options.body).not.toContain('tok.en');
  });

  it.each(['', 'https://x.test/log_event', '../admin', 'log_event?x=1', '/log_event'])('rejects the endpoint %j', (endpoint) => {
    expect(() => buildApiRequest(endpoint, {}, { context })).toThrow(TypeError);
  });
});
