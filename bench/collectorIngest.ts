/**
 * Collector ingest benchmark: log requests into the real server process, for each store in
 * the same run, printed and never asserted.
 *
 * - **JSONL baseline**: the collector as it was before its stores (commit `BASELINE_COMMIT`), run from a temporary
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
 *   npm run bench                                   everything (the other benchmarks, then this)
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
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { type ClickHouseServer, startClickHouse } from '../test/helpers/clickhouseServer';
import { addWorktree, type BenchServer, crashLine, rssMiB, StartFailure, tempDir } from './benchProcesses';
import { runLoad } from './collectorLoad';
import { BASELINE_COMMIT, baselineTarget, clickHouseTarget, type Config, sqliteTarget, type StoreKey, type Target } from './collectorTargets';
import { int, loadAverage, secs, serverRevision, storeLines, summaryLines, type StartFigure, type StartRun, type StoreReport } from './collectorReport';

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
    `Collector ingest: the server as a real process on loopback; ${cfg.clients} concurrent keep-alive clients × ${cfg.eventsPerRequest} events per log request, ${int(cfg.events)} events per store (cap ${cfg.maxMs / 1000} s)`,
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
