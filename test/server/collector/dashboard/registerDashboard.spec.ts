import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerDashboard } from '../../../../server/collector/dashboard/registerDashboard';

const PAGE = '<!doctype html><title>VidFrame · collector</title><script type="module" src="/assets/dashboard-abc.js"></script>';

describe('registerDashboard: the collector dashboard page', () => {
  let distDir: string;
  let app: FastifyInstance;

  beforeEach(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'vidframe-dashboard-'));
    app = Fastify();
    await registerDashboard(app, { distDir });
  });
  afterEach(async () => {
    await app.close();
    rmSync(distDir, { recursive: true, force: true });
  });
  const build = (html = PAGE) => {
    mkdirSync(join(distDir, 'src', 'dashboard'), { recursive: true });
    writeFileSync(join(distDir, 'src', 'dashboard', 'index.html'), html);
  };

  it.each(['/collector', '/collector/', '/collector?token=abc'])('serves the built page at %s, not cached, never sent as a referrer', async (url) => {
    build();
    const reply = await app.inject({ method: 'GET', url });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(reply.body).toBe(PAGE);
  });

  it('needs no token: the page holds nothing secret (the data needs the token)', async () => {
    build();
    const reply = await app.inject({ method: 'GET', url: '/collector', headers: { authorization: 'Bearer wrong' } });
    expect(reply.statusCode).toBe(200);
  });

  it('answers 503 with a plain-text hint before the build, then the page once built (read on each request)', async () => {
    const before = await app.inject({ method: 'GET', url: '/collector' });
    expect(before.statusCode).toBe(503);
    expect(before.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(before.body).toMatch(/npm run build/);
    build('<!doctype html><title>first</title>');
    expect((await app.inject({ method: 'GET', url: '/collector' })).body).toContain('first');
    build('<!doctype html><title>rebuilt</title>');
    expect((await app.inject({ method: 'GET', url: '/collector/' })).body).toContain('rebuilt');
  });

  it('answers HEAD as GET without a body', async () => {
    build();
    const reply = await app.inject({ method: 'HEAD', url: '/collector' });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toBe('');
  });
});
