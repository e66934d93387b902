import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { ConfigError, readConfig } from '../../../server/config';
import { REDACTED, urlForLog } from '../../../server/http/logging';

const ADMIN = 'log-redaction-admin-token-0123456789';
const SECRET = 'SECRET-c0ffee-0123456789';

/**
 * The access log is JSON lines (Fastify's logger) that never carry a credential: the query parameters that hold one
 * (`token`, `key`, anything named like a token, key, secret or password) keep their name and lose their value, and
 * the `Authorization` and `Cookie` headers are never written. The rest of each line still says what was asked.
 */
describe('the access log', () => {
  let dataDir: string;
  let app: VidFrameApp;
  let lines: string[];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'log-redaction-'));
    lines = [];
    app = await buildApp({ dataDir, adminToken: ADMIN, seedDemoAccounts: false, logger: { stream: { write: (line: string) => lines.push(line) } } });
  });
  afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs a request with a secret in its URL and headers as JSON lines without the secret', async () => {
    const query = `token=${SECRET}&key=${SECRET}&access_token=${SECRET}&clientSecret=${SECRET}&password=${SECRET}&videoId=VFsunrise01`;
    const headers = { authorization: `Bearer ${SECRET}`, cookie: `session=${SECRET}`, host: 'localhost' };
    expect((await app.inject({ url: `/healthz?${query}`, headers })).statusCode).toBe(200);
    expect((await app.inject({ url: `/collector/api/events?token=${SECRET}`, headers })).statusCode).toBe(401);
    expect(
      (await app.inject({ url: `/collector/api/events?token=${ADMIN}`, headers: { authorization: `Bearer ${ADMIN}`, host: 'localhost' } })).statusCode,
    ).toBe(200);

    const output = lines.join('');
    expect(output).not.toContain(SECRET);
    expect(output).not.toContain(ADMIN);
    const records = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; req?: { url: string; method: string } });
    const urls = records.flatMap((record) => (record.req ? [record.req.url] : []));
    expect(urls).toEqual([
      `/healthz?token=${REDACTED}&key=${REDACTED}&access_token=${REDACTED}&clientSecret=${REDACTED}&password=${REDACTED}&videoId=VFsunrise01`,
      `/collector/api/events?token=${REDACTED}`,
      `/collector/api/events?token=${REDACTED}`,
    ]);
    expect(records.filter((record) => record.msg === 'request completed')).toHaveLength(3);
  });

  it('logs an error without the secrets of the request that caused it', async () => {
    await app.inject({
      method: 'POST',
      url: `/youtubei/v1/log_event?key=${SECRET}`,
      payload: '{broken',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` },
    });
    expect(lines.join('')).not.toContain(SECRET);
    expect(lines.length).toBeGreaterThan(0);
  });

  it('keeps URLs without secrets as sent, and redacts a secret name however it is escaped', () => {
    expect(urlForLog('/embed/VFsunrise01?autoplay=1&start=%2030')).toBe('/embed/VFsunrise01?autoplay=1&start=%2030');
    expect(urlForLog('/a?%74oken=x&b')).toBe(`/a?%74oken=${REDACTED}&b`);
    expect(urlForLog('/a?%zz=1&api_key=x')).toBe(`/a?%zz=1&api_key=${REDACTED}`);
    expect(urlForLog('/plain')).toBe('/plain');
  });
});

describe('LOG', () => {
  it('logs by default, LOG=0 turns the access log off, anything else is a configuration error', () => {
    expect(readConfig({}).app).toMatchObject({ logger: true, logRequests: true });
    expect(readConfig({ LOG: '1' }).app).toMatchObject({ logger: true, logRequests: true });
    expect(readConfig({ LOG: '0' }).app).toMatchObject({ logger: true, logRequests: false });
    expect(() => readConfig({ LOG: 'yes' })).toThrow(ConfigError);
  });

  it('with LOG=0 a request writes no line, an error still does', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'log-off-'));
    const lines: string[] = [];
    const app = await buildApp({ dataDir, seedDemoAccounts: false, logRequests: false, logger: { stream: { write: (line: string) => lines.push(line) } } });
    try {
      expect((await app.inject('/healthz')).statusCode).toBe(200);
      expect(lines).toEqual([]);
      app.log.error('an error');
      expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['an error']);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
