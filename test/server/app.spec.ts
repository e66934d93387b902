import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp, type VidFrameApp } from '../../server/app';
import type { PlayerConfig } from '../../streams/config/playerConfig';

/** The reference server through Fastify's inject, with a small stand-in build so these tests need no `vite build`. */
const mediaDir = resolve(__dirname, '../../media');
let app: VidFrameApp;
let distDir: string;
let dataDir: string;

beforeAll(async () => {
  distDir = mkdtempSync(join(tmpdir(), 'vidframe-dist-'));
  dataDir = mkdtempSync(join(tmpdir(), 'vidframe-data-'));
  mkdirSync(join(distDir, 'src/embed'), { recursive: true });
  mkdirSync(join(distDir, 'src/host'), { recursive: true });
  mkdirSync(join(distDir, 'assets'), { recursive: true });
  writeFileSync(
    join(distDir, 'src/embed/index.html'),
    '<html><head><title>VidFrame</title><!--vidframe:config--><script type="module" crossorigin src="/assets/embed-X1.js"></script><link rel="stylesheet" crossorigin href="/assets/embed-X1.css"></head><body></body></html>',
  );
  writeFileSync(join(distDir, 'src/host/index.html'), '<html><body>demo host</body></html>');
  writeFileSync(join(distDir, 'assets/embed-X1.js'), 'console.log(1)');
  app = await buildApp({ distDir, mediaDir, dataDir });
});
afterAll(async () => {
  await app.close();
  rmSync(distDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** The configuration a page carries, read back out of its script block. */
function inlinedConfig(html: string): PlayerConfig {
  const m = /<script nonce="[^"]+">window\.vidframeConfig=(.*?);<\/script>/.exec(html);
  if (!m) throw new Error('no inlined configuration');
  return JSON.parse(m[1]);
}

describe('GET /embed/{videoId}', () => {
  it('inlines the player configuration of spec §3', async () => {
    const res = await app.inject('/embed/VFsunrise01?autoplay=1&theme=light&ps=gvn&forced_experiments=a%3D1%2Cb&si=xyz&origin=https%3A%2F%2Fhost.example');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['x-frame-options']).toBeUndefined();
    const config = inlinedConfig(res.body);
    expect(config.args).toMatchObject({ video_id: 'VFsunrise01', autoplay: '1', theme: 'light', ps: 'gvn', fflags: 'a=1&b=true' });
    expect(config.args.playerVars).toEqual({ autoplay: '1', theme: 'light', ps: 'gvn', forced_experiments: 'a=1,b', origin: 'https://host.example' });
    expect(config.attrs).toEqual({ width: '100%', height: '100%', id: 'video-player' });
    expect(config.assets).toEqual({ js: '/assets/embed-X1.js', css: '/assets/embed-X1.css' });
    expect(config.loaded).toBe(true);
    const pr = config.args.player_response;
    expect(pr.playabilityStatus.status).toBe('OK');
    expect(pr.videoDetails).toMatchObject({ videoId: 'VFsunrise01', title: 'Sunrise over the test pattern' });
    expect(pr.streamingData!.formats.map((f) => f.quality)).toEqual(expect.arrayContaining(['small', 'medium']));
    for (const f of pr.streamingData!.formats) expect(f.url).toMatch(/^\/media\//);
    expect(pr.captions!.tracks.length).toBeGreaterThan(0);
  });

  it('sends a CSP any site may frame, whose nonce is the one inline script’s, and a fresh verifiable stream token', async () => {
    const [first, second] = [await app.inject('/embed/VFsunrise01'), await app.inject('/embed/VFsunrise01')];
    const csp = String(first.headers['content-security-policy']);
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(first.body).toContain(`<script nonce="${nonce}">window.vidframeConfig=`);
    expect(first.body.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]); // the only inline script
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    // No origin-keyed process for the embed (issue 15: it cost a cold framed load ≈ 100 ms in Chromium).
    expect(first.headers['origin-agent-cluster']).toBeUndefined();
    expect(first.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(first.headers['x-frame-options']).toBeUndefined();
    const [a, b] = [inlinedConfig(first.body).args.stream_token, inlinedConfig(second.body).args.stream_token];
    expect(a).toMatch(/^v1\./);
    expect(a).not.toBe(b); // one stream per page view
    const logged = await app.inject({
      method: 'POST',
      url: '/youtubei/v1/log_event',
      payload: { events: [{ clientEventId: 'x:1', playerReady: {} }], session_token: inlinedConfig(first.body).args.xsrf_token },
      headers: { 'x-vidframe-stream-token': a! },
    });
    expect(logged.statusCode).toBe(200);
  });

  it('keeps other pages unframeable by other sites', async () => {
    const res = await app.inject('/');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['origin-agent-cluster']).toBe('?1');
  });

  it('defaults autoplay to 0 and the theme to dark', async () => {
    const config = inlinedConfig((await app.inject('/embed/VFcitylight')).body);
    expect(config.args.autoplay).toBe('0');
    expect(config.args.theme).toBe('dark');
  });

  it('uses only root-relative URLs, whatever host the request came through', async () => {
    const res = await app.inject({ url: '/embed/VFsunrise01', headers: { host: 'cdn.example.com:8443', 'x-forwarded-proto': 'https' } });
    expect(res.body).not.toContain('cdn.example.com');
    expect(res.body).not.toMatch(/https?:\/\/(localhost|127\.0\.0\.1)/);
  });

  it.each([
    ['bad!id', 'api.invalidparam'],
    ['short', 'api.invalidparam'],
    ['VFunknown00', 'video.unavailable'],
    ['VFnoembed01', 'embedder.identity.denied'],
  ])('still serves the page for %s, carrying the error %s', async (id, errorCode) => {
    const res = await app.inject(`/embed/${encodeURIComponent(id)}`);
    expect(res.statusCode).toBe(200);
    expect(inlinedConfig(res.body).args.player_response.playabilityStatus.errorCode).toBe(errorCode);
  });

  it('never lets a query value close the script block', async () => {
    const res = await app.inject(`/embed/VFsunrise01?hl=${encodeURIComponent('</script><script>alert(1)</script>')}`);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(inlinedConfig(res.body).args.playerVars.hl).toBe('</script><script>alert(1)</script>');
  });
});

describe('media', () => {
  const file = 'videos/VFsunrise01/small.webm';
  const bytes = readFileSync(join(mediaDir, file));

  it('serves a whole file with long-lived caching and range support', async () => {
    const res = await app.inject(`/media/${file}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(String(res.headers['cache-control'])).toMatch(/max-age=31536000/);
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers a range with 206 and the right bytes', async () => {
    const res = await app.inject({ url: `/media/${file}`, headers: { range: 'bytes=10-29' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 10-29/${bytes.length}`);
    expect(res.rawPayload.equals(bytes.subarray(10, 30))).toBe(true);
  });

  it('answers an open-ended and a suffix range', async () => {
    const tail = await app.inject({ url: `/media/${file}`, headers: { range: `bytes=${bytes.length - 5}-` } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 5))).toBe(true);
    const suffix = await app.inject({ url: `/media/${file}`, headers: { range: 'bytes=-7' } });
    expect(suffix.rawPayload.equals(bytes.subarray(bytes.length - 7))).toBe(true);
  });

  it('answers 416 for a range past the end', async () => {
    const res = await app.inject({ url: `/media/${file}`, headers: { range: `bytes=${bytes.length + 10}-${bytes.length + 20}` } });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${bytes.length}`);
  });

  it.each(['/media/../package.json', '/media/..%2fpackage.json', '/media/%2e%2e/%2e%2e/etc/passwd', '/media/.hidden', '/media/videos/../../package.json'])(
    'refuses %s with a 4xx',
    async (url) => {
      const res = await app.inject(url);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).not.toContain('"name": "vidframe"');
    },
  );

  it('answers 404 with a clear JSON message for a missing file', async () => {
    const res = await app.inject('/media/videos/nothing.webm');
    expect(res.statusCode).toBe(404);
  });
});

describe('other routes', () => {
  it('serves the demo host page at /', async () => {
    const res = await app.inject('/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('demo host');
  });

  it('serves hashed assets as immutable', async () => {
    const res = await app.inject('/assets/embed-X1.js');
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['cache-control'])).toContain('immutable');
  });

  it('answers every 4xx in one JSON shape: a folder listing, an over-long id, a body of the wrong type', async () => {
    const folder = await app.inject('/media/');
    expect(folder.statusCode).toBe(403);
    expect(folder.json()).toEqual({ error: { code: 403, message: expect.any(String) } });
    const long = await app.inject(`/embed/${'a'.repeat(5000)}`);
    expect(long.statusCode).toBeGreaterThanOrEqual(400);
    expect(long.statusCode).toBeLessThan(500);
    expect(long.json().error.code).toBe(long.statusCode);
    const wrongType = await app.inject({ method: 'POST', url: '/youtubei/v1/player', payload: '<x/>', headers: { 'content-type': 'application/xml' } });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().error.message).toBe('Unsupported content type "application/xml": send application/json.');
  });

  it('answers an unknown route with a JSON 404 naming it', async () => {
    const res = await app.inject('/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 404, message: 'Nothing at GET /nope' } });
  });

  it('POST /youtubei/v1/player answers for a video and refuses a malformed body', async () => {
    // The anti-forgery token every POST carries comes with the embed page (spec §7).
    const session_token = inlinedConfig((await app.inject('/embed/VFoceanwave')).body).args.xsrf_token;
    const good = await app.inject({ method: 'POST', url: '/youtubei/v1/player', payload: { videoId: 'VFoceanwave', session_token } });
    expect(good.statusCode).toBe(200);
    expect(good.json().videoDetails.title).toBe('Ocean wave');
    const noId = await app.inject({ method: 'POST', url: '/youtubei/v1/player', payload: { other: 1, session_token } });
    expect(noId.statusCode).toBe(400);
    expect(noId.json().error.message).toContain('videoId');
    const badJson = await app.inject({ method: 'POST', url: '/youtubei/v1/player', payload: '{nope', headers: { 'content-type': 'application/json' } });
    expect(badJson.statusCode).toBe(400);
  });

  it('has no collector test routes (wipe, faults) unless test hooks are on', async () => {
    const headers = { authorization: `Bearer ${app.vidframe.adminToken}`, host: 'localhost' };
    expect((await app.inject({ method: 'GET', url: '/collector/api/stats', headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: '/collector/api/events', headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/collector/api/faults', payload: { status: 500, count: 1 }, headers })).statusCode).toBe(404);
    expect((await app.inject('/generate_204')).statusCode).toBe(204);
  });

  it('says the pages are not built when dist/ is missing', async () => {
    const bare = await buildApp({ distDir: join(distDir, 'missing'), mediaDir, dataDir });
    const res = await bare.inject('/embed/VFsunrise01');
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
    await bare.close();
  });
});
