/**
 * The collector's "dashboard under load" row (part of `npm run bench -- collector`): what the admin dashboard's reads
 * cost the writers on a large SQLite store, printed and never asserted.
 *
 * A store is filled with `BENCH_DASHBOARD_EVENTS` events in one SQL statement (`test/helpers/fillCollectorEvents.ts`,
 * all within the last 6 hours), then today's server runs on it as a process of its own, twice for
 * `BENCH_DASHBOARD_SECONDS` each: `BENCH_DASHBOARD_CLIENTS` keep-alive clients logging through HTTP
 * (`collectorLoad.ts`) and a prober asking `/healthz` every 100 ms, first alone, then with a dashboard polling every
 * `BENCH_DASHBOARD_POLL_MS` as the real one does (stats, the 6-hour time series, the newest page of events; a poll
 * starts only once the previous one is answered). Printed: ingest p50/p90/p99 and requests/s, `/healthz` p99 in both
 * phases, their ratio, and each dashboard read's latency and answers. One warm-up poll runs before the first phase,
 * so both phases read a warm page cache.
 *
 * Run:
 *   npm run bench -- collector                                            the ingest benchmark, then this row
 *   BENCH_COLLECTOR_STORES= BENCH_DASHBOARD_EVENTS=200000 npm run bench -- collector     this row only, a quick run
 *
 * Environment (defaults in brackets):
 *   BENCH_DASHBOARD_EVENTS [2000000]      events in the store before the phases (0 skips the row)
 *   BENCH_DASHBOARD_CLIENTS [10]          concurrent logging clients
 *   BENCH_DASHBOARD_EVENTS_PER_REQUEST [25]
 *   BENCH_DASHBOARD_SECONDS [30]          length of each phase
 *   BENCH_DASHBOARD_POLL_MS [2000]        the dashboard's poll interval
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DATABASE_FILE_NAME } from '../server/db/openDatabase';
import { fillCollectorEvents } from '../test/helpers/fillCollectorEvents';
import { CHAOS_ADMIN_TOKEN } from '../test/server/chaos/chaosClient';
import { ADMIN_API_MAX_PAGE_SIZE } from '../streams/collector/adminApi';
import { type BenchServer, tempDir } from './benchProcesses';
import { int, loadAverage } from './collectorReport';
import { type LoadResult, percentile, runLoad } from './collectorLoad';
import { sqliteTarget } from './collectorTargets';
import { writeResult } from './report';

interface DashboardConfig {
  events: number;
  clients: number;
  eventsPerRequest: number;
  seconds: number;
  pollMs: number;
}

function readConfig(env: NodeJS.ProcessEnv): DashboardConfig {
  const int = (name: string, fallback: number, min: number) => {
    const text = env[name]?.trim().replace(/_/g, '');
    if (!text) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}, not "${env[name]}"`);
    return value;
  };
  return {
    events: int('BENCH_DASHBOARD_EVENTS', 2_000_000, 0),
    clients: int('BENCH_DASHBOARD_CLIENTS', 10, 1),
    eventsPerRequest: int('BENCH_DASHBOARD_EVENTS_PER_REQUEST', 25, 1),
    seconds: int('BENCH_DASHBOARD_SECONDS', 30, 1),
    pollMs: int('BENCH_DASHBOARD_POLL_MS', 2000, 100),
  };
}

/** The dashboard's 6-hour range: 2-minute buckets, as `src/dashboard/timeRanges.ts` asks. */
const SIX_HOURS_MS = 6 * 3_600_000;
const SIX_HOUR_BUCKET_MS = 120_000;
/** The store's events are spread over this much of the last 6 hours, so the 6-hour time series reads them all. */
const FILL_SPAN_MS = 5 * 3_600_000;
const HEALTH_PROBE_EVERY_MS = 100;

