import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { createStreamTokens } from '../../../server/tokens/streamTokens';
import { apiTokensFor } from '../../helpers/apiTokens';
import { cutDeepEvents } from '../../../server/collector/ingest/cutDeepEvents';

const ADMIN = 'admin-token-for-the-poison-event-tests';
const SECRET = 'a-shared-stream-secret-for-poison-events';
const tokens = createStreamTokens({ secret: SECRET });
const { antiForgeryToken } = apiTokensFor(SECRET);

/** A value nested `levels` objects deep, as text (no JavaScript value this deep is ever built). */
const deepObject = (levels: number) => `${'{"d":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const good = (prefix: string) =>
  Array.from({ length: 19 }, (_, i) => JSON.stringify({ eventTimeMs: 1000, clientEventId: `${prefix}:${i}`, playerStateChange: { state: 1 } }));
/** 19 good events with `poison` (JSON text) at index 10. */
const batch = (prefix: string, poison: string) => {
  const events = good(prefix);
  events.splice(10, 0, poison);
  return `{"session_token":"${antiForgeryToken()}","context":{"client":{"clientName":"WEB_EMBEDDED_PLAYER"}},"events":[${events.join(',')}]}`;
};

describe('a poison event inside a log request costs only itself', () => {
  let dataDir: string;
  let app: VidFrameApp;
  const post = (payload: string | Buffer, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/youtubei/v1/log_event',
      payload,
      headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': tokens.issue().token, ...headers },
    });
  const storedEvents = async () =>
    (await app.inject({ url: '/collector/api/stats', headers: { authorization: `Bearer ${ADMIN}`, host: 'localhost' } })).json().events;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'poison-events-'));
    app = await buildApp({ dataDir, adminToken: ADMIN, streamSecret: SECRET });
  });
  afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['20,001 levels of objects', 'o', deepObject(20_001), false],
    ['200,000 levels of objects, gzip', 'g', deepObject(200_000), true],
    ['200,000 levels of arrays', 'a', deepArray(200_000), false],
  ])('stores the 19 good events beside one event nested %s and refuses that one alone', async (_name, prefix, deep, gzip) => {
    const text = batch(prefix, `{"eventTimeMs":1000,"clientEventId":"${prefix}:deep","poison":${deep}}`);
    const res = await post(gzip ? gzipSync(text) : text, gzip ? { 'content-encoding': 'gzip' } : {});
    expect(res.statusCode).toBe(200);
    expect(res.json().collector).toEqual({
      accepted: 19,
      duplicates: 0,
      conflicts: 0,
      refused: [{ index: 10, clientEventId: `${prefix}:deep`, reason: 'the event nests deeper than 32 levels' }],
    });
    expect(await storedEvents()).toBe(19);
    // The server keeps serving.
    expect((await post(batch(`${prefix}2`, '{"playerReady":{}}'))).json().collector.accepted).toBe(20);
  });

  it('refuses an event that is itself a two-million-level array (a few KB of gzip) alone', async () => {
    const bomb = gzipSync(batch('b', deepArray(2_000_000)));
    expect(bomb.byteLength).toBeLessThan(30_000);
    const res = await post(bomb, { 'content-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.json().collector).toEqual({ accepted: 19, duplicates: 0, conflicts: 0, refused: [{ index: 10, reason: 'an event must be a JSON object' }] });
  });

  it('keeps the neighbours of a deep event even when strings and escapes in it hold brackets', async () => {
    const tricky = `{"clientEventId":"t:deep","poison":{"s":"]}\\"]}","k":[${deepArray(50)}]}}`;
    const res = await post(batch('t', tricky));
    expect(res.statusCode).toBe(200);
    expect(res.json().collector.refused).toEqual([{ index: 10, clientEventId: 't:deep', reason: 'the event nests deeper than 32 levels' }]);
    expect(res.json().collector.accepted).toBe(19);
  });

  it('answers a body too deep outside its events with a clear 400, and malformed JSON beside a deep event too', async () => {
    const deepContext = await post(`{"context":{"c":${deepArray(200_000)}},"events":[]}`);
    expect(deepContext.statusCode).toBe(400);
    expect(deepContext.json().error.message).toBe('The body nests deeper than 20000 levels');
    const deepTop = await post(deepArray(200_000));
    expect(deepTop.statusCode).toBe(400);
    const malformed = await post(`{"events":[{"clientEventId":"m:deep","poison":${deepArray(100)}},{"playerReady":{}} oops]}`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toMatch(/^Malformed JSON body/);
    // Inside a value cut for depth, brackets must still match: a cut never turns malformed text into a body.
    const mismatched = await post(`{"events":[{"clientEventId":"x:deep","poison":${'['.repeat(100)}${'}'.repeat(100)}}]}`);
    expect(mismatched.statusCode).toBe(400);
    expect(await storedEvents()).toBe(0);
  });
});

describe('cutDeepEvents', () => {
  const limits = { maxEventDepth: 3, maxBodyDepth: 6 };
  it.each([
    '{}',
    ' {"events":[]} ',
    '{"events":[{"a":{"b":1}},2,"x",null,true,false,-1.5e+3]}',
    '{"k":"\\u00e9\\n\\"]","events":[{"a":[[]]}]}',
    '{"events":[1,]}',
    '{"events":[1}',
    '{"a":1,}',
    '{"a" 1}',
    '{"a":01}',
    '{"a":"\u0001"}',
    '{"a":"\\x"}',
    '[1] 2',
    '',
    'tru',
    '{"events":[{"a":{"b":{"c":1}}}]}',
  ])('agrees with JSON.parse on what is valid JSON, and changes nothing shallow: %s', (text) => {
    let parsed: unknown;
    let valid = true;
    try {
      parsed = JSON.parse(text);
    } catch {
      valid = false;
    }
    const cut = cutDeepEvents(text, limits);
    expect(cut.ok).toBe(valid);
    if (cut.ok) expect(JSON.parse(cut.text)).toEqual(parsed);
  });

  it('cuts only what nests an event too deep, in the last events array, and bounds the rest of the body', () => {
    const cut = cutDeepEvents('{"events":[0],"events":[{"a":1},{"a":{"b":{"c":[1]}},"id":"x"},{"a":{"b":[]}}]}', limits);
    expect(cut).toEqual({ ok: true, text: '{"events":[0],"events":[{"a":1},{"a":{"b":{"c":null}},"id":"x"},{"a":{"b":[]}}]}', tooDeep: new Set([1]) });
    expect(cutDeepEvents('{"c":[[[[[[]]]]]]}', limits)).toMatchObject({ ok: false, problem: 'depth' });
    expect(cutDeepEvents('{"c":[[[[[]]]]]}', limits)).toMatchObject({ ok: true });
  });
});
