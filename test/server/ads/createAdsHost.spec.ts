import type { FastifyInstance } from 'fastify';
import { ADS_ID_RESPONSE_PREFIX, createAdsHost } from '../../../server/ads/createAdsHost';

const EMBED = 'http://localhost:8080';
const allowedOrigin = (origin: string) => origin === EMBED;

/** The JSON after the anti-hijack prefix. */
const idBody = (text: string) => {
  expect(text.startsWith(ADS_ID_RESPONSE_PREFIX)).toBe(true);
  return JSON.parse(text.slice(ADS_ID_RESPONSE_PREFIX.length)) as { id: string; type: number };
};
const cookieOf = (setCookie: string | string[] | undefined) => String(setCookie).split(';')[0];

describe('the ads host: GET /pagead/id', () => {
  let host: FastifyInstance;
  afterEach(() => host?.close());

  const get = (headers: Record<string, string> = {}) => host.inject({ url: '/pagead/id', headers: { origin: EMBED, ...headers } });

  it('answers )]}\' and the JSON {"id","type":1}, no-store, nosniff, with a new HttpOnly one-year cookie', async () => {
    host = await createAdsHost({ allowedOrigin });
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^\)\]\}'\n\{"id":"[A-Za-z0-9_-]{22}","type":1\}$/);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const { id } = idBody(res.body);
    expect(res.headers['set-cookie']).toBe(`vf_ads_id=${id}; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax`);
  });

  it('keeps the id of the cookie: same id, no new cookie; a malformed cookie is replaced', async () => {
    host = await createAdsHost({ allowedOrigin });
    const first = await get();
    const cookie = cookieOf(first.headers['set-cookie']);
    const again = await get({ cookie: `other=1; ${cookie}` });
    expect(idBody(again.body).id).toBe(idBody(first.body).id);
    expect(again.headers['set-cookie']).toBeUndefined();
    const bad = await get({ cookie: 'vf_ads_id=not-an-id' });
    expect(idBody(bad.body).id).not.toBe('not-an-id');
    expect(bad.headers['set-cookie']).toMatch(/^vf_ads_id=[A-Za-z0-9_-]{22};/);
    // Two visitors without cookies get two ids.
    expect(idBody((await get()).body).id).not.toBe(idBody(first.body).id);
  });

  it('reads a quoted cookie value as the id inside the quotes', async () => {
    host = await createAdsHost({ allowedOrigin });
    const id = idBody((await get()).body).id;
    const again = await get({ cookie: `vf_ads_id="${id}"` });
    expect(idBody(again.body).id).toBe(id);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('issues SameSite=None; Secure cookies when secureCookies', async () => {
    host = await createAdsHost({ allowedOrigin, secureCookies: true });
    expect((await get()).headers['set-cookie']).toMatch(/; HttpOnly; Secure; SameSite=None$/);
  });

  it('credentialed CORS for an allowed origin only: a foreign origin gets 403, no CORS headers, no cookie', async () => {
    host = await createAdsHost({ allowedOrigin });
    const allowed = await get();
    expect(allowed.headers).toMatchObject({ 'access-control-allow-origin': EMBED, 'access-control-allow-credentials': 'true', vary: 'Origin' });

    const foreign = await get({ origin: 'http://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ error: { code: 403, message: 'The ads host does not answer pages of "http://evil.example".' } });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.headers['access-control-allow-credentials']).toBeUndefined();
    expect(foreign.headers['set-cookie']).toBeUndefined();
    expect(foreign.headers.vary).toBe('Origin');

    // No Origin: no CORS request (an address typed into a browser): the id, without CORS headers.
    const plain = await host.inject({ url: '/pagead/id' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    expect(idBody(plain.body).type).toBe(1);
  });

  it('OPTIONS follows the same rule: 204 with CORS for an allowed origin, 403 for a foreign one', async () => {
    host = await createAdsHost({ allowedOrigin });
    const ok = await host.inject({ method: 'OPTIONS', url: '/pagead/id', headers: { origin: EMBED, 'access-control-request-method': 'GET' } });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers).toMatchObject({
      'access-control-allow-origin': EMBED,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET',
      vary: 'Origin',
    });
    const foreign = await host.inject({ method: 'OPTIONS', url: '/pagead/id', headers: { origin: 'http://evil.example' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('has no test routes without testHooks (404 in the JSON error shape)', async () => {
    host = await createAdsHost({ allowedOrigin });
    for (const [method, url] of [
      ['POST', '/testhooks/answers'],
      ['GET', '/testhooks/requests'],
      ['DELETE', '/testhooks'],
    ] as const) {
      const res = await host.inject({ method, url, payload: method === 'POST' ? { answers: [] } : undefined });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 404, message: `Nothing at ${method} ${url}` } });
    }
  });
});

describe('the ads host test hooks', () => {
  let host: FastifyInstance;
  let clock = 1_000;
  afterEach(() => host?.close());
  const build = () => createAdsHost({ allowedOrigin, testHooks: true, now: () => clock });
  const get = (headers: Record<string, string> = {}) => host.inject({ url: '/pagead/id', headers: { origin: EMBED, ...headers } });
  const queue = (answers: unknown) => host.inject({ method: 'POST', url: '/testhooks/answers', payload: { answers } });

  it('plays scripted answers first-in first-out, bodies verbatim, then the normal answer again', async () => {
    host = await build();
    const queued = await queue([
      { body: '{"id":"NoPrefix","type":1}' },
      { body: ')]}\'\n{"id":"Two","type":2}' },
      { status: 500, body: 'boom' },
      { status: 503 },
    ]);
    expect(queued.statusCode).toBe(200);
    expect(queued.json()).toEqual({ pending: 4 });

    const noPrefix = await get();
    expect([noPrefix.statusCode, noPrefix.body]).toEqual([200, '{"id":"NoPrefix","type":1}']);
    expect(noPrefix.headers['access-control-allow-origin']).toBe(EMBED); // the player can read what it must reject
    expect((await get()).body).toBe(')]}\'\n{"id":"Two","type":2}');
    const failed = await get();
    expect([failed.statusCode, failed.body]).toEqual([500, 'boom']);
    const statusOnly = await get();
    expect(statusOnly.statusCode).toBe(503);
    expect(idBody(statusOnly.body).type).toBe(1);
    const normal = await get();
    expect(normal.statusCode).toBe(200);
    expect(idBody(normal.body).type).toBe(1);
  });

  it('delays a scripted answer by delayMs', async () => {
    host = await build();
    await queue([{ delayMs: 150 }]);
    const started = Date.now();
    const res = await get();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(idBody(res.body).type).toBe(1);
    const started2 = Date.now();
    await get();
    expect(Date.now() - started2).toBeLessThan(140);
  });

  it('a pending long delay ends when the host closes', async () => {
    host = await build();
    await host.listen({ port: 0, host: '127.0.0.1' });
    const address = host.server.address() as { port: number };
    await queue([{ delayMs: 60_000, body: 'late' }]);
    const request = fetch(`http://127.0.0.1:${address.port}/pagead/id`, { headers: { origin: EMBED } }).then(
      (r) => r.text(),
      () => 'closed',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = Date.now();
    await host.close();
    expect(Date.now() - closing).toBeLessThan(5_000);
    expect(['late', 'closed']).toContain(await request);
  });

  it('logs every id request (origin, whether it had the cookie, when) and DELETE /testhooks resets log and queue', async () => {
    host = await build();
    const first = await get();
    clock = 2_000;
    await get({ cookie: cookieOf(first.headers['set-cookie']) });
    clock = 3_000;
    await get({ origin: 'http://evil.example' });
    await host.inject({ url: '/pagead/id' });
    const log = await host.inject({ url: '/testhooks/requests' });
    expect(log.json()).toEqual({
      count: 4,
      requests: [
        { atMs: 1_000, origin: EMBED, hadCookie: false },
        { atMs: 2_000, origin: EMBED, hadCookie: true },
        { atMs: 3_000, origin: 'http://evil.example', hadCookie: false },
        { atMs: 3_000, origin: null, hadCookie: false },
      ],
    });

    await queue([{ status: 500, body: 'x' }]);
    expect((await host.inject({ method: 'DELETE', url: '/testhooks' })).statusCode).toBe(200);
    expect((await host.inject({ url: '/testhooks/requests' })).json()).toEqual({ count: 0, requests: [] });
    expect((await get()).statusCode).toBe(200); // the queued 500 is gone
  });

  it.each([
    ['no answers', {}],
    ['answers not an array', { answers: 'x' }],
    ['a status out of range', { answers: [{ status: 99 }] }],
    ['a negative delay', { answers: [{ delayMs: -1 }] }],
    ['a body that is an object', { answers: [{ body: { id: 'x' } }] }],
  ])('refuses %s with 400 in the JSON error shape', async (_name, payload) => {
    host = await build();
    const res = await host.inject({ method: 'POST', url: '/testhooks/answers', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 400, message: expect.any(String) } });
    expect((await get()).statusCode).toBe(200); // nothing was queued
  });
});
