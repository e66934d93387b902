/**
 * The retry queue draining stored requests in real Chromium IndexedDB against `workbox-background-sync`'s `Queue`
 * doing the same: `npm run bench -- retry`.
 *
 * - The page (`bench/retry/page.ts`) and a service worker (`bench/retry/serviceWorker.ts`) are bundled at bench time
 *   with Vite's build API into `.bench/retry/` (git-ignored) and served, with a counting endpoint, by a node:http
 *   server on loopback. The endpoint (`POST /youtubei/v1/log_event`, the real log URL) records each request's
 *   `X-Bench-Id` and checks its body.
 * - **VidFrame**: in the page, `createRetryQueue` over `createDatabase(logsDatabase())` (the page's wiring): 1,000 log
 *   requests enqueued one after another (store time), then drained by the real `retryQueueDrain` with throttle and
 *   delays at 0 (drain time: the machinery's own cost, no pacing). In production the drain waits
 *   `RETRY_QUEUE_THROTTLE_MS` between resends: 1,000 requests take at least 1,000 × that, whatever the machinery costs.
 * - **workbox**: the service worker's `new Queue(name, { forceSyncFallback: true, onSync: no-op })`, 1,000
 *   `pushRequest`s (store time), then `replayRequests()` (drain time), driven from the page over a `MessageChannel`.
 * - Each run in a **fresh browser** with its own new profile directory (on-disk IndexedDB: Playwright's `newContext()`
 *   would be an off-the-record profile, whose IndexedDB lives in memory); the two alternate, `BENCH_RETRY_ROUNDS`
 *   rounds (default 7, at least 5) of each, `BENCH_RETRY_REQUESTS` requests per run (default 1,000).
 * - After every run, at the receiver: exactly n distinct ids of that run, none twice, every body as sent; and the
 *   store empty afterwards (ours: `queue.list()`; workbox: its whole `requests` store). A mismatch throws: it is an
 *   error, never a figure.
 *
 * Needs no `npm run build` (the bench bundles its own page). Debian's Chromium, like every browser test.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { build, defaultClientConditions } from 'vite';
import { BASE_FLAGS, CHROMIUM_PATH } from '../test/e2e/helpers/browser';
import { RETRY_QUEUE_THROTTLE_MS } from '../streams/timing';
import { spread, type Spread } from './spread';
import { BENCH_ID_HEADER, type RunRequest, type RunResult } from './retry/protocol';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = resolve(ROOT, '.bench/retry');
const LOG_URL = '/youtubei/v1/log_event';

export type RetryKind = 'vidframe' | 'workbox';

export interface RetryRun extends RunResult {
  kind: RetryKind;
  round: number;
  /** Ids received by the endpoint for this run (all distinct, checked). */
  received: number;
}

export interface RetryBenchResult {
  requests: number;
  rounds: number;
  chromium: string;
  /** Production pacing of our drain, for the note: `RETRY_QUEUE_THROTTLE_MS` between two resends. */
  productionThrottleMs: number;
  runs: RetryRun[];
  store: Record<RetryKind, Spread>;
  drain: Record<RetryKind, Spread>;
  /** Diagnostic: per request, the median over runs of each drain step's time (ms), see `RunResult.phases`. */
  phasesPerRequestMs: Record<RetryKind, Record<string, number>>;
}

/** Bundles the page and the service worker (two IIFE bundles: a classic worker script needs no module support). */
async function bundle(): Promise<void> {
  const one = (entry: string, name: string, file: string, emptyOutDir: boolean) =>
    build({
      configFile: false,
      root: ROOT,
      logLevel: 'warn',
      mode: 'production',
      // Workbox and rxjs read NODE_ENV for their development checks and logs: production, as a site would ship them.
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      publicDir: false,
      // As the product's build: rxjs's ES2015 build.
      resolve: { conditions: ['es2015', ...defaultClientConditions] },
      build: {
        outDir: OUT,
        emptyOutDir,
        minify: true,
        sourcemap: false,
        lib: { entry: resolve(ROOT, entry), name, formats: ['iife'], fileName: () => file },
      },
    });
  await one('bench/retry/page.ts', 'retryBenchPage', 'page.js', true);
  await one('bench/retry/serviceWorker.ts', 'retryBenchWorker', 'sw.js', false);
}

