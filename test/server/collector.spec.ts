import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Fastify, { FastifyInstance } from 'fastify';
import { registerCollector } from '../../server/collector/registerCollector';

// Fastify's inject() loads light-my-request, which `require`s the ESM-only cookie@2; Jest on Node 20 cannot load that.
// light-my-request only uses it to encode request cookies, which these tests never send: a stand-in is enough.
jest.mock('cookie', () => ({
  stringifySetCookie: ({ name, value }: { name: string; value: string }) => `${name}=${encodeURIComponent(value)}`,
}));

const JSON_HEADERS = { 'content-type': 'application/json' };

const event = (id: string, name = 'playerStateChange', payload: object = { state: 1 }) => ({ eventTimeMs: 1000, clientEventId: id, [name]: payload });
const logBody = (events: object[], counter = 1) =>
  JSON.stringify({
    context: { client: { clientName: 'WEB_EMBEDDED_PLAYER', clientVersion: '1.0' } },
    events,
    requestTimeMs: 2000,
    serializedClientEventId: { serializedEventId: 'page', clientCounter: counter },
  });

describe('collector', () => {
  let dataDir: string;
  let app: FastifyInstance;

  const build = async (extra: Partial<Parameters<typeof registerCollector>[1]> = {}) => {
    const instance = Fastify();
    registerCollector(instance, { dataDir, now: () => 1_700_000_000_000, testHooks: true, ...extra });
    await instance.ready();
    return instance;
  };
  const post = (url: string, payload: string | Buffer, headers: Record<string, string> = JSON_HEADERS) =>
    app.inject({ method: 'POST', url, payload, headers });

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'collector-'));
    app = await build();
  });
  afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes a plain JSON log_event and answers with responseContext and globalConfigGroup', async () => {
    const res = await post('/youtubei/v1/log_event', logBody([event('p:1'), event('p:2', 'playerReady', { latencyMs: 40 })]));
    expect(res.statusCode).toBe(200);
    const { responseContext } = res.json();
    // The shape the client's config store reads (hot and cold config group, hash data, raw cold config data).
    expect(responseContext.globalConfigGroup).toEqual({
      hotConfigGroup: expect.any(Object),
      hotHashData: expect.stringMatching(/^[\w-]{43}$/),
      coldConfigGroup: expect.any(Object),
      coldHashData: expect.stringMatching(/^[\w-]{43}$/),
      rawColdConfigGroup: { configData: expect.any(String) },
    });
    const listed = (await app.inject('/collector/events')).json();
    expect(listed.count).toBe(2);
    expect(listed.events.map((e: { name: string; clientEventId: string }) => [e.name, e.clientEventId])).toEqual([
      ['playerStateChange', 'p:1'],
      ['playerReady', 'p:2'],
    ]);
    expect(listed.events[1]).toMatchObject({ seq: 2, endpoint: 'log_event', eventTimeMs: 1000, event: { playerReady: { latencyMs: 40 } } });
  });

  it('takes gzip bodies, keeps request metadata (compressed or not, headers, context)', async () => {
    const res = await post('/youtubei/v1/video_stats', gzipSync(logBody([event('d:1', 'debugInfo')])), {
      ...JSON_HEADERS,
      'content-encoding': 'gzip',
      'x-goog-visitor-id': 'VIS',
      'x-youtube-client-name': '56',
      'x-youtube-time-zone': 'Europe/Paris',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().responseContext.globalConfigGroup).toBeUndefined();
    const [request] = (await app.inject('/collector/requests')).json().requests;
    expect(request).toMatchObject({
      endpoint: 'video_stats',
      compressed: true,
      receivedAtMs: 1_700_000_000_000,
      headers: { 'x-goog-visitor-id': 'VIS', 'x-youtube-client-name': '56', 'x-youtube-time-zone': 'Europe/Paris', 'content-encoding': 'gzip' },
      context: { client: { clientName: 'WEB_EMBEDDED_PLAYER' } },
      serializedClientEventId: { serializedEventId: 'page', clientCounter: 1 },
      eventCount: 1,
      accepted: 1,
      duplicates: 0,
    });
    expect(request.bodyBytes).toBeLessThan(request.decodedBytes + 40);
    expect((await app.inject('/collector/events?endpoint=video_stats')).json().count).toBe(1);
  });

  it('never counts an event twice: a resent request (even half-new, even after a restart) is de-duplicated', async () => {
    await post('/youtubei/v1/log_event', logBody([event('p:1'), event('p:2')]));
    await post('/youtubei/v1/log_event', gzipSync(logBody([event('p:1'), event('p:2')])), { ...JSON_HEADERS, 'content-encoding': 'gzip' });
    await post('/youtubei/v1/log_event', logBody([event('p:2'), event('p:3')]));
    let stats = (await app.inject('/collector/stats')).json();
    expect(stats).toMatchObject({ requests: 3, compressedRequests: 1, events: 3, duplicatesDropped: 3, byName: { playerStateChange: 3 } });

    await app.close();
    app = await build();
    await post('/youtubei/v1/log_event', logBody([event('p:3'), event('p:4')]));
    stats = (await app.inject('/collector/stats')).json();
    expect(stats).toMatchObject({ requests: 4, events: 4, duplicatesDropped: 4 });
    expect((await app.inject('/collector/events')).json().events.map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('de-duplicates events without a clientEventId by content', async () => {
    const anonymous = { eventTimeMs: 5, seek: { toSec: 3 } };
    await post('/youtubei/v1/log_event', logBody([anonymous]));
    await post('/youtubei/v1/log_event', logBody([anonymous, { eventTimeMs: 6, seek: { toSec: 3 } }]));
    expect((await app.inject('/collector/stats')).json()).toMatchObject({ events: 2, duplicatesDropped: 1 });
  });

  it('filters the listing by name, since and afterSeq, and rejects bad filters', async () => {
    await post('/youtubei/v1/log_event', logBody([event('a'), event('b', 'playerSeek'), event('c')]));
    expect((await app.inject('/collector/events?name=playerSeek')).json().events.map((e: { clientEventId: string }) => e.clientEventId)).toEqual(['b']);
    expect((await app.inject('/collector/events?afterSeq=1')).json()).toMatchObject({ count: 2, lastSeq: 3 });
    expect((await app.inject('/collector/events?since=1700000000001')).json().count).toBe(0);
    expect((await app.inject('/collector/events?since=1700000000000')).json().count).toBe(3);
    const bad = await app.inject('/collector/events?since=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: { code: 400, message: '"since" must be a number' } });
  });

  it.each([
    ['malformed JSON', '{"events": [', JSON_HEADERS, 400, /^Malformed JSON body/],
    ['a JSON array', '[]', JSON_HEADERS, 400, /^Body must be a JSON object$/],
    ['no events', '{"context":{}}', JSON_HEADERS, 400, /"events" array/],
    ['a non-object event', '{"events":[{"a":1},3]}', JSON_HEADERS, 400, /^events\[1\] must be an object$/],
    ['bad gzip', 'not gzip at all', { ...JSON_HEADERS, 'content-encoding': 'gzip' }, 400, /^Malformed gzip body/],
    ['text/plain', '{"events":[]}', { 'content-type': 'text/plain' }, 415, /Content-Type must be application\/json/],
    ['no content type', '{"events":[]}', {}, 415, /Content-Type must be application\/json/],
    ['br encoding', '{"events":[]}', { ...JSON_HEADERS, 'content-encoding': 'br' }, 415, /Unsupported Content-Encoding "br"/],
  ])('answers %s with a clear %d JSON error and stores nothing', async (_label, payload, headers, status, message) => {
    const res = await post('/youtubei/v1/log_event', payload, headers as Record<string, string>);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ error: { code: status, message: expect.stringMatching(message) } });
    expect((await app.inject('/collector/stats')).json().requests).toBe(0);
  });

  it('answers 413 for a body over the limit, on the wire or after gunzip', async () => {
    await app.close();
    app = await build({ bodyLimitBytes: 1_000, maxDecompressedBytes: 5_000 });
    const big = await post('/youtubei/v1/log_event', logBody([{ eventTimeMs: 1, x: 'y'.repeat(2_000) }]));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: { code: 413, message: 'Request body is larger than 1000 bytes' } });
    const bomb = await post('/youtubei/v1/log_event', gzipSync(logBody([{ eventTimeMs: 1, x: 'y'.repeat(20_000) }])), {
      ...JSON_HEADERS,
      'content-encoding': 'gzip',
    });
    expect(bomb.statusCode).toBe(413);
    expect(bomb.json().error.message).toBe('Decompressed body is larger than 5000 bytes');
  });

  it('plays back injected faults: 415 only on gzip bodies, for the next n requests', async () => {
    expect((await post('/collector/faults', JSON.stringify({ status: 415, count: 2 }))).statusCode).toBe(200);
    const gz = () => post('/youtubei/v1/log_event', gzipSync(logBody([event('z:1')])), { ...JSON_HEADERS, 'content-encoding': 'gzip' });
    expect((await post('/youtubei/v1/log_event', logBody([event('z:0')]))).statusCode).toBe(200); // plain: not hit
    expect((await gz()).statusCode).toBe(415);
    expect((await gz()).statusCode).toBe(415);
    expect((await gz()).statusCode).toBe(200); // the two are used up
    expect((await app.inject('/collector/stats')).json()).toMatchObject({ faultsPlayed: 2, pendingFault: null, events: 2 });
  });

  it('plays back 500 on any log request, and DELETE /collector/faults cancels', async () => {
    await post('/collector/faults', JSON.stringify({ status: 500, count: 5 }));
    const res = await post('/youtubei/v1/log_event', logBody([event('q:1')]));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 500, message: 'Injected fault (500)' } });
    expect((await app.inject('/collector/stats')).json().pendingFault).toEqual({ status: 500, count: 4 });
    await app.inject({ method: 'DELETE', url: '/collector/faults' });
    expect((await post('/youtubei/v1/log_event', logBody([event('q:1')]))).statusCode).toBe(200);
  });

  it.each([
    [{ status: 404, count: 1 }, '"status" must be 500, 415 or 400'],
    [{ status: 500, count: 0 }, '"count" must be a whole number ≥ 1'],
    [{ status: 500, count: 1.5 }, '"count" must be a whole number ≥ 1'],
  ])('rejects the fault %j', async (fault, message) => {
    const res = await post('/collector/faults', JSON.stringify(fault));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(message);
  });

  it('DELETE /collector/events clears everything, on disk too', async () => {
    await post('/youtubei/v1/log_event', logBody([event('p:1')]));
    await post('/error_204', JSON.stringify({ message: 'x' }));
    expect((await app.inject({ method: 'DELETE', url: '/collector/events' })).statusCode).toBe(200);
    expect((await app.inject('/collector/stats')).json()).toMatchObject({ requests: 0, events: 0, errors: 0 });
    expect(readFileSync(join(dataDir, 'collector', 'events.jsonl'), 'utf8')).toBe('');
    // A cleared event id counts again.
    await post('/youtubei/v1/log_event', logBody([event('p:1')]));
    expect((await app.inject('/collector/stats')).json().events).toBe(1);
  });

  it('survives a torn last line in its files', async () => {
    await post('/youtubei/v1/log_event', logBody([event('p:1')]));
    await app.close();
    appendFileSync(join(dataDir, 'collector', 'events.jsonl'), '{"seq": 2, "dedupe');
    app = await build();
    expect((await app.inject('/collector/stats')).json().events).toBe(1);
    await post('/youtubei/v1/log_event', logBody([event('p:2')]));
    expect((await app.inject('/collector/events')).json().events.map((e: { seq: number }) => e.seq)).toEqual([1, 2]);
  });

  it('stores error reports from /error_204 (JSON, form or query), message cut at 250 chars', async () => {
    const long = 'E'.repeat(300);
    expect((await post('/error_204?type=jserror', JSON.stringify({ message: long, url: 'https://h/embed/x', file: 'embed.js', stack: 'at a' }))).statusCode).toBe(204);
    await post('/error_204', 'msg=Boom&line=12', { 'content-type': 'application/x-www-form-urlencoded' });
    await post('/error_204', 'garbage', { 'content-type': 'application/json' });
    const { errors } = (await app.inject('/collector/errors')).json();
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatchObject({ message: 'E'.repeat(250), messageTruncated: true, url: 'https://h/embed/x', file: 'embed.js', stack: 'at a', type: 'jserror' });
    expect(errors[1]).toMatchObject({ message: 'Boom', line: '12', messageTruncated: false });
    expect(errors[2]).toMatchObject({ message: '', extra: { rawBody: 'garbage' } });
  });

  it('GET /generate_204 answers 204 with an empty body', async () => {
    const res = await app.inject('/generate_204');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('leaves the rest of the app alone (its JSON parser still works)', async () => {
    const outer = Fastify();
    outer.post('/echo', async (request) => request.body);
    registerCollector(outer, { dataDir });
    const res = await outer.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    expect(res.json()).toEqual({ a: 1 });
    await outer.close();
  });

  it('creates its data folder on first start', async () => {
    const nested = join(dataDir, 'new', 'deeper');
    const other = Fastify();
    registerCollector(other, { dataDir: nested });
    await other.ready();
    writeFileSync(join(nested, 'collector', 'probe'), '');
    await other.close();
  });
});
