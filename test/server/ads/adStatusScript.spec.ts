import type { FastifyInstance } from 'fastify';
import { runInNewContext } from 'node:vm';
import { AD_STATUS_GLOBAL, AD_STATUS_SCRIPT_PATH, createAdsHost } from '../../../server/ads/createAdsHost';

jest.mock('cookie', () => ({ stringifySetCookie: ({ name, value }: { name: string; value: string }) => `${name}=${value}` }));

const allowedOrigin = (origin: string) => origin === 'http://localhost:8080';

describe('the ads host: the ad-status script (spec §4/§7)', () => {
  let host: FastifyInstance;
  afterEach(() => host?.close());

  it('is JavaScript that sets the global the check looks for, cacheable, with no cookie', async () => {
    host = await createAdsHost({ allowedOrigin });
    const res = await host.inject({ url: AD_STATUS_SCRIPT_PATH, headers: { origin: 'https://anywhere.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['set-cookie']).toBeUndefined();
    const window: Record<string, unknown> = {};
    runInNewContext(res.body, { window });
    expect(window[AD_STATUS_GLOBAL]).toBe(true);
  });

  it('has no stall hook without testHooks', async () => {
    host = await createAdsHost({ allowedOrigin });
    expect((await host.inject({ method: 'POST', url: '/testhooks/ad-status', payload: { delayMs: 10 } })).statusCode).toBe(404);
  });

  it('with testHooks: POST /testhooks/ad-status holds the script until the host closes; bad input is a 400 naming the field', async () => {
    host = await createAdsHost({ allowedOrigin, testHooks: true });
    const bad = await host.inject({ method: 'POST', url: '/testhooks/ad-status', payload: { delayMs: -1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('delayMs');
    expect((await host.inject({ method: 'POST', url: '/testhooks/ad-status', payload: { delayMs: 120_000 } })).json()).toEqual({ delayMs: 120_000 });
    let settled = false;
    const held = host.inject({ url: AD_STATUS_SCRIPT_PATH }).then((res) => ((settled = true), res));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    await host.close();
    expect((await held).headers['cache-control']).toBe('no-store');
  });

  it('DELETE /testhooks ends the stall for later requests', async () => {
    host = await createAdsHost({ allowedOrigin, testHooks: true });
    await host.inject({ method: 'POST', url: '/testhooks/ad-status', payload: { delayMs: 120_000 } });
    await host.inject({ method: 'DELETE', url: '/testhooks' });
    expect((await host.inject({ url: AD_STATUS_SCRIPT_PATH })).headers['cache-control']).toBe('public, max-age=3600');
  });
});
