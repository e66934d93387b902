import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyReply } from 'fastify';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { allowOriginInCsp } from '../../../server/security/securityHeaders';
import type { PlayerConfig } from '../../../streams/config/playerConfig';

/** The embed page's attestation and ad-status configuration, and the CSP that lets both scripts run (issue 14). */
const mediaDir = resolve(__dirname, '../../../media');
let distDir: string;
let dataDir: string;
let app: VidFrameApp | undefined;

beforeAll(() => {
  distDir = mkdtempSync(join(tmpdir(), 'vidframe-dist-'));
  mkdirSync(join(distDir, 'src/embed'), { recursive: true });
  writeFileSync(
    join(distDir, 'src/embed/index.html'),
    '<html><head><!--vidframe:config--><script type="module" src="/assets/embed-X1.js"></script></head><body></body></html>',
  );
});
beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'vidframe-data-'))));
afterEach(async () => {
  await app?.close();
  app = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});
afterAll(() => rmSync(distDir, { recursive: true, force: true }));

const embed = async (url: string) => {
  const res = await app!.inject({ url, headers: { host: 'localhost:8080' } });
  const config = JSON.parse(/window\.vidframeConfig=(.*?);<\/script>/s.exec(res.body)![1]!) as PlayerConfig;
  const csp = String(res.headers['content-security-policy']);
  const directive = (name: string) =>
    csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `));
  return { config, directive };
};

describe('the embed configuration of attestation and the ad-status check', () => {
  it('names the program root-relative and the ad-status script on the ads origin, which the CSP allows to run', async () => {
    app = await buildApp({ distDir, mediaDir, dataDir, ads: { port: 8081, privateEmbedHosts: [] } });
    const { config, directive } = await embed('/embed/VFsunrise01');
    expect(config.args.attestation_program_url).toMatch(/^\/attestation\/program\.js\?v=[A-Za-z0-9_-]{16}$/);
    expect(config.args.ad_status_url).toBe('http://localhost:8081/pagead/ad_status.js');
    expect(config.args.anonymous_id_url).toBe('http://localhost:8081/pagead/id');
    expect(directive('script-src')).toMatch(/^script-src 'self' 'nonce-[^']+' http:\/\/localhost:8081$/);
    expect(directive('connect-src')).toBe("connect-src 'self' http://localhost:8081");
    // Other pages keep the plain policy.
    const other = await app.inject({ url: '/healthz', headers: { host: 'localhost:8080' } });
    expect(String(other.headers['content-security-policy'])).not.toContain('localhost:8081');
  });

  it('without an ads host: no ad-status URL and no other script origin; the program is still served', async () => {
    app = await buildApp({ distDir, mediaDir, dataDir });
    const { config, directive } = await embed('/embed/VFsunrise01');
    expect(config.args.ad_status_url).toBeUndefined();
    expect(directive('script-src')).toMatch(/^script-src 'self' 'nonce-[^']+'$/);
    const program = await app.inject({ url: config.args.attestation_program_url! });
    expect(program.statusCode).toBe(200);
    expect(program.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('picks a broken program variant from vf_attestation only with testHooks', async () => {
    app = await buildApp({ distDir, mediaDir, dataDir, testHooks: true });
    expect((await embed('/embed/VFsunrise01?vf_attestation=throw')).config.args.attestation_program_url).toBe('/attestation/program.js?variant=throw');
    expect((await embed('/embed/VFsunrise01?vf_attestation=nonsense')).config.args.attestation_program_url).toMatch(/\?v=/);
    await app.close();
    app = await buildApp({ distDir, mediaDir, dataDir });
    expect((await embed('/embed/VFsunrise01?vf_attestation=throw')).config.args.attestation_program_url).toMatch(/\?v=/);
  });
});

describe('allowOriginInCsp', () => {
  const replyWith = (csp: string | undefined) => {
    const headers: Record<string, unknown> = { 'content-security-policy': csp };
    const reply = { getHeader: (name: string) => headers[name], header: (name: string, value: unknown) => ((headers[name] = value), reply) };
    return { reply: reply as unknown as FastifyReply, csp: () => headers['content-security-policy'] };
  };

  it('adds a bare origin to one directive only', () => {
    const r = replyWith("default-src 'self';script-src 'self' 'nonce-abc';connect-src 'self'");
    allowOriginInCsp(r.reply, 'script-src', 'https://ads.example:8443');
    expect(r.csp()).toBe("default-src 'self';script-src 'self' 'nonce-abc' https://ads.example:8443;connect-src 'self'");
  });

  it('ignores anything but a bare http(s) origin, and a reply without a policy', () => {
    const policy = "script-src 'self';connect-src 'self'";
    for (const bad of ['*', "'unsafe-inline'", 'https://a.example/path', 'https://a.example; script-src *', 'javascript:x']) {
      const r = replyWith(policy);
      allowOriginInCsp(r.reply, 'script-src', bad);
      expect(r.csp()).toBe(policy);
    }
    const none = replyWith(undefined);
    allowOriginInCsp(none.reply, 'script-src', 'https://a.example');
    expect(none.csp()).toBeUndefined();
  });
});
