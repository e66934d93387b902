/**
 * Collector ingest benchmark: log requests into the real server process, for each store in
 * the same run, printed and never asserted.
 *
 * - **JSONL baseline**: the collector as it was before its stores (commit {@link BASELINE_COMMIT}), run from a temporary
 *   `git worktree` of that commit (the repository's node_modules linked in; removed afterwards). Its log route takes no
 *   stream token. Skipped, with the reason printed, when git or the commit is missing.
 * - **SQLite**: today's `server/main.ts` with the default store.
 * - **ClickHouse**: today's server with `VIDFRAME_STORE=clickhouse://…`, against a private clickhouse-server on
 *   loopback (`test/helpers/clickhouseServer.ts`; Debian's 18.16). Skipped, with the reason, when it cannot start.
 *
 * For each store: `BENCH_COLLECTOR_CLIENTS` concurrent keep-alive clients send log requests of
 * `BENCH_COLLECTOR_EVENTS_PER_REQUEST` events (bodies from the chaos suite's client, one stream token per client) until
 * `BENCH_COLLECTOR_EVENTS` events are acknowledged; printed are events/s, per-request latency (p50/p99, measured by the
 * client), the server's RSS (VmRSS) at every 25 % of the events and its peak, CPU seconds of server and bench client
 * (they share the machine), the count the server reports stored, and the store's size on disk. Then the start-up
 * figure: spawn → listening ("is running" line) and spawn → first 200 from `/readyz` (`/healthz` for the baseline,
 * which has no readiness route), with RSS when ready, on an empty store and on the store just filled (median of
 * `BENCH_COLLECTOR_STARTS` starts; a start that crashes or exceeds `BENCH_COLLECTOR_STARTUP_TIMEOUT_S` is reported
 * as such). The server runs with rate limits off (`VIDFRAME_RATE_LIMIT=off`), otherwise with its defaults.
 *
 * Run:
 *   npm run bench                                   everything (the client benchmarks, then this; ≈ 15 min)
 *   npm run bench -- collector                      this benchmark only
 *   BENCH_COLLECTOR_EVENTS=200000 npm run bench -- collector       a quick run
 *
 * Environment (defaults in brackets):
 *   BENCH_COLLECTOR_EVENTS [2000000]             events per store
 *   BENCH_COLLECTOR_CLIENTS [32]                 concurrent clients
 *   BENCH_COLLECTOR_EVENTS_PER_REQUEST [25]      events per log request
 *   BENCH_COLLECTOR_STORES [jsonl,sqlite,clickhouse]   which stores, in this order
 *   BENCH_COLLECTOR_MAX_SECONDS [300]            cap on one store's ingest (the figures then cover what was sent)
 *   BENCH_COLLECTOR_STARTS [3]                   timed start-ups per store and size
 *   BENCH_COLLECTOR_STARTUP_TIMEOUT_S [120]      cap on one start-up
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { type ClickHouseServer, startClickHouse } from '../test/helpers/clickhouseServer';
import { adminJson, CHAOS_ADMIN_TOKEN, CHAOS_STREAM_SECRET, chaosTokens } from '../test/server/chaos/chaosClient';
import {
  addWorktree,
  type BenchServer,
  ROOT,
  crashLine,
  dirBytes,
  findClickHousePid,
  rssMiB,
  startCurrentServer,
  StartFailure,
  startServerIn,
  tempDir,
} from './benchProcesses';
import { type LoadResult, runLoad } from './collectorLoad';
import { int, secs, storeLines, summaryLines } from './collectorIngestReport';

/** The collector before its stores: JSONL file, everything in memory. */
export const BASELINE_COMMIT = '2f88168';

type StoreKey = 'jsonl' | 'sqlite' | 'clickhouse';

export interface Config {
  events: number;
  clients: number;
  eventsPerRequest: number;
  stores: StoreKey[];
  maxMs: number;
  starts: number;
  startupTimeoutMs: number;
}

