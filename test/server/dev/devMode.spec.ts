import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { readConfig } from '../../../server/config';
import { readEmbedTemplate } from '../../../server/pages/embedPage';
import { isViteRequest, withNonces } from '../../../server/dev/registerViteDev';

/**
 * Issue 16 item 4, the parts of `npm run dev` that need no browser: how dev mode is turned on, the per-reply nonces
 * of the pages Vite transforms, the embed template read from Vite's HTML, and that production stays as it was (no
 * source served, no websocket in the CSP). The dev server itself is proven in Chromium: test/e2e/devServer.e2e.ts.
 */
describe('development mode (npm run dev)', () => {
  it('is VIDFRAME_DEV=1 (npm run dev passes --dev); anything but 0 or 1 is refused', () => {
    expect(readConfig({}).app.dev).toBe(false);
    expect(readConfig({ VIDFRAME_DEV: '0' }).app.dev).toBe(false);
    expect(readConfig({ VIDFRAME_DEV: '1' }).app.dev).toBe(true);
    expect(() => readConfig({ VIDFRAME_DEV: 'yes' })).toThrow('VIDFRAME_DEV must be 1 (development: pages from source, hot reload) or 0, not "yes".');
  });

  it("puts the reply's script nonce on scripts and its style nonce on Vite's csp-nonce meta tag and styles", () => {
    const placeholder = 'vidframe-dev-nonce-placeholder';
    const html = [
      `<script type="module" nonce="${placeholder}">import "/@react-refresh";</script>`,
      `<script type="module" src="/@vite/client" nonce="${placeholder}"></script>`,
      `<meta property="csp-nonce" nonce="${placeholder}">`,
      `<style nonce="${placeholder}">a{}</style>`,
      `<link rel="modulepreload" href="/x.js" nonce="${placeholder}">`,
      `<p>nonce="${placeholder}" in text stays</p>`,
    ].join('\n');
    expect(withNonces(html, { script: 'S1', style: 'T2' }).split('\n')).toEqual([
      '<script type="module" nonce="S1">import "/@react-refresh";</script>',
      '<script type="module" src="/@vite/client" nonce="S1"></script>',
      '<meta property="csp-nonce" nonce="T2">',
      '<style nonce="T2">a{}</style>',
      '<link rel="modulepreload" href="/x.js" nonce="S1">',
      `<p>nonce="${placeholder}" in text stays</p>`,
    ]);
  });

  it("reads the embed's own script from Vite's HTML, not Vite's client", () => {
    const template = readEmbedTemplate(
      '<html><head><script type="module" src="/@vite/client"></script><!--vidframe:config--></head><body><script type="module" src="/src/embed/main.ts"></script></body></html>',
    );
    expect(template.assets.js).toBe('/src/embed/main.ts');
  });

  it('hands Vite only what the pages load: its paths, src/, streams/, dependencies, its cache and public/ files', () => {
    const publicDir = resolve(__dirname, '../../../public');
    for (const url of [
      '/@vite/client',
      '/@react-refresh',
      '/src/embed/main.ts?t=1',
      '/streams/timing.ts',
      '/node_modules/.vite/deps/react.js',
      '/.vite/deps/react.js?v=1',
      '/favicon.svg',
    ]) {
      expect({ url, vite: isViteRequest(url, publicDir) }).toEqual({ url, vite: true });
    }
    for (const url of [
      '/server/config.ts',
      '/package.json',
      '/.data/secrets/admin-token',
      '/.env',
      '/src/../server/app.ts',
      '/src/%2e%2e/server/app.ts',
      '/%E0%A4%A',
      '/nothing.txt',
    ]) {
      expect({ url, vite: isViteRequest(url, publicDir) }).toEqual({ url, vite: false });
    }
  });

  describe('production (no dev) is unchanged', () => {
    let app: VidFrameApp;
    let distDir: string;
    let dataDir: string;
    beforeAll(async () => {
      distDir = mkdtempSync(join(tmpdir(), 'vidframe-dist-'));
      dataDir = mkdtempSync(join(tmpdir(), 'vidframe-data-'));
      mkdirSync(join(distDir, 'src/embed'), { recursive: true });
      writeFileSync(
        join(distDir, 'src/embed/index.html'),
        '<html><head><!--vidframe:config--><script type="module" src="/assets/embed-X1.js"></script></head></html>',
      );
      app = await buildApp({ distDir, dataDir, mediaDir: resolve(__dirname, '../../../media') });
      // Every plugin loads here, within this hook's own bound, not in the first request's test.
      await app.ready();
    }, 30_000);
    afterAll(async () => {
      await app.close();
      rmSync(distDir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('serves neither the sources nor Vite, and its pages allow no websocket', async () => {
      for (const url of ['/src/embed/main.ts', '/@vite/client', '/streams/timing.ts']) {
        const res = await app.inject({ url });
        expect([url, res.statusCode]).toEqual([url, 404]);
      }
      const embed = await app.inject({ url: '/embed/VFsunrise01' });
      expect(embed.statusCode).toBe(200);
      const csp = String(embed.headers['content-security-policy']);
      expect(csp).toMatch(/connect-src 'self'(;|$)/);
      expect(csp).not.toMatch(/ws:|wss:|unsafe-inline/);
      expect(embed.body).not.toContain('/@vite/client');
    });
  });
});
