import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Frame, Page, WebSocket } from 'playwright-core';
import { frameWith, launchBrowser } from './helpers/browser';

/**
 * Issue 16 item 4: `npm run dev` — the real command, as a child process on a free port — serves the demo page AND
 * the embed it frames from source through Vite, with hot reload: the framed embed loads its scripts from Vite's dev
 * server (`/@vite/client`, `/src/embed/page/main.ts`), passes its CSP (nonces, no violation), becomes ready and plays
 * (state 1 at the host); it is connected to the HMR websocket, and a change of `src/embed/views/embed.css` reaches it as a
 * hot update, without reloading the frame.
 *
 * The first start on a fresh machine pre-bundles the dependencies (`.vite/`): every wait here waits on readiness,
 * with generous limits, never on a fixed sleep.
 */
const ROOT = resolve(__dirname, '../..');
/** How long `npm run dev` may take to listen, and the pages to load, on a cold cache and a busy machine. */
const START_LIMIT_MS = 180_000;

jest.setTimeout(2 * START_LIMIT_MS);

let child: ChildProcess | undefined;
let output = '';
let dataDir: string;
let origin: string;
let browser: Browser;

/** Starts `npm run dev` in its own process group (npm → tsx → node), and resolves with its origin once it listens. */
function startDev(): Promise<string> {
  dataDir = mkdtempSync(join(tmpdir(), 'vidframe-dev-e2e-'));
  const started = spawn('npm', ['run', 'dev'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', VIDFRAME_ADS_PORT: '0', VIDFRAME_DATA_DIR: dataDir, VIDFRAME_DEMO_ACCOUNTS: '0', VIDFRAME_DEV: '' },
  });
  child = started;
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run dev did not listen within ${START_LIMIT_MS} ms:\n${output}`)), START_LIMIT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /VidFrame is running in development[^:]*: (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1]);
      }
    };
    started.stdout!.on('data', onData);
    started.stderr!.on('data', onData);
    started.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`npm run dev exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
}

/** Stops the whole process group (SIGTERM: the server stops gracefully), SIGKILL if it does not exit in 10 s. */
async function stopDev(): Promise<void> {
  const running = child;
  if (!running?.pid || running.exitCode !== null || running.signalCode !== null) return;
  const exited = new Promise<void>((done) => running.once('exit', () => done()));
  process.kill(-running.pid, 'SIGTERM');
  const killTimer = setTimeout(() => {
    try {
      process.kill(-running.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 10_000);
  await exited;
  clearTimeout(killTimer);
}

beforeAll(async () => {
  [origin, browser] = await Promise.all([startDev(), launchBrowser()]);
}, START_LIMIT_MS + 30_000);

afterAll(async () => {
  await browser?.close();
  await stopDev();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Vite's HMR sockets of a page and its frames, with the messages they received. */
function recordHmrSockets(page: Page): { url: string; received: string[] }[] {
  const sockets: { url: string; received: string[] }[] = [];
  page.on('websocket', (ws: WebSocket) => {
    const record = { url: ws.url(), received: [] as string[] };
    sockets.push(record);
    ws.on('framereceived', ({ payload }) => record.received.push(typeof payload === 'string' ? payload : payload.toString()));
  });
  return sockets;
}

const scriptsOf = (frame: Frame) => frame.evaluate(() => [...document.scripts].map((s) => s.getAttribute('src')).filter((src): src is string => !!src));

describe('npm run dev (issue 16 item 4)', () => {
  it('serves the demo page and its framed embed from source: the embed plays and hot-reloads', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(message.text());
    });
    const sockets = recordHmrSockets(page);

    await page.goto(`${origin}/`, { timeout: START_LIMIT_MS });
    // The embed is framed and cued (state 5 at the host), its video known: it loaded, read its configuration, answered.
    await page.waitForSelector('[data-testid="state"][data-state="5"]', { timeout: START_LIMIT_MS });
    await page.waitForFunction(() => document.querySelector('[data-testid="video-id"]')?.textContent?.trim() === 'VFsunrise01');

    // The demo page and the embed run from source, through Vite's dev server.
    expect(await scriptsOf(page.mainFrame())).toEqual(expect.arrayContaining(['/@vite/client', '/src/host/main.tsx']));
    const embed = await frameWith(page, '/embed/VFsunrise01');
    expect(new URL(embed.url()).origin).toBe(origin);
    expect(await scriptsOf(embed)).toEqual(expect.arrayContaining(['/@vite/client', '/src/embed/page/main.ts']));
    // Its stylesheet came as a module and was injected with the CSP nonce; its controls (loaded once the player is
    // ready, issue 15) came from /src.
    expect(await embed.evaluate(() => !!document.querySelector('style[data-vite-dev-id$="/src/embed/views/embed.css"]'))).toBe(true);
    await embed.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/src/embed/views/EmbedApp.tsx')));

    // The host plays it: state 1 at the host, and the frame's video advances.
    await page.click('[data-testid="play"]');
    await page.waitForSelector('[data-testid="state"][data-state="1"]', { timeout: 60_000 });
    await embed.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.2, undefined, { timeout: 60_000 });

    // Both documents hold Vite's HMR connection on the server's own port.
    const port = new URL(origin).port;
    const connected = () => sockets.filter((s) => new URL(s.url).port === port && s.received.some((m) => m.includes('"type":"connected"')));
    await waitFor(() => connected().length >= 2, 'both documents connected to the HMR websocket');

    // A change of the embed's stylesheet reaches the frame as a hot update; the frame is not reloaded.
    await embed.evaluate(() => ((window as unknown as { devMarker: number }).devMarker = 1));
    const stylesheet = resolve(ROOT, 'src/embed/views/embed.css');
    const { atime } = statSync(stylesheet);
    utimesSync(stylesheet, atime, new Date());
    await waitFor(
      () => sockets.some((s) => s.received.some((m) => m.includes('"type":"update"') && m.includes('/src/embed/views/embed.css'))),
      'the hot update of src/embed/views/embed.css',
    );
    expect(await embed.evaluate(() => (window as unknown as { devMarker?: number }).devMarker)).toBe(1);
    expect(await page.getAttribute('[data-testid="state"]', 'data-state')).toBe('1');

    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('answers what neither the server nor Vite serves with the JSON 404, and builds /iframe_api from source', async () => {
    const missing = await fetch(`${origin}/no/such/path`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: expect.objectContaining({ code: 404, message: 'Nothing at GET /no/such/path' }) });

    // Vite would serve any file of the project: only what the pages load goes to it (no server source, no manifest,
    // no data folder).
    for (const path of ['/server/config.ts', '/package.json', '/.data/secrets/admin-token', '/src/../server/config.ts']) {
      const leaked = await fetch(`${origin}${path}`);
      expect({ path, status: leaked.status }).toEqual({ path, status: 404 });
    }

    const script = await fetch(`${origin}/iframe_api`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toBe('no-store');
    // Not minified: the SDK's own names are in it (a built, minified copy would have renamed them).
    expect(await script.text()).toContain('installIframeApi');
  });
});

/** Polls `condition` until it holds (a browser event arrives in this process), failing after 60 s with `what`. */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
