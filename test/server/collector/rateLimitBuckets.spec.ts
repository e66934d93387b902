import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { COLLECTOR_RATE_LIMIT_MAX, COLLECTOR_RATE_LIMIT_PER_STREAM_MAX } from '../../../server/collector/limits';
import type { PlayerConfig } from '../../../streams/config/playerConfig';

const ADMIN = 'admin-token-for-the-rate-limit-tests';
const mediaDir = resolve(__dirname, '../../../media');
const NAT = '203.0.113.7';

/**
 * Write rate limits count unverified junk apart from verified traffic: junk (no stream token, or one that does not
 * verify) per address in its own bucket; verified requests per stream token, and per address in a bucket of their own.
 */
describe('log request rate limits: junk apart from verified viewers', () => {
  let dataDir: string;
  let distDir: string;
  let app: VidFrameApp;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'rate-buckets-data-'));
    distDir = mkdtempSync(join(tmpdir(), 'rate-buckets-dist-'));
    mkdirSync(join(distDir, 'src/embed'), { recursive: true });
    writeFileSync(join(distDir, 'src/embed/index.html'), '<html><head><!--vidframe:config--></head><body></body></html>');
  });
  afterEach(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
  });

  /** A viewer as the embed page makes one: its stream token and anti-forgery token, read from the page's config. */
  const viewer = async () => {
    const page = await app.inject({ url: '/embed/VFsunrise01', remoteAddress: NAT });
    const m = /<script nonce="[^"]+">window\.vidframeConfig=(.*?);<\/script>/.exec(page.body);
    if (!m) throw new Error('no inlined configuration');
    const { args } = JSON.parse(m[1]) as PlayerConfig;
    return { streamToken: args.stream_token!, xsrf: args.xsrf_token! };
  };
  const log = (headers: Record<string, string | string[]>, payload: unknown, remoteAddress = NAT) =>
    app.inject({
      method: 'POST',
      url: '/youtubei/v1/log_event',
      remoteAddress,
      payload: JSON.stringify(payload),
      headers: { 'content-type': 'application/json', ...headers },
    });
  const send = (v: { streamToken: string; xsrf: string }, id: string) =>
    log({ 'x-vidframe-stream-token': v.streamToken }, { session_token: v.xsrf, events: [{ clientEventId: id, playerReady: {} }] });
  const storedEvents = async () =>
    (await app.inject({ url: '/collector/api/stats', headers: { authorization: `Bearer ${ADMIN}`, host: 'localhost' } })).json().events;

  it('stores 10 real viewers at once behind an address that just sent 1,200 token-less bodies, and still limits the junk', async () => {
    app = await buildApp({ dataDir, distDir, mediaDir, adminToken: ADMIN });
    const viewers = [];
    for (let i = 0; i < 10; i++) viewers.push(await viewer());
    for (let i = 0; i < COLLECTOR_RATE_LIMIT_MAX; i++) expect((await log({}, {})).statusCode).toBe(401);
    const answers = await Promise.all(viewers.map((v, i) => send(v, `v${i}:1`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(await storedEvents()).toBe(10);
    // Junk beyond its own bucket is refused before anything is read, with Retry-After; the viewers go on.
    const junk = await log({}, {});
    expect(junk.statusCode).toBe(429);
    expect(Number(junk.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(junk.json().error.message).toMatch(/^Too many log requests without a valid stream token \(1200 per window\): retry after/);
    expect((await log({ 'x-vidframe-stream-token': 'v1.forged.token' }, {})).statusCode).toBe(429);
    expect((await send(viewers[0]!, 'v0:2')).statusCode).toBe(200);
    // Another address's junk has its own bucket.
    expect((await log({}, {}, '198.51.100.9')).statusCode).toBe(401);
  });

  it('limits each verified stream on its own, so one stream cannot use up its neighbours’ allowance', async () => {
    app = await buildApp({ dataDir, distDir, mediaDir, adminToken: ADMIN });
    const [greedy, quiet] = [await viewer(), await viewer()];
    for (let i = 0; i < COLLECTOR_RATE_LIMIT_PER_STREAM_MAX; i++) expect((await send(greedy, `g:${i}`)).statusCode).toBe(200);
    const limited = await send(greedy, 'g:over');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toMatch(/^Too many log requests for this stream \(120 per window\): retry after/);
    expect((await send(quiet, 'q:1')).statusCode).toBe(200);
  });

  it('bounds verified traffic per address too (anyone can mint streams), in a bucket junk does not touch', async () => {
    app = await buildApp({ dataDir, distDir, mediaDir, adminToken: ADMIN, rateLimit: { max: 3, windowMs: 60_000, unverifiedMax: 2 } });
    for (let i = 0; i < 2; i++) expect((await log({}, {})).statusCode).toBe(401);
    expect((await log({}, {})).statusCode).toBe(429);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await send(await viewer(), `m:${i}`)).statusCode);
    expect(answers).toEqual([200, 200, 200, 429]);
  });

  it('keys garbage stream tokens as junk without failing: arrays, huge, odd characters', async () => {
    app = await buildApp({ dataDir, distDir, mediaDir, adminToken: ADMIN, rateLimit: { max: 3, windowMs: 60_000, unverifiedMax: 3 } });
    const garbage: (string | string[])[] = [['v1.a', 'v1.b'], 'v1.'.repeat(100_000), 'v1.ké\u0000y.x.y.z'];
    const codes = [];
    for (const token of garbage) codes.push((await log({ 'x-vidframe-stream-token': token }, {})).statusCode);
    expect(codes).toEqual([401, 401, 401]);
    expect((await log({ 'x-vidframe-stream-token': 'v1.x' }, {})).statusCode).toBe(429);
    // IPv6 addresses count by their /64, so one subscriber cannot step round the junk bucket.
    const codesV6 = [];
    for (let i = 1; i <= 4; i++) codesV6.push((await log({}, {}, `2001:db8::${i}`)).statusCode);
    expect(codesV6).toEqual([401, 401, 401, 429]);
  });
});
