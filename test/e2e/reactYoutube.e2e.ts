import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';

/**
 * The react-youtube drop-in where a developer meets it: react-youtube's kind of example app
 * (test/package/consumer/react-youtube-example.tsx, its react-youtube import line swapped for `vidframe/react`) is
 * bundled by Vite against the built package (`dist/package`, what `npm pack` ships) and React from this repository,
 * served by a bare third-party host and pointed at the embed on another origin, in real Chromium. Needs
 * `npm run build`. Every wait is on a condition in the page.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

const root = resolve(__dirname, '../..');
const example = join(root, 'test/package/consumer/react-youtube-example.tsx');

/** Bundles the example app into one module script (Vite's CLI: Vite is ESM only, Jest runs CommonJS here). */
function bundleExample(): string {
  const work = join(root, 'dist/e2e-react-youtube');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>');
  writeFileSync(
    join(work, 'main.tsx'),
    `import { createRoot } from 'react-dom/client';\nimport Example from ${JSON.stringify(example)};\n` +
      "createRoot(document.getElementById('root')!).render(<Example host={new URLSearchParams(location.search).get('host') ?? undefined} />);\n",
  );
  writeFileSync(
    join(work, 'vite.config.mjs'),
    `export default { logLevel: 'warn', resolve: { alias: { 'vidframe/react': ${JSON.stringify(join(root, 'dist/package/dist/react.js'))} } }, build: { outDir: 'out', modulePreload: false } };\n`,
  );
  execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: work, stdio: 'pipe' });
  const assets = join(work, 'out/assets');
  const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
  if (scripts.length !== 1) throw new Error(`expected one bundle, got ${scripts.join(', ')}`);
  return readFileSync(join(assets, scripts[0]), 'utf8');
}

const events = (page: Page) => page.$$eval('[data-testid="events"] li', (items) => items.map((li) => li.textContent ?? ''));
async function waitEvent(page: Page, text: string, count = 1): Promise<void> {
  try {
    await page.waitForFunction(
      ([t, n]) => [...document.querySelectorAll('[data-testid="events"] li')].filter((li) => li.textContent === t).length >= n,
      [text, count] as const,
      { timeout: 20_000 },
    );
  } catch (error) {
    throw new Error(`no "${text}" (×${count}) among the app's events: ${JSON.stringify(await events(page))}`, { cause: error });
  }
}

describe('a react-youtube example app on vidframe/react, changed only in its import', () => {
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    const bundle = bundleExample();
    const url = host.page(
      '/react-youtube',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>react-youtube app</title></head><body><div id="root"></div><script type="module">${bundle.replace(/<\/script/gi, '<\\/script')}</script></body></html>`,
    );
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`response ${r.status()}: ${r.url()}`);
    });
    page.on('console', (m) => {
      // The bare host server has no favicon, which the browser asks for: not the app's doing.
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(`console: ${m.text()} ${m.location().url}`);
    });
    await page.goto(`${url}?host=${encodeURIComponent(server.origin)}`);
  }, 120_000);
  afterAll(() => page?.close());

  it('differs from its react-youtube version by the import line only', () => {
    const source = readFileSync(example, 'utf8');
    const lines = source.split('\n').filter((line) => /vidframe|react-youtube/.test(line) && !line.trimStart().startsWith('*'));
    expect(lines).toEqual(["import YouTube, { type YouTubeProps } from 'vidframe/react';"]);
  });

  it('renders the embed from the other origin with react-youtube’s opts, and onReady fires', async () => {
    await waitEvent(page, 'ready');
    const src = await page.getAttribute('iframe', 'src');
    expect(new URL(src!).origin).toBe(server.origin);
    expect(new URL(src!).pathname).toBe('/embed/VFsunrise01');
    // react-youtube's opts: the iframe's size.
    expect(await page.$eval('iframe', (f) => [f.getAttribute('width'), f.getAttribute('height')])).toEqual(['640', '390']);
    expect(await events(page)).not.toContain('playing');
  });

  it('the ref’s internal player plays and pauses the embed; onStateChange compares with YouTube.PlayerState', async () => {
    await page.click('button:text-is("Play")');
    await waitEvent(page, 'playing');
    await waitEvent(page, 'onPlay');
    // The embed really plays: its time moves, read through the internal player's promise.
    await page.waitForFunction(
      async () => {
        [...document.querySelectorAll('button')].find((b) => b.textContent === 'Time')!.click();
        await new Promise((r) => requestAnimationFrame(r));
        return Number(document.querySelector('[data-testid="time"]')?.textContent || 0) > 0.2;
      },
      undefined,
      { timeout: 20_000, polling: 250 },
    );
    await page.click('button:text-is("Pause")');
    await waitEvent(page, 'paused');
    await page.click('button:text-is("Play")');
    await waitEvent(page, 'playing', 2);
    expect(errors).toEqual([]);
  });
});
