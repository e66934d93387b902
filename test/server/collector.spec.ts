import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildApp, type VidFrameApp } from '../../server/app';
import { createStreamTokens } from '../../server/tokens/streamTokens';
import { apiTokensFor } from '../helpers/apiTokens';
import { COLLECTOR_MAX_EVENT_BYTES, COLLECTOR_MAX_EVENTS_PER_REQUEST, ERROR_REPORT_MAX_STACK_CHARS } from '../../server/collector/limits';

const NOW = 1_700_000_000_000;
const ADMIN = 'admin-token-for-the-collector-tests';
const SECRET = 'a-shared-stream-secret-of-at-least-32-chars';
const tokens = createStreamTokens({ secret: SECRET, now: () => NOW });
const { antiForgeryToken, visitorData } = apiTokensFor(SECRET, () => NOW);
const VISITOR = visitorData();
/** A log request body with the anti-forgery field every POST carries (spec §7). */
const body = (fields: Record<string, unknown>) => JSON.stringify({ session_token: antiForgeryToken(), ...fields });

const event = (id: string, name = 'playerStateChange', payload: object = { state: 1 }) => ({ eventTimeMs: 1000, clientEventId: id, [name]: payload });
const logBody = (events: unknown[], counter = 1) =>
  body({
    context: { client: { clientName: 'WEB_EMBEDDED_PLAYER', clientVersion: '1.0' } },
    events,
    requestTimeMs: 2000,
    serializedClientEventId: { serializedEventId: 'page', clientCounter: counter },
  });