function readConfig(env: NodeJS.ProcessEnv): Config {
  const int = (name: string, fallback: number, min = 1) => {
    const text = env[name]?.trim().replace(/_/g, '');
    if (!text) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}, not "${env[name]}"`);
    return value;
  };
  const stores = (env.BENCH_COLLECTOR_STORES ?? 'jsonl,sqlite,clickhouse')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const s of stores)
    if (!['jsonl', 'sqlite', 'clickhouse'].includes(s)) throw new Error(`BENCH_COLLECTOR_STORES: unknown store "${s}" (jsonl, sqlite, clickhouse)`);
  return {
    events: int('BENCH_COLLECTOR_EVENTS', 2_000_000),
    clients: int('BENCH_COLLECTOR_CLIENTS', 32),
    eventsPerRequest: int('BENCH_COLLECTOR_EVENTS_PER_REQUEST', 25),
    stores: stores as StoreKey[],
    maxMs: int('BENCH_COLLECTOR_MAX_SECONDS', 300) * 1000,
    starts: int('BENCH_COLLECTOR_STARTS', 3),
    startupTimeoutMs: int('BENCH_COLLECTOR_STARTUP_TIMEOUT_S', 120) * 1000,
  };
}

/** One store under test: how to start its server, and what to ask it. */
interface Target {
  key: StoreKey;
  label: string;
  readyPath: string;
  /** `variant` names the store within the target (ClickHouse: the database); the data folder holds the rest. */
  start(dataDir: string, variant: 'filled' | 'empty', timeoutMs: number): Promise<BenchServer>;
  tokens(count: number): string[];
  storedEvents(origin: string): Promise<number>;
  /** Bytes of the store on disk, and a note (e.g. ClickHouse's active parts). */
  disk(dataDir: string): Promise<{ bytes?: number; note?: string }>;
  /** Server-side timings of the log route and the store write, from the server's own metrics (today's server only). */
  serverTimings?(origin: string): Promise<string>;
  sidePid?: number;
  sideLabel?: string;
}

interface StartRun {
  listenMs: number;
  readyMs: number;
  rssMiB?: number;
}
export type StartFigure = { runs: StartRun[] } | { failure: string; afterMs: number };

export interface StoreReport {
  target: Pick<Target, 'key' | 'label' | 'sideLabel'>;
  skipped?: string;
  load?: LoadResult;
  loadError?: string;
  stored?: number | string;
  serverTimings?: string;
  disk?: { bytes?: number; note?: string };
  startEmpty?: StartFigure;
  startFilled?: StartFigure;
}

// ── Formatting ──────────────────────────────────────────────────────────────────────────────────────────────────
/** Which code "today's server" is: the commit checked out, and whether server/ has uncommitted changes. */
function serverRevision(): string {
  try {
    const head = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { stdio: 'pipe' }).toString().trim();
    const dirty = execFileSync('git', ['-C', ROOT, 'status', '--porcelain', '--', 'server'], { stdio: 'pipe' }).toString().trim() !== '';
    return `the working tree at ${head}${dirty ? ', with uncommitted changes in server/' : ''}`;
  } catch {
    return 'the working tree (git unavailable)';
  }
}
/** The 1, 5 and 15 minute load averages: other work on the machine skews every figure here. */
const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

// ── Servers ─────────────────────────────────────────────────────────────────────────────────────────────────────
const currentEnv = (dataDir: string, store: string): Record<string, string> => ({
  VIDFRAME_DATA_DIR: dataDir,
  VIDFRAME_STORE: store,
  VIDFRAME_ADMIN_TOKEN: CHAOS_ADMIN_TOKEN,
  VIDFRAME_STREAM_SECRET: CHAOS_STREAM_SECRET,
  VIDFRAME_RATE_LIMIT: 'off',
});
const streamTokens = (count: number) => Array.from({ length: count }, () => chaosTokens.issue().token);
const currentStored = async (origin: string) => (await adminJson<{ events: number }>(origin, '/collector/api/stats')).events;

/** Mean of a Prometheus histogram series (`_sum / _count`) whose labels include `labels`, from the text format. */
function histogramMean(metrics: string, name: string, labels: string): { meanMs: number; count: number } | undefined {
  const value = (suffix: string) => {
    const line = metrics.split('\n').find((l) => l.startsWith(`${name}_${suffix}{`) && l.includes(labels));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const sum = value('sum');
  const count = value('count');
  return sum === undefined || !count ? undefined : { meanMs: (sum / count) * 1000, count };
}

/** From `/metrics`: the log route's mean time from request to reply, and the store write's mean until durable. */
async function currentServerTimings(origin: string): Promise<string> {
  const response = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${CHAOS_ADMIN_TOKEN}` } });
  if (!response.ok) return `metrics unavailable (${response.status})`;
  const text = await response.text();
  const route = histogramMean(text, 'vidframe_http_request_duration_seconds', 'log_event');
  const write = histogramMean(text, 'vidframe_collector_store_duration_seconds', 'operation="recordLogRequest"');
  const fmt = (h: { meanMs: number; count: number } | undefined) => (h ? `${h.meanMs.toFixed(1)} ms mean (${int(h.count)})` : '–');
  return `log route (request → reply) ${fmt(route)}, store write until durable ${fmt(write)}`;
}