/** The reads of one dashboard poll, as the dashboard sends them (at once). */
function dashboardReads(nowMs: number): Record<string, string> {
  const untilMs = (Math.floor(nowMs / SIX_HOUR_BUCKET_MS) + 1) * SIX_HOUR_BUCKET_MS;
  return {
    stats: '/collector/api/stats',
    timeseries: `/collector/api/timeseries?sinceMs=${untilMs - SIX_HOURS_MS}&untilMs=${untilMs}&bucketMs=${SIX_HOUR_BUCKET_MS}`,
    events: `/collector/api/events?limit=${ADMIN_API_MAX_PAGE_SIZE}&sinceMs=${nowMs - 5_000}`,
  };
}

interface Timed {
  ms: number;
  status: number;
}

async function timedGet(url: string, headers: Record<string, string> = {}): Promise<Timed> {
  const t0 = performance.now();
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
    await response.arrayBuffer();
    return { ms: performance.now() - t0, status: response.status };
  } catch {
    return { ms: performance.now() - t0, status: 0 };
  }
}

/** Runs `step` again and again (each after the previous one and `everyMs`) until `stop()`; resolves once the last ends. */
function repeat(everyMs: number, step: () => Promise<void>): { stop(): Promise<void> } {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const t0 = performance.now();
      await step();
      const wait = everyMs - (performance.now() - t0);
      if (wait > 0 && !stopped) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
    },
  };
}

interface PhaseResult {
  load: LoadResult;
  healthz: { p50Ms: number; p99Ms: number; maxMs: number; count: number; failed: number };
  /** Per dashboard read: latencies and answers by status. */
  reads?: Record<string, { p50Ms: number; maxMs: number; count: number; statuses: Record<number, number> }>;
}

async function phase(server: BenchServer, cfg: DashboardConfig, withDashboard: boolean, progress: (line: string) => void): Promise<PhaseResult> {
  const health: Timed[] = [];
  const reads: Record<string, Timed[]> = {};
  const prober = repeat(HEALTH_PROBE_EVERY_MS, async () => {
    health.push(await timedGet(`${server.origin}/healthz`));
  });
  const dashboard = withDashboard
    ? repeat(cfg.pollMs, async () => {
        await Promise.all(
          Object.entries(dashboardReads(Date.now())).map(async ([name, path]) => {
            (reads[name] ??= []).push(await timedGet(server.origin + path, { authorization: `Bearer ${CHAOS_ADMIN_TOKEN}` }));
          }),
        );
      })
    : undefined;
  let load: LoadResult;
  try {
    load = await runLoad({
      origin: server.origin,
      clients: cfg.clients,
      eventsPerRequest: cfg.eventsPerRequest,
      totalEvents: Number.MAX_SAFE_INTEGER,
      maxMs: cfg.seconds * 1000,
      tokens: sqliteTarget().tokens(cfg.clients),
      pagePrefix: `bench-dashboard-${withDashboard ? 'with' : 'without'}-${Date.now().toString(36)}-`,
      serverPid: server.pid,
      checkpoints: [],
      progress,
    });
  } finally {
    await Promise.all([prober.stop(), dashboard?.stop()]);
  }
  const summary = (timed: Timed[]) => {
    const ok = timed.filter((t) => t.status === 200).map((t) => t.ms);
    return { p50Ms: percentile(ok, 0.5), p99Ms: percentile(ok, 0.99), maxMs: Math.max(...ok), count: ok.length, failed: timed.length - ok.length };
  };
  const statuses = (timed: Timed[]) => timed.reduce<Record<number, number>>((acc, t) => ({ ...acc, [t.status]: (acc[t.status] ?? 0) + 1 }), {});
  return {
    load,
    healthz: summary(health),
    ...(withDashboard && {
      reads: Object.fromEntries(
        Object.entries(reads).map(([name, timed]) => {
          const all = timed.map((t) => t.ms);
          return [name, { p50Ms: percentile(all, 0.5), maxMs: Math.max(...all), count: timed.length, statuses: statuses(timed) }];
        }),
      ),
    }),
  };
}