describe('collector (real SQLite store, through the whole app)', () => {
  let dataDir: string;
  let app: VidFrameApp;
  let stream: { stream: string; token: string };

  const build = (extra: Parameters<typeof buildApp>[0] = {}) =>
    buildApp({ dataDir, now: () => NOW, testHooks: true, adminToken: ADMIN, streamSecret: SECRET, ...extra });
  const post = (url: string, payload: string | Buffer, headers: Record<string, string> = {}, token = stream.token) =>
    app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': token, ...headers } });
  const admin = (url: string, method: 'GET' | 'DELETE' | 'POST' = 'GET', payload?: string) =>
    app.inject({ method, url, payload, headers: { authorization: `Bearer ${ADMIN}`, host: 'localhost:8080' } });
  const stats = async () => (await admin('/collector/api/stats')).json();
  const events = async (query = '') => (await admin(`/collector/api/events?limit=500${query}`)).json().items;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'collector-'));
    app = await build();
    stream = tokens.issue();
  });
  afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes a plain JSON log_event, answers with globalConfigGroup and what it stored, and lists the events', async () => {
    const res = await post('/youtubei/v1/log_event', logBody([event('p:1'), event('p:2', 'playerReady', { latencyMs: 40 })]));
    expect(res.statusCode).toBe(200);
    const { responseContext, collector } = res.json();
    // The shape the client's config store reads (hot and cold config group, hash data, raw cold config data).
    expect(responseContext.globalConfigGroup).toEqual({
      hotConfigGroup: expect.any(Object),
      hotHashData: expect.stringMatching(/^[\w-]{43}$/),
      coldConfigGroup: expect.any(Object),
      coldHashData: expect.stringMatching(/^[\w-]{43}$/),
      rawColdConfigGroup: { configData: expect.any(String) },
    });
    expect(collector).toEqual({ accepted: 2, duplicates: 0, conflicts: 0, refused: [] });
    const listed = await events();
    expect(listed.map((e: { name: string; clientEventId: string }) => [e.name, e.clientEventId])).toEqual([
      ['playerStateChange', 'p:1'],
      ['playerReady', 'p:2'],
    ]);
    expect(listed[1]).toMatchObject({
      stream: stream.stream,
      endpoint: 'log_event',
      eventTimeMs: 1000,
      receivedAtMs: NOW,
      value: 40,
      event: { playerReady: { latencyMs: 40 } },
    });
  });

  it('takes gzip bodies and keeps request metadata (compressed or not, headers, context)', async () => {
    const res = await post('/youtubei/v1/video_stats', gzipSync(logBody([event('d:1', 'debugInfo')])), {
      'content-encoding': 'gzip',
      'x-goog-visitor-id': VISITOR,
      'x-youtube-client-name': '56',
      'x-youtube-time-zone': 'Europe/Paris',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().responseContext.globalConfigGroup).toBeUndefined();
    const [request] = (await admin('/collector/api/requests?pageId=page')).json().items;
    expect(request).toMatchObject({
      stream: stream.stream,
      endpoint: 'video_stats',
      compressed: true,
      receivedAtMs: NOW,
      headers: { 'x-goog-visitor-id': VISITOR, 'x-youtube-client-name': '56', 'x-youtube-time-zone': 'Europe/Paris', 'content-encoding': 'gzip' },
      context: { client: { clientName: 'WEB_EMBEDDED_PLAYER' } },
      serializedClientEventId: { serializedEventId: 'page', clientCounter: 1 },
      eventCount: 1,
      accepted: 1,
      duplicates: 0,
    });
    expect(request.bodyBytes).toBeLessThan(request.decodedBytes + 40);
    expect(await events('&endpoint=video_stats')).toHaveLength(1);
  });

  it('never counts an event twice: a resent request (even half-new, even after a restart) is de-duplicated', async () => {
    await post('/youtubei/v1/log_event', logBody([event('p:1'), event('p:2')]));
    await post('/youtubei/v1/log_event', gzipSync(logBody([event('p:1'), event('p:2')])), { 'content-encoding': 'gzip' });
    const third = await post('/youtubei/v1/log_event', logBody([event('p:2'), event('p:3')]));
    expect(third.json().collector).toEqual({ accepted: 1, duplicates: 1, conflicts: 0, refused: [] });
    expect(await stats()).toMatchObject({ requests: 3, compressedRequests: 1, events: 3, duplicatesDropped: 3, byName: { playerStateChange: 3 } });

    await app.close();
    app = await build();
    await post('/youtubei/v1/log_event', logBody([event('p:3'), event('p:4')]));
    expect(await stats()).toMatchObject({ requests: 4, events: 4, duplicatesDropped: 4 });
    expect((await events()).map((e: { clientEventId: string }) => e.clientEventId)).toEqual(['p:1', 'p:2', 'p:3', 'p:4']);
  });

  it('scopes de-duplication to the stream: forged ids from another client leave the victim’s events stored', async () => {
    const attacker = tokens.issue();
    // The attacker sends the victim's next ids first, on its own (valid) stream…
    await post('/youtubei/v1/log_event', logBody([event('page:1'), event('page:2')]), {}, attacker.token);
    // …and the victim's real events are still accepted, on the victim's stream.
    const victim = await post('/youtubei/v1/log_event', logBody([event('page:1'), event('page:2')]));
    expect(victim.json().collector).toEqual({ accepted: 2, duplicates: 0, conflicts: 0, refused: [] });
    expect(await events(`&stream=${stream.stream}`)).toHaveLength(2);
  });

  it.each([
    ['no token', undefined, /carries no stream token/],
    ['a malformed token', 'not-a-token', /malformed/],
    ['a forged signature', () => stream.token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), /signature is wrong/],
    ['a token of another server', () => createStreamTokens({ secret: 'another-servers-secret-of-32-characters!' }).issue().token, /unknown or retired key/],
    ['an expired token', () => createStreamTokens({ secret: SECRET, now: () => NOW - 40 * 24 * 3600 * 1000 }).issue().token, /expired/],
  ])('refuses a log request with %s: 401 and nothing stored', async (_label, token, message) => {
    const given = typeof token === 'function' ? token() : token;
    const res = await app.inject({
      method: 'POST',
      url: '/youtubei/v1/log_event',
      payload: logBody([event('x:1')]),
      headers: { 'content-type': 'application/json', ...(given !== undefined ? { 'x-vidframe-stream-token': given } : {}) },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 401, message: expect.stringMatching(message) } });
    expect(await stats()).toMatchObject({ requests: 0, events: 0 });
  });

  it('accepts a stored request resent 30 days later (the retry queue’s expiry)', async () => {
    const old = createStreamTokens({ secret: SECRET, now: () => NOW - 30 * 24 * 3600 * 1000 }).issue();
    expect((await post('/youtubei/v1/log_event', logBody([event('late:1')]), {}, old.token)).statusCode).toBe(200);
  });

  it('refuses a poison event on its own, with a reason, and stores the rest of its request', async () => {
    // 10,000 levels: more than JSON.stringify can walk, written as text.
    const deep = `${'{"d":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    const good = Array.from({ length: 19 }, (_, i) => JSON.stringify(event(`g:${i}`)));
    const body = `{"session_token":"${antiForgeryToken()}","events":[${[...good.slice(0, 10), `{"clientEventId":"bad:deep","poison":${deep}}`, ...good.slice(10)].join(',')}]}`;
    const res = await post('/youtubei/v1/log_event', body);
    expect(res.statusCode).toBe(200);
    expect(res.json().collector).toEqual({
      accepted: 19,
      duplicates: 0,
      conflicts: 0,
      refused: [{ index: 10, clientEventId: 'bad:deep', reason: 'the event nests deeper than 32 levels' }],
    });
    // Resent (as a client would after any failure): still 19, none lost, the poison still refused.
    const again = await post('/youtubei/v1/log_event', body);
    expect(again.json().collector).toMatchObject({ accepted: 0, duplicates: 19 });
    expect(await stats()).toMatchObject({ events: 19, refusedEvents: 2 });
  });

  it.each([
    ['a non-object event', 3, /must be a JSON object/],
    ['two payload keys', { clientEventId: 'a', one: {}, two: {} }, /exactly one payload key/],
    ['no payload', { clientEventId: 'a', eventTimeMs: 1 }, /exactly one payload key/],
    ['a bad name', { clientEventId: 'a', 'no spaces please': {} }, /event name must be a word/],
    ['a numeric clientEventId', { clientEventId: 7, x: {} }, /clientEventId must be a string/],
    ['a long clientEventId', { clientEventId: 'i'.repeat(129), x: {} }, /clientEventId must be a string of 1 to 128/],
    ['a negative eventTimeMs', { eventTimeMs: -1, x: {} }, /eventTimeMs must be/],
    ['an event over the size bound', { clientEventId: 'big', x: 'y'.repeat(COLLECTOR_MAX_EVENT_BYTES) }, /more than 65536/],
  ])('refuses %s and keeps its neighbour', async (_label, bad, reason) => {
    const res = await post('/youtubei/v1/log_event', body({ events: [bad, event('ok:1')] }));
    expect(res.statusCode).toBe(200);
    expect(res.json().collector.accepted).toBe(1);
    expect(res.json().collector.refused).toEqual([expect.objectContaining({ index: 0, reason: expect.stringMatching(reason) })]);
  });

  it('keeps a request whose field values would poison a store: an absurd time is refused alone, an infinite chart value is dropped', async () => {
    const res = await post(
      '/youtubei/v1/log_event',
      body({
        events: [
          { clientEventId: 'v:1', eventTimeMs: 1e19, playerStateChange: { state: 1 } },
          { clientEventId: 'v:2', watchTimeSegment: { startSec: -1e308, endSec: 1e308 } },
          event('v:3'),
        ],
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().collector).toEqual({ accepted: 2, duplicates: 0, conflicts: 0, refused: [expect.objectContaining({ index: 0, clientEventId: 'v:1' })] });
    const [segment] = await events('&name=watchTimeSegment');
    expect(segment.value).toBeUndefined();
  });

  it('refuses a body built to stall the parser (two million levels in a few KB of gzip) before parsing it', async () => {
    const bomb = gzipSync(`{"context":{"c":${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}},"events":[]}`);
    expect(bomb.byteLength).toBeLessThan(20_000);
    const res = await post('/youtubei/v1/log_event', bomb, { 'content-encoding': 'gzip' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('The body nests deeper than 20000 levels');
  });

  it('answers deep metadata with a 400 (context) or drops it (small fields), never a 5xx', async () => {
    const deep = `${'{"d":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    const ctx = await post('/youtubei/v1/log_event', `{"context":${deep},"events":[]}`);
    expect(ctx.statusCode).toBe(400);
    expect(ctx.json().error.message).toBe('"context" nests deeper than 32 levels');
    const small = await post(
      '/youtubei/v1/log_event',
      `{"session_token":"${antiForgeryToken()}","serializedClientEventId":${deep},"requestTimeMs":${deep},"events":[${JSON.stringify(event('d:1'))}]}`,
    );
    expect(small.statusCode).toBe(200);
    expect(small.json().collector.accepted).toBe(1);
    const report = await post('/error_204', `{"message":"deep","extra":${deep}}`);
    expect(report.statusCode).toBe(204);
    const { items } = (await admin('/collector/api/errors')).json();
    expect(items).toHaveLength(1);
  });

  it('de-duplicates events without a clientEventId by content', async () => {
    const anonymous = { eventTimeMs: 5, playerSeek: { toSec: 3 } };
    await post('/youtubei/v1/log_event', logBody([anonymous]));
    await post('/youtubei/v1/log_event', logBody([anonymous, { eventTimeMs: 6, playerSeek: { toSec: 3 } }]));
    expect(await stats()).toMatchObject({ events: 2, duplicatesDropped: 1 });
  });

  it('pages reads with a cursor, filters in the store, and refuses bad parameters with a 400', async () => {
    await post('/youtubei/v1/log_event', logBody([event('a:1'), event('b:1', 'playerSeek', { toSec: 9 }), event('a:2'), event('a:3')]));
    const first = (await admin('/collector/api/events?limit=2')).json();
    expect(first.items.map((e: { clientEventId: string }) => e.clientEventId)).toEqual(['a:1', 'b:1']);
    const second = (await admin(`/collector/api/events?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.items.map((e: { clientEventId: string }) => e.clientEventId)).toEqual(['a:2', 'a:3']);
    expect(second.nextCursor).toBeUndefined();
    expect((await events('&name=playerSeek')).map((e: { clientEventId: string }) => e.clientEventId)).toEqual(['b:1']);
    // A page is the stream of the first request that named it (`streamScope.spec.ts`): no request named page "a".
    expect(await events('&pageId=a')).toEqual([]);
    expect((await events('&text=toSec')).map((e: { clientEventId: string }) => e.clientEventId)).toEqual(['b:1']);
    expect(await events(`&sinceMs=${NOW + 1}`)).toHaveLength(0);

    for (const [query, message] of [
      ['limit=501', /limit must be <= 500/],
      ['limit=0', /limit must be >= 1/],
      ['sinceMs=yesterday', /sinceMs must be integer/],
      ['endpoint=elsewhere', /endpoint must be equal to one of the allowed values/],
      ['cursor=abc', /Unknown cursor/],
    ] as const) {
      const res = await admin(`/collector/api/events?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
  });

  it('charts: timeseries buckets with events, sessions, watch time, state changes, errors and latency', async () => {
    await post(
      '/youtubei/v1/log_event',
      logBody([
        event('t:1'),
        event('t:2', 'watchTimeSegment', { startSec: 2, endSec: 7.5 }),
        event('t:3', 'latencyReport', { durationMs: 300 }),
        event('t:4', 'latencyReport', { durationMs: 100 }),
        event('t:5', 'playerError', { internalError: 'fmt.decode', hostErrorCode: 5 }),
      ]),
    );
    await post('/youtubei/v1/log_event', logBody([event('u:1')]), {}, tokens.issue().token);
    await post('/error_204', JSON.stringify({ message: 'boom' }));
    const res = await admin(`/collector/api/timeseries?sinceMs=${NOW - 60_000}&untilMs=${NOW + 60_000}&bucketMs=60000`);
    expect(res.json().buckets).toEqual([
      { startMs: NOW - (NOW % 60_000), events: 6, sessions: 2, watchTimeSec: 5.5, stateChanges: 2, errors: 2, latencyMeanMs: 200 },
    ]);
    const tooMany = await admin(`/collector/api/timeseries?sinceMs=0&untilMs=${NOW}&bucketMs=1000`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toMatch(/At most 1000 buckets/);
  });

  it.each([
    ['malformed JSON', '{"events": [', {}, 400, /^Malformed JSON body/],
    ['a JSON array', '[]', {}, 400, /^Body must be a JSON object$/],
    ['no events', '{"context":{}}', {}, 400, /"events" array/],
    [
      'too many events',
      JSON.stringify({ events: Array.from({ length: COLLECTOR_MAX_EVENTS_PER_REQUEST + 1 }, (_, i) => event(`m:${i}`)) }),
      {},
      400,
      /at most 1000 events/,
    ],
    ['a huge context', JSON.stringify({ context: { x: 'y'.repeat(20_000) }, events: [] }), {}, 400, /"context" is larger than 16384 bytes/],
    ['bad gzip', 'not gzip at all', { 'content-encoding': 'gzip' }, 400, /^Malformed gzip body/],
    ['text/plain', '{"events":[]}', { 'content-type': 'text/plain' }, 415, /Content-Type must be application\/json/],
    ['br encoding', '{"events":[]}', { 'content-encoding': 'br' }, 415, /Unsupported Content-Encoding "br"/],
  ])('answers %s with a clear %d JSON error and stores nothing', async (_label, payload, headers, status, message) => {
    const res = await post('/youtubei/v1/log_event', payload, headers as Record<string, string>);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ error: { code: status, message: expect.stringMatching(message) } });
    expect((await stats()).requests).toBe(0);
  });

  it('answers 413 for a body over the limit, on the wire or after gunzip', async () => {
    const big = await post('/youtubei/v1/log_event', logBody([{ eventTimeMs: 1, x: 'y'.repeat(1_100_000) }]));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: { code: 413, message: 'Request body is larger than 1048576 bytes' } });
    const bomb = await post('/youtubei/v1/log_event', gzipSync(logBody([{ eventTimeMs: 1, x: 'y'.repeat(5_000_000) }])), { 'content-encoding': 'gzip' });
    expect(bomb.statusCode).toBe(413);
    expect(bomb.json().error.message).toBe('Decompressed body is larger than 4194304 bytes');
  });

  it('answers a store failure with 503 and Retry-After (the client keeps the request), never a 200', async () => {
    const store = app.vidframe.store;
    const original = store.recordLogRequest;
    store.recordLogRequest = () => Promise.reject(new Error('SQLITE_FULL: database or disk is full'));
    const res = await post('/youtubei/v1/log_event', logBody([event('f:1')]));
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json().error.message).not.toMatch(/SQLITE/); // no internals
    store.recordLogRequest = original;
    expect((await post('/youtubei/v1/log_event', logBody([event('f:1')]))).json().collector.accepted).toBe(1);
  });

  it('plays back injected faults: 415 only on gzip bodies, 429 with Retry-After, and cancels them', async () => {
    expect((await admin('/collector/api/faults', 'POST', JSON.stringify({ status: 415, count: 2 }))).statusCode).toBe(200);
    const gz = () => post('/youtubei/v1/log_event', gzipSync(logBody([event('z:1')])), { 'content-encoding': 'gzip' });
    expect((await post('/youtubei/v1/log_event', logBody([event('z:0')]))).statusCode).toBe(200); // plain: not hit
    expect((await gz()).statusCode).toBe(415);
    expect((await gz()).statusCode).toBe(415);
    expect((await gz()).statusCode).toBe(200);
    expect(await stats()).toMatchObject({ faultsPlayed: 2, pendingFault: null, events: 2 });

    await admin('/collector/api/faults', 'POST', JSON.stringify({ status: 429, count: 1, retryAfterSec: 30 }));
    const limited = await post('/youtubei/v1/log_event', logBody([event('z:2')]));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('30');

    await admin('/collector/api/faults', 'POST', JSON.stringify({ status: 500, count: 5 }));
    expect((await post('/youtubei/v1/log_event', logBody([event('q:1')]))).statusCode).toBe(500);
    await admin('/collector/api/faults', 'DELETE');
    expect((await post('/youtubei/v1/log_event', logBody([event('q:1')]))).statusCode).toBe(200);
  });

  it.each([
    [{ status: 404, count: 1 }, '"status" must be 500, 415, 400 or 429'],
    [{ status: 500, count: 0 }, '"count" must be a whole number ≥ 1'],
    [{ status: 429, count: 1, retryAfterSec: -1 }, '"retryAfterSec" must be a whole number ≥ 0'],
  ])('rejects the fault %j', async (fault, message) => {
    const res = await admin('/collector/api/faults', 'POST', JSON.stringify(fault));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(message);
  });

  it('DELETE /collector/api/events clears everything; a cleared event id counts again', async () => {
    await post('/youtubei/v1/log_event', logBody([event('p:1')]));
    await post('/error_204', JSON.stringify({ message: 'x' }));
    expect((await admin('/collector/api/events', 'DELETE')).statusCode).toBe(200);
    expect(await stats()).toMatchObject({ requests: 0, events: 0, errors: 0 });
    await post('/youtubei/v1/log_event', logBody([event('p:1')]));
    expect((await stats()).events).toBe(1);
  });

  it('has no wipe or fault routes without test hooks', async () => {
    await app.close();
    app = await build({ testHooks: false });
    expect((await admin('/collector/api/events', 'DELETE')).statusCode).toBe(404);
    expect((await admin('/collector/api/faults', 'POST', '{}')).statusCode).toBe(404);
  });

  it('stores error reports from /error_204 (JSON, form or query) with every field bounded', async () => {
    const long = 'E'.repeat(300);
    const hugeStack = 'at x\n'.repeat(10_000).slice(0, 20_000);
    expect(
      (await post('/error_204?type=jserror', JSON.stringify({ message: long, url: 'https://h/embed/x', file: 'embed.js', stack: hugeStack }))).statusCode,
    ).toBe(204);
    await post('/error_204', 'msg=Boom&line=12', { 'content-type': 'application/x-www-form-urlencoded' });
    await post('/error_204', 'garbage', { 'content-type': 'application/json' });
    const extraFields = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, 'v'.repeat(1_500)]));
    await post('/error_204', JSON.stringify({ message: 'many', ...extraFields }));
    const big = await post('/error_204', JSON.stringify({ message: 'x', stack: 'y'.repeat(70_000) }));
    expect(big.statusCode).toBe(413);

    const { items } = (await admin('/collector/api/errors')).json();
    expect(items).toHaveLength(4);
    expect(items[0]).toMatchObject({ message: 'E'.repeat(250), messageTruncated: true, url: 'https://h/embed/x', file: 'embed.js', type: 'jserror' });
    expect(items[0].stack).toHaveLength(ERROR_REPORT_MAX_STACK_CHARS);
    expect(items[1]).toMatchObject({ message: 'Boom', line: '12', messageTruncated: false });
    expect(items[2]).toMatchObject({ message: '', extra: { rawBody: 'garbage' } });
    expect(Object.keys(items[3].extra)).toHaveLength(20);
    expect(Object.values(items[3].extra as Record<string, string>).every((v) => v.length === 1_024)).toBe(true);
  });

  it('GET /generate_204 answers 204 with an empty body', async () => {
    const res = await app.inject('/generate_204');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('leaves the rest of the app alone (its JSON parser still works)', async () => {
    const res = await app.inject({ method: 'POST', url: '/youtubei/v1/player', payload: { videoId: 'VFsunrise01', session_token: antiForgeryToken() } });
    expect(res.statusCode).toBe(200);
  });
});