const PAGE_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>retry drain bench</title></head>
<body><script src="/page.js"></script></body></html>`;

interface Receiver {
  origin: string;
  /** Every request received since the last reset, in order (duplicates kept, so they can be found). */
  received: { id: string; body: string }[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

async function startReceiver(): Promise<Receiver> {
  const files = { '/page.js': readFileSync(join(OUT, 'page.js')), '/sw.js': readFileSync(join(OUT, 'sw.js')) };
  const received: Receiver['received'] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'POST' && path === LOG_URL) {
      const id = req.headers[BENCH_ID_HEADER.toLowerCase()];
      void readBody(req).then(
        (body) => {
          received.push({ id: typeof id === 'string' ? id : '(none)', body });
          res.writeHead(204).end();
        },
        () => res.writeHead(400).end(),
      );
      return;
    }
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE_HTML);
      return;
    }
    if (req.method === 'GET' && (path === '/page.js' || path === '/sw.js')) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(files[path]);
      return;
    }
    res.writeHead(404).end();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Throws unless the receiver got exactly ids `<runId>:0 … <runId>:<n-1>`, each once, each with the body stored. */
function verifyAtReceiver(received: Receiver['received'], { n, runId }: RunRequest, body: string, kind: RetryKind): number {
  const mine = received.filter((r) => r.id.startsWith(`${runId}:`)).map((r) => r.id);
  const foreign = received.length - mine.length;
  const badBodies = received.filter((r) => r.body !== body).length;
  const distinct = new Set(mine);
  const missing = Array.from({ length: n }, (_, i) => `${runId}:${i}`).filter((id) => !distinct.has(id));
  const problems = [
    foreign > 0 && `${foreign} requests of another run or without an id`,
    mine.length !== distinct.size && `${mine.length - distinct.size} sent twice`,
    missing.length > 0 && `${missing.length} lost (e.g. ${missing.slice(0, 3).join(', ')})`,
    distinct.size !== n && `${distinct.size} distinct ids, not ${n}`,
    badBodies > 0 && `${badBodies} bodies differ from the request stored`,
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`retry bench, ${kind} run ${runId}: ${problems.join('; ')}`);
  return distinct.size;
}

/** One run in a fresh browser on a fresh on-disk profile. */
async function oneRun(receiver: Receiver, kind: RetryKind, run: RunRequest): Promise<RunResult & { body: string }> {
  const profile = mkdtempSync(join(tmpdir(), 'vidframe-retry-bench-'));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: BASE_FLAGS });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${receiver.origin}/`);
    await page.waitForFunction(() => 'retryBench' in window);
    page.setDefaultTimeout(300_000);
    return await page.evaluate(
      ([k, r]) => {
        const bench = (window as unknown as { retryBench: Record<string, (r: unknown) => Promise<RunResult & { body: string }>> }).retryBench;
        return bench[k === 'vidframe' ? 'runOurs' : 'runWorkbox'](r);
      },
      [kind, run] as const,
    );
  } finally {
    await context?.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  }
}

export async function runRetryBench({
  requests = Number(process.env.BENCH_RETRY_REQUESTS ?? 1000),
  rounds = Number(process.env.BENCH_RETRY_ROUNDS ?? 7),
  progress = (line: string) => console.log(line),
} = {}): Promise<RetryBenchResult> {
  if (!Number.isInteger(requests) || requests < 1) throw new Error(`BENCH_RETRY_REQUESTS must be a positive integer, not "${requests}"`);
  if (!Number.isInteger(rounds) || rounds < 5) throw new Error(`BENCH_RETRY_ROUNDS must be an integer of at least 5, not "${rounds}"`);
  progress('  retry: bundling the bench page and service worker (vite build)');
  await bundle();
  const receiver = await startReceiver();
  try {
    const runs: RetryRun[] = [];
    for (let round = 0; round < rounds; round++) {
      const order: RetryKind[] = round % 2 === 0 ? ['vidframe', 'workbox'] : ['workbox', 'vidframe'];
      for (const kind of order) {
        const run: RunRequest = { n: requests, runId: `${kind}-${round}` };
        receiver.received.length = 0;
        const { body, ...result } = await oneRun(receiver, kind, run);
        const received = verifyAtReceiver(receiver.received, run, body, kind);
        if (result.left !== 0) throw new Error(`retry bench, ${kind} run ${run.runId}: ${result.left} requests left in the store after the drain`);
        if (result.sentByQueue !== requests)
          throw new Error(`retry bench, ${kind} run ${run.runId}: the queue counted ${result.sentByQueue} sends, not ${requests}`);
        runs.push({ ...result, kind, round, received });
      }
      progress(`  retry: round ${round + 1}/${rounds} (${requests} requests each, verified at the receiver)`);
    }
    const of = (kind: RetryKind, pick: (r: RetryRun) => number) => spread(runs.filter((r) => r.kind === kind).map(pick));
    return {
      requests,
      rounds,
      chromium: (await chromiumVersion()) ?? 'unknown',
      productionThrottleMs: RETRY_QUEUE_THROTTLE_MS,
      runs,
      store: { vidframe: of('vidframe', (r) => r.storeMs), workbox: of('workbox', (r) => r.storeMs) },
      drain: { vidframe: of('vidframe', (r) => r.drainMs), workbox: of('workbox', (r) => r.drainMs) },
      phasesPerRequestMs: { vidframe: phasesOf(runs, 'vidframe', requests), workbox: phasesOf(runs, 'workbox', requests) },
    };
  } finally {
    await receiver.close();
  }
}

function phasesOf(runs: RetryRun[], kind: RetryKind, n: number): Record<string, number> {
  const mine = runs.filter((r) => r.kind === kind);
  const names = [...new Set(mine.flatMap((r) => Object.keys(r.phases)))];
  return Object.fromEntries(names.map((name) => [name, spread(mine.map((r) => (r.phases[name] ?? NaN) / n)).median]));
}

async function chromiumVersion(): Promise<string | undefined> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: BASE_FLAGS });
  try {
    return browser.version();
  } finally {
    await browser.close();
  }
}
