import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { posterPath } from '../../../server/media/registerPosters';

/** The posters route (issue 16 item 3: the React facade's image) through Fastify's inject, on the real catalogue. */
const mediaDir = resolve(__dirname, '../../../media');
let app: VidFrameApp;
let distDir: string;
let dataDir: string;

beforeAll(async () => {
  distDir = mkdtempSync(join(tmpdir(), 'vidframe-dist-'));
  dataDir = mkdtempSync(join(tmpdir(), 'vidframe-data-'));
  mkdirSync(join(distDir, 'src/host'), { recursive: true });
  writeFileSync(join(distDir, 'src/host/index.html'), '<html><body>demo host</body></html>');
  app = await buildApp({ distDir, mediaDir, dataDir });
});
afterAll(async () => {
  await app.close();
  rmSync(distDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const catalog = JSON.parse(readFileSync(join(mediaDir, 'catalog.json'), 'utf8')) as { videos: Array<{ id: string; poster?: string }> };

describe('GET /vi/{videoId}/poster', () => {
  it.each(catalog.videos.filter((v) => v.poster).map((v) => [v.id, v.poster!]))('serves %s’s catalogue poster, cacheable, to any site', async (id, file) => {
    const res = await app.inject(posterPath(id));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.equals(readFileSync(join(mediaDir, file)))).toBe(true);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });

  it('answers a revalidation with 304 while the file is the same', async () => {
    const first = await app.inject(posterPath('VFcitylight'));
    const again = await app.inject({ url: posterPath('VFcitylight'), headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await app.inject(posterPath('VFoceanwave'));
    expect(other.headers.etag).not.toBe(first.headers.etag);
  });

  it('refuses a malformed id (400) and answers 404 for a video the catalogue does not hold', async () => {
    const bad = await app.inject('/vi/short/poster');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/videoId/);
    const unknown = await app.inject(posterPath('VFunknown00'));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 404, message: 'No video VFunknown00 in the catalogue' } });
  });
});

describe('the demo page’s img-src', () => {
  const imgSrc = (csp: unknown) => String(csp).split(';').map((d) => d.trim()).find((d) => d.startsWith('img-src'));

  it('adds the embed origin named by ?host= (its facades show that origin’s posters), nothing else', async () => {
    const plain = await app.inject('/');
    expect(imgSrc(plain.headers['content-security-policy'])).toBe("img-src 'self' data: blob:");
    const hosted = await app.inject(`/?host=${encodeURIComponent('http://127.0.0.1:41234/some/path')}`);
    expect(imgSrc(hosted.headers['content-security-policy'])).toBe("img-src 'self' data: blob: http://127.0.0.1:41234");
    for (const host of ['javascript:alert(1)', "http://a.example 'unsafe-inline'", 'http://', '*']) {
      const res = await app.inject(`/?host=${encodeURIComponent(host)}`);
      expect(res.statusCode).toBe(200);
      expect(imgSrc(res.headers['content-security-policy'])).toBe("img-src 'self' data: blob:");
    }
  });
});
