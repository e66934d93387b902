import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type VidFrameApp } from '../../server/app';
import { createStreamTokens } from '../../server/tokens/streamTokens';
import { apiTokensFor } from '../helpers/apiTokens';
import { readConfig } from '../../server/config';

const ADMIN = 'security-admin-token-0123456789';
const SECRET = 'security-stream-secret-0123456789-abcdefgh';
const tokens = createStreamTokens({ secret: SECRET });
const { antiForgeryToken } = apiTokensFor(SECRET);
const body = (ids: string[]) =>
  JSON.stringify({ session_token: antiForgeryToken(), events: ids.map((id) => ({ clientEventId: id, playerStateChange: { state: 1 } })) });

describe('security of the reference server', () => {
  let dataDir: string;
  let app: VidFrameApp;
  const build = (extra: Parameters<typeof buildApp>[0] = {}) => buildApp({ dataDir, adminToken: ADMIN, streamSecret: SECRET, ...extra });
  const log = (token: string, ids: string[]) =>
    app.inject({
      method: 'POST',
      url: '/youtubei/v1/log_event',
      payload: body(ids),
      headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': token },
    });
  const asAdmin = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ url, headers: { authorization: `Bearer ${ADMIN}`, host: 'localhost:8080', ...headers } });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'security-'));
  });
  afterEach(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const READ_ROUTES = [
    '/collector/api/stats',
    '/collector/api/events',
    '/collector/api/requests',
    '/collector/api/errors',
    '/collector/api/timeseries?sinceMs=0&untilMs=60000&bucketMs=60000',
    '/metrics',
  ];

  it.each(READ_ROUTES)('%s: 401 without the token or with a wrong one, 403 for a foreign Host, 200 with both right', async (route) => {
    app = await build();
    const none = await app.inject({ url: route, headers: { host: 'localhost' } });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="vidframe-admin"');
    expect(none.json().error.message).toMatch(/Authorization: Bearer/);
    expect((await asAdmin(route, { authorization: `Bearer ${ADMIN}x` })).statusCode).toBe(401);
    expect((await asAdmin(route, { authorization: ADMIN })).statusCode).toBe(401); // no scheme
    const rebound = await asAdmin(route, { host: 'attacker.example:8080' });
    expect(rebound.statusCode).toBe(403);
    expect(rebound.json().error.message).toMatch(/do not answer to the host "attacker.example:8080"/);
    expect((await asAdmin(route)).statusCode).toBe(200);
  });

  it('refuses an admin token shorter than 16 characters', async () => {
    await expect(buildApp({ dataDir, adminToken: 'abc', streamSecret: SECRET })).rejects.toThrow(
      'The admin token (VIDFRAME_ADMIN_TOKEN) must be at least 16 characters',
    );
  });

  it('answers admin routes to the host names it is configured with, and to no others', async () => {
    app = await build({ adminHosts: ['stats.example.com'] });
    expect((await asAdmin('/collector/api/stats', { host: 'stats.example.com' })).statusCode).toBe(200);
    expect((await asAdmin('/collector/api/stats', { host: 'localhost' })).statusCode).toBe(403);
  });

  it('generates an admin token into the data folder on first start (mode 0600) and keeps it across restarts', async () => {
    app = await buildApp({ dataDir, streamSecret: SECRET });
    const first = app.vidframe;
    expect(first.adminTokenSource).toBe('generated');
    expect(first.adminToken).toMatch(/^[\w-]{32}$/);
    expect(statSync(join(dataDir, 'secrets', 'admin-token')).mode & 0o777).toBe(0o600);
    await app.close();
    app = await buildApp({ dataDir, streamSecret: SECRET });
    expect(app.vidframe).toMatchObject({ adminToken: first.adminToken, adminTokenSource: 'file' });
  });

  it('rate-limits log requests per client address with 429 and Retry-After; waiting it out loses nothing', async () => {
    app = await build({ rateLimit: { max: 3, windowMs: 2_000 } });
    const from = (remoteAddress: string, token: string, ids: string[], headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: '/youtubei/v1/log_event',
        payload: body(ids),
        remoteAddress,
        headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': token, ...headers },
      });
    const answers = [];
    // New streams (anyone can mint them by loading embed pages) and forged X-Forwarded-For do not reset the count.
    for (let i = 0; i < 5; i++) answers.push(await from('10.0.0.1', tokens.issue().token, [`r:${i}`], { 'x-forwarded-for': `192.0.2.${i}` }));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429, 429]);
    const limited = answers[3];
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(2);
    expect(limited.json()).toEqual({ error: { code: 429, message: expect.stringMatching(/^Too many log requests \(3 per window\): retry after/) } });
    // Another address is not held back by this one.
    expect((await from('10.0.0.2', tokens.issue().token, ['o:1'])).statusCode).toBe(200);
    // The client waits Retry-After (as its retry queue does) and resends the refused two.
    await new Promise((resolve) => setTimeout(resolve, Number(limited.headers['retry-after']) * 1000 + 100));
    const client = tokens.issue().token;
    expect((await from('10.0.0.1', client, ['r:3'])).statusCode).toBe(200);
    expect((await from('10.0.0.1', client, ['r:4'])).statusCode).toBe(200);
    expect((await asAdmin('/collector/api/stats')).json().events).toBe(6);
  });

  it('believes X-Forwarded-For only from the proxies it is told to trust', async () => {
    app = await build({ rateLimit: { max: 1, windowMs: 60_000 }, trustProxy: '10.0.0.9' });
    const via = (remoteAddress: string, forwardedFor: string) =>
      app.inject({
        method: 'POST',
        url: '/youtubei/v1/log_event',
        payload: body([`x:${forwardedFor}`]),
        remoteAddress,
        headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': tokens.issue().token, 'x-forwarded-for': forwardedFor },
      });
    // Through the trusted proxy, two viewers are two clients…
    expect((await via('10.0.0.9', '198.51.100.1')).statusCode).toBe(200);
    expect((await via('10.0.0.9', '198.51.100.2')).statusCode).toBe(200);
    // …straight from elsewhere, the header names nobody.
    expect((await via('10.0.0.7', '198.51.100.3')).statusCode).toBe(200);
    expect((await via('10.0.0.7', '198.51.100.4')).statusCode).toBe(429);
  });

  it('exposes Prometheus metrics: requests by route and status, events by outcome, store latency', async () => {
    app = await build();
    const { token } = tokens.issue();
    await log(token, ['m:1', 'm:2']);
    await log(token, ['m:2', 'm:3']);
    // m:3 again with another payload: a conflict.
    const conflicting = JSON.stringify({ session_token: antiForgeryToken(), events: [{ clientEventId: 'm:3', playerStateChange: { state: 2 } }] });
    const headers = { 'content-type': 'application/json', 'x-vidframe-stream-token': token };
    expect((await app.inject({ method: 'POST', url: '/youtubei/v1/log_event', payload: conflicting, headers })).json()).toMatchObject({
      collector: { conflicts: 1 },
    });
    await log('forged', ['m:9']);
    const text = (await asAdmin('/metrics')).body;
    expect(text).toContain('vidframe_collector_events_total{outcome="accepted",endpoint="log_event"} 3');
    expect(text).toContain('vidframe_collector_events_total{outcome="duplicate",endpoint="log_event"} 1');
    expect(text).toContain('vidframe_collector_events_total{outcome="conflict",endpoint="log_event"} 1');
    expect(text).toContain('vidframe_collector_requests_refused_total{reason="token"} 1');
    expect(text).toContain('vidframe_http_requests_total{method="POST",route="/youtubei/v1/log_event",status="200"} 3');
    expect(text).toContain('vidframe_http_requests_total{method="POST",route="/youtubei/v1/log_event",status="401"} 1');
    expect(text).toMatch(/vidframe_collector_store_duration_seconds_count\{store="sqlite",operation="recordLogRequest"\} 3/);
  });

  it('is ready only while its store answers', async () => {
    app = await build();
    expect((await app.inject('/readyz')).json()).toEqual({ ready: true, store: 'sqlite', state: 'sqlite' });
    app.vidframe.store.ping = () => Promise.reject(new Error('disk gone'));
    const res = await app.inject('/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ ready: false, store: 'sqlite' });
    expect(JSON.stringify(res.json())).not.toContain('disk gone');
  });

  it('stops gracefully: requests in flight are answered and their events committed before the store closes', async () => {
    app = await build();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address() as { port: number };
    // A slow disk: every write takes 300 ms, so the stop begins while all 20 are inside the store.
    const store = app.vidframe.store;
    const write = store.recordLogRequest.bind(store);
    let inside = 0;
    store.recordLogRequest = async (request, events) => {
      inside += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
      return write(request, events);
    };
    const { token } = tokens.issue();
    const inflight = Array.from({ length: 20 }, (_, i) =>
      fetch(`http://127.0.0.1:${address.port}/youtubei/v1/log_event`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': token },
        body: body([`g:${i}`]),
      }).then((r) => r.status),
    );
    while (inside < 20) await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all([app.close(), ...inflight]);
    expect(await Promise.all(inflight)).toEqual(Array(20).fill(200));
    app = await build();
    expect((await asAdmin('/collector/api/stats')).json().events).toBe(20);
  }, 30_000);

  it('refuses bad configuration with a clear message', () => {
    expect(() => readConfig({ PORT: 'eighty' })).toThrow('PORT must be a whole number from 0 to 65535, not "eighty".');
    expect(() => readConfig({ VIDFRAME_RATE_LIMIT: 'lots' })).toThrow('VIDFRAME_RATE_LIMIT must be max/windowMs (e.g. 300/60000) or off, not "lots".');
    expect(() => readConfig({ VIDFRAME_RETENTION_DAYS: '-3' })).toThrow('VIDFRAME_RETENTION_DAYS must be a whole number of days ≥ 0, not "-3".');
    expect(() => readConfig({ VIDFRAME_TRUST_PROXY: 'everyone' })).toThrow(
      'VIDFRAME_TRUST_PROXY must be true, a hop count or comma-separated addresses/CIDRs, not "everyone".',
    );
    expect(readConfig({ VIDFRAME_RATE_LIMIT: 'off', HOST: '0.0.0.0' }).app).toMatchObject({
      rateLimit: false,
      adminHosts: ['localhost', '127.0.0.1', '[::1]', '0.0.0.0'],
      retentionDays: 90,
      trustProxy: false,
    });
    expect(readConfig({ HOST: '::', VIDFRAME_TRUST_PROXY: '2' }).app).toMatchObject({ adminHosts: ['localhost', '127.0.0.1', '[::1]', '[::]'], trustProxy: 2 });
    expect(readConfig({}).app.rateLimit).toEqual({ max: 1200, windowMs: 60_000 });
  });
});