function sqliteTarget(): Target {
  return {
    key: 'sqlite',
    label: 'SQLite (today, default store)',
    readyPath: '/readyz',
    start: (dataDir, _variant, timeoutMs) => startCurrentServer(currentEnv(dataDir, 'sqlite'), timeoutMs),
    tokens: streamTokens,
    storedEvents: currentStored,
    serverTimings: currentServerTimings,
    disk: async (dataDir) => ({ bytes: dirBytes(dataDir) }),
  };
}

async function clickHouseQuery(server: ClickHouseServer, query: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${server.httpPort}/?query=${encodeURIComponent(query)}`);
  const text = await response.text();
  if (!response.ok) throw new Error(text.trim().split('\n')[0]);
  return text.trim();
}

function clickHouseTarget(server: ClickHouseServer): Target {
  const pid = findClickHousePid(server.httpPort);
  const db = (variant: 'filled' | 'empty') => `vidframe_bench_${variant}`;
  return {
    key: 'clickhouse',
    label: 'ClickHouse (today, clickhouse-server 18.16 on loopback)',
    readyPath: '/readyz',
    start: (dataDir, variant, timeoutMs) => startCurrentServer(currentEnv(dataDir, `${server.url}/${db(variant)}`), timeoutMs),
    tokens: streamTokens,
    storedEvents: currentStored,
    serverTimings: currentServerTimings,
    disk: async () => {
      try {
        const where = `database = '${db('filled')}' AND active`;
        const [bytes, parts] = (await clickHouseQuery(server, `SELECT sum(bytes_on_disk), count() FROM system.parts WHERE ${where}`)).split('\t').map(Number);
        const eventParts = await clickHouseQuery(server, `SELECT count() FROM system.parts WHERE ${where} AND table = 'events'`);
        return { bytes, note: `${parts} active parts, ${eventParts} of them in events` };
      } catch (error) {
        return { note: `size unknown (${(error as Error).message})` };
      }
    },
    sidePid: pid,
    sideLabel: pid ? 'clickhouse-server RSS' : undefined,
  };
}

function baselineTarget(worktree: string): Target {
  return {
    key: 'jsonl',
    label: `JSONL baseline (commit ${BASELINE_COMMIT}, the collector before issue 12)`,
    readyPath: '/healthz',
    start: (dataDir, _variant, timeoutMs) => startServerIn(worktree, { VIDFRAME_DATA_DIR: dataDir }, timeoutMs),
    // Its log route reads no token; each client sends one all the same, so the requests are the same bytes.
    tokens: streamTokens,
    storedEvents: async (origin) => {
      const response = await fetch(`${origin}/collector/stats`);
      if (!response.ok) throw new Error(`/collector/stats: ${response.status}`);
      return ((await response.json()) as { events: number }).events;
    },
    disk: async (dataDir) => ({ bytes: dirBytes(dataDir) }),
  };
}

async function waitReady(server: BenchServer, path: string, deadline: number): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(server.origin + path, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - server.spawnedAt;
    } catch {
      /* not answering yet */
    }
    if (performance.now() > deadline) throw new Error(`${path} did not answer 200 in time`);
    await new Promise((done) => setTimeout(done, 5));
  }
}

/** `count` timed start-ups of the store in `dataDir`; the first failure ends the series. */
async function timedStarts(target: Target, dataDir: string, variant: 'filled' | 'empty', cfg: Config, progress: (l: string) => void): Promise<StartFigure> {
  const runs: StartRun[] = [];
  for (let i = 0; i < cfg.starts; i++) {
    let server: BenchServer;
    try {
      server = await target.start(dataDir, variant, cfg.startupTimeoutMs);
    } catch (error) {
      if (error instanceof StartFailure) return { failure: error.message, afterMs: error.afterMs };
      throw error;
    }
    try {
      const readyMs = await waitReady(server, target.readyPath, server.spawnedAt + cfg.startupTimeoutMs);
      runs.push({ listenMs: server.listenMs, readyMs, rssMiB: rssMiB(server.pid) });
      progress(`start-up (${variant}) ${i + 1}/${cfg.starts}: listening ${secs(server.listenMs)}, ready ${secs(readyMs)}`);
    } catch (error) {
      return { failure: `${(error as Error).message}: ${crashLine(server.output())}`, afterMs: performance.now() - server.spawnedAt };
    } finally {
      await server.stop();
    }
  }
  return { runs };
}

async function benchStore(target: Target, cfg: Config, log: (line: string) => void): Promise<StoreReport> {
  const progress = (line: string) => log(`  [${target.key}] ${line}`);
  const report: StoreReport = { target };
  const filled = tempDir(`vidframe-bench-${target.key}-filled-`);
  const empty = tempDir(`vidframe-bench-${target.key}-empty-`);
  try {
    // Ingest into a new store.
    const server = await target.start(filled.dir, 'filled', 60_000);
    try {
      await waitReady(server, target.readyPath, performance.now() + 60_000);
      progress(`ingesting ${int(cfg.events)} events`);
      report.load = await runLoad({
        origin: server.origin,
        clients: cfg.clients,
        eventsPerRequest: cfg.eventsPerRequest,
        totalEvents: cfg.events,
        maxMs: cfg.maxMs,
        tokens: target.tokens(cfg.clients),
        pagePrefix: `bench-${target.key}-${Date.now().toString(36)}-`,
        serverPid: server.pid,
        sidePid: target.sidePid,
        progress,
      });
      try {
        report.stored = await target.storedEvents(server.origin);
      } catch (error) {
        report.stored = `unknown (${(error as Error).message})`;
      }
      if (target.serverTimings) report.serverTimings = await target.serverTimings(server.origin).catch((error: Error) => `unknown (${error.message})`);
    } catch (error) {
      report.loadError = `${(error as Error).message}; server said: ${crashLine(server.output())}`;
    } finally {
      await server.stop();
    }
    report.disk = await target.disk(filled.dir);

    // Start-ups: an empty store (created by a first, untimed start), then the store just filled.
    progress('start-ups');
    try {
      const first = await target.start(empty.dir, 'empty', cfg.startupTimeoutMs);
      await waitReady(first, target.readyPath, first.spawnedAt + cfg.startupTimeoutMs).finally(() => first.stop());
      report.startEmpty = await timedStarts(target, empty.dir, 'empty', cfg, progress);
    } catch (error) {
      report.startEmpty = { failure: (error as Error).message, afterMs: NaN };
    }
    report.startFilled = await timedStarts(target, filled.dir, 'filled', cfg, progress);
  } catch (error) {
    report.loadError ??= (error as Error).message.split('\n')[0];
  } finally {
    filled.remove();
    empty.remove();
  }
  return report;
}

/** Runs the collector benchmark; `print` gets the report lines (stdout), progress goes to stderr. */
export async function runCollectorBench(print: (line: string) => void = console.log): Promise<void> {
  const cfg = readConfig(process.env);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const reports: StoreReport[] = [];
  print('');
  print(
    `Collector ingest (issue 12): the server as a real process on loopback; ${cfg.clients} concurrent keep-alive clients × ${cfg.eventsPerRequest} events per log request, ${int(cfg.events)} events per store (cap ${cfg.maxMs / 1000} s)`,
  );
  print(`  today's server: ${serverRevision()}; baseline: commit ${BASELINE_COMMIT}`);
  print(
    `  (bench client and server share this machine's ${cpus().length} cores, and so does anything else running on it: load average ${loadAverage()} at the start; rate limits off; latency per request as the client sees it; node ${process.version})`,
  );

  for (const key of cfg.stores) {
    let report: StoreReport;
    if (key === 'jsonl') {
      let worktree: ReturnType<typeof addWorktree> | undefined;
      try {
        worktree = addWorktree(BASELINE_COMMIT);
      } catch (error) {
        const reason = ((error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message).split('\n')[0];
        report = { target: { key, label: `JSONL baseline (commit ${BASELINE_COMMIT})` }, skipped: `no git worktree of ${BASELINE_COMMIT}: ${reason}` };
      }
      if (worktree) {
        try {
          report = await benchStore(baselineTarget(worktree.dir), cfg, log);
        } finally {
          worktree.remove();
        }
      }
    } else if (key === 'sqlite') {
      report = await benchStore(sqliteTarget(), cfg, log);
    } else {
      let server: ClickHouseServer | undefined;
      try {
        server = await startClickHouse();
      } catch (error) {
        report = { target: { key, label: 'ClickHouse' }, skipped: (error as Error).message.split('\n')[0] };
      }
      if (server) {
        try {
          report = await benchStore(clickHouseTarget(server), cfg, log);
        } finally {
          await server.close();
        }
      }
    }
    reports.push(report!);
    for (const line of storeLines(report!, cfg)) print(line);
    print(`    (machine load average after this store: ${loadAverage()})`);
  }
  for (const line of summaryLines(reports, cfg)) print(line);
}
