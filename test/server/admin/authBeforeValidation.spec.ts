import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';

const ADMIN = 'auth-order-admin-token-0123456789';

/**
 * Every route behind the admin guard authenticates before it validates: a request without the admin token learns
 * nothing about the route's parameters (401, never the schema's 400), one from a foreign Host is 403 first, and only
 * the admin's own bad input is a 400 with the schema's message. The routes are those of the whole app, test hooks on.
 */
describe('admin routes: authentication before validation', () => {
  let dataDir: string;
  let app: VidFrameApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'auth-order-'));
    app = await buildApp({ dataDir, adminToken: ADMIN, testHooks: true, seedDemoAccounts: false, rateLimit: false });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Each guarded route with input its schema refuses. */
  const BAD_INPUT = [
    { method: 'GET', url: '/collector/api/events?limit=100000' },
    { method: 'GET', url: '/collector/api/requests?limit=0' },
    { method: 'GET', url: '/collector/api/errors?limit=-1' },
    { method: 'GET', url: '/collector/api/pings?kind=nope' },
    { method: 'GET', url: '/collector/api/timeseries?sinceMs=x' },
    { method: 'POST', url: '/collector/api/faults', payload: '{not json' },
  ] as const;
  /** Guarded routes without parameters: still 401 without the token. */
  const NO_INPUT = [
    { method: 'GET', url: '/collector/api/stats' },
    { method: 'GET', url: '/metrics' },
    { method: 'DELETE', url: '/collector/api/events' },
    { method: 'DELETE', url: '/collector/api/faults' },
  ] as const;

  const send = (route: { method: string; url: string; payload?: string }, headers: Record<string, string>) =>
    app.inject({
      method: route.method as 'GET',
      url: route.url,
      ...(route.payload !== undefined ? { payload: route.payload } : {}),
      headers: { host: 'localhost:8080', ...(route.payload !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    });

  it.each(BAD_INPUT)('$method $url without the token is 401, with a wrong one 401, with the token 400', async (route) => {
    const anonymous = await send(route, {});
    expect({ status: anonymous.statusCode, body: anonymous.json() }).toEqual({
      status: 401,
      body: { error: { code: 401, message: expect.stringContaining('Authorization: Bearer') } },
    });
    expect(anonymous.headers['www-authenticate']).toContain('Bearer');
    expect((await send(route, { authorization: 'Bearer wrong-token-0123456789' })).statusCode).toBe(401);
    const admin = await send(route, { authorization: `Bearer ${ADMIN}` });
    expect(admin.statusCode).toBe(400);
    expect(admin.json().error.message).toEqual(expect.any(String));
  });

  it.each([...BAD_INPUT, ...NO_INPUT])('$method $url from a foreign Host is 403 before anything else', async (route) => {
    expect((await send(route, { host: 'evil.example', authorization: `Bearer ${ADMIN}` })).statusCode).toBe(403);
    expect((await send(route, { host: 'evil.example' })).statusCode).toBe(403);
  });

  it.each(NO_INPUT)('$method $url without the token is 401', async (route) => {
    expect((await send(route, {})).statusCode).toBe(401);
    expect((await send(route, { authorization: `Bearer ${ADMIN}` })).statusCode).toBeLessThan(300);
  });

  it('a body larger than the limit, without the token, is 401: nothing is read before authentication', async () => {
    const reply = await send({ method: 'POST', url: '/collector/api/faults', payload: 'x'.repeat(2 * 1024 * 1024) }, {});
    expect(reply.statusCode).toBe(401);
  });
});