const ms = (value: number) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(1) : Math.round(value)} ms` : '–');

function phaseLine(label: string, { load, healthz }: PhaseResult): string {
  const reqPerSec = (load.requests / load.elapsedMs) * 1000;
  const failures = [...load.failures].map(([status, n]) => `${n}×${status}`).join(', ');
  return (
    `    ${label.padEnd(18)} ingest p50 ${ms(load.p50Ms)}, p90 ${ms(load.p90Ms)}, p99 ${ms(load.p99Ms)}, max ${ms(load.maxMs)}; ` +
    `${reqPerSec.toFixed(0)} requests/s (${int(load.events)} events)${failures ? `, not acknowledged: ${failures}` : ''}; ` +
    `/healthz p99 ${ms(healthz.p99Ms)}, max ${ms(healthz.maxMs)} (${healthz.count} probes${healthz.failed ? `, ${healthz.failed} failed` : ''})`
  );
}

/** Runs the row; `print` gets the report lines (stdout), progress goes to stderr. */
export async function runDashboardBench(print: (line: string) => void = console.log): Promise<void> {
  const cfg = readConfig(process.env);
  if (cfg.events === 0) return;
  const log = (line: string) => process.stderr.write(`  [dashboard] ${line}\n`);
  const folder = tempDir('vidframe-bench-dashboard-');
  const target = sqliteTarget();
  try {
    // A first start creates the store's tables; the fill then writes straight into its file.
    const first = await target.start(folder.dir, 'filled', 60_000);
    await first.stop();
    const fillStarted = performance.now();
    const spacingMs = Math.max(1, Math.floor(FILL_SPAN_MS / cfg.events));
    fillCollectorEvents(join(folder.dir, DATABASE_FILE_NAME), { count: cfg.events, fromMs: Date.now() - cfg.events * spacingMs, spacingMs });
    const fillMs = performance.now() - fillStarted;
    log(`filled ${int(cfg.events)} events in ${(fillMs / 1000).toFixed(1)} s`);

    const server = await target.start(folder.dir, 'filled', 120_000);
    let without: PhaseResult;
    let withDashboard: PhaseResult;
    try {
      const warm = await Promise.all(
        Object.values(dashboardReads(Date.now())).map((path) => timedGet(server.origin + path, { authorization: `Bearer ${CHAOS_ADMIN_TOKEN}` })),
      );
      log(`warm-up poll: ${warm.map((t) => `${t.status} in ${ms(t.ms)}`).join(', ')}`);
      without = await phase(server, cfg, false, log);
      withDashboard = await phase(server, cfg, true, log);
    } finally {
      await server.stop();
    }
    const ratio = withDashboard.load.p99Ms / without.load.p99Ms;
    print('');
    print(
      `Dashboard under load: SQLite with ${int(cfg.events)} events (filled in ${(fillMs / 1000).toFixed(1)} s), ${cfg.clients} clients × ${cfg.eventsPerRequest} events per log request, ${cfg.seconds} s per phase; ` +
        `the dashboard polls stats, the 6-hour time series and the newest events page every ${cfg.pollMs / 1000} s (load average ${loadAverage()})`,
    );
    print(phaseLine('without dashboard', without));
    print(phaseLine('with dashboard', withDashboard));
    for (const [name, read] of Object.entries(withDashboard.reads ?? {})) {
      const answers = Object.entries(read.statuses)
        .map(([status, n]) => `${n}×${status}`)
        .join(', ');
      print(`      dashboard ${name.padEnd(10)} p50 ${ms(read.p50Ms)}, max ${ms(read.maxMs)} (${answers})`);
    }
    print(
      `    ingest p99 with / without the dashboard: ${ratio.toFixed(2)}× (target ≤ 1.5×); /healthz p99 with the dashboard: ${ms(withDashboard.healthz.p99Ms)} (target < 50 ms)`,
    );
    const plain = ({ load, ...rest }: PhaseResult) => ({ ...rest, load: { ...load, failures: Object.fromEntries(load.failures) } });
    const written = writeResult('collector-dashboard', {
      config: cfg,
      fillMs,
      without: plain(without),
      withDashboard: plain(withDashboard),
      ingestP99Ratio: ratio,
    });
    print(`    written: ${written}`);
  } finally {
    folder.remove();
  }
}
