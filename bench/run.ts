/**
 * `npm run bench`: figures for the hot paths and the page, printed (tests assert behaviour; this reports speed and
 * memory). Each case runs a warm-up, then several timed rounds; the median is reported.
 *
 * - `client`: host messages (parsing what arrives on `message`, at the rate a slider drag sends commands), host
 *   deliveries (the diff of two player snapshots, done on every `timeupdate`), the log sink (stamping, batching with
 *   the production constants, request building), the heap kept by 100 000 events waiting in the batching queue, and
 *   the log sink against OpenTelemetry's batch processor (`bench/sinkVsOtel.ts`);
 * - `page`: the embed against a bare page in real Chromium (`bench/embedPage.ts`): bytes on the wire, time to ready,
 *   first frame, seek round trip, playback script time and heap; a table with ratios and targets, then the budgets in
 *   bytes (`bench/budgets.ts`): the run exits non-zero when one is exceeded. `--long` plays on to
 *   `BENCH_LONG_PLAY_SECONDS` (default 600) and reports the heap there too;
 * - `retry`: the retry queue against workbox-background-sync's `Queue` (`bench/retryDrain.ts`): 1,000 stored log
 *   requests drained in real Chromium IndexedDB to a counting endpoint (none lost, none sent twice, checked there);
 * - `collector`: log requests into the real server process for the JSONL baseline, SQLite and ClickHouse, and the
 *   server's start-up on an empty and a filled store (`bench/collectorIngest.ts`; its size and stores are set by
 *   environment variables, e.g. `BENCH_COLLECTOR_EVENTS=200000` for a quick run), then the dashboard under load: ingest
 *   and `/healthz` latency on a large SQLite store with and without a polling dashboard (`bench/collectorDashboard.ts`;
 *   `BENCH_DASHBOARD_EVENTS`, 0 skips it);
 * - `state`: the calls a signed-in viewer makes on every load (`/accounts/token`, `/youtubei/v1/player`), log
 *   requests and watchtime pings with the rate limits counting and off, into the real server process on the SQLite
 *   state and on PostgreSQL, with its RSS (`bench/stateCalls.ts`; `BENCH_STATE_CLIENTS`, `BENCH_STATE_SECONDS`, `BENCH_STATE_DBS`);
 * - `abr`: the embed against hls.js, shaka-player and dash.js on the same H.264 ladder under bandwidth schedules, the
 *   bytes shaped by a loopback proxy (`bench/abr/abrBench.ts`; `BENCH_ABR_RUNS`, `BENCH_ABR_SECONDS`,
 *   `BENCH_ABR_SCHEDULES`, `BENCH_ABR_PLAYERS`, `--entry <path>`). Not part of a bare `npm run bench`: it plays for
 *   hours at its defaults.
 *
 * `npm run bench` runs everything but `abr`; `npm run bench -- page` (or `client`, `retry`, `collector`, `state`,
 * `abr`) one part. The `client`, `page`, `retry`, `state` and `abr` parts and the dashboard row write their result to
 * `bench/results/<kind>-latest.json`, replacing the last one.
 */
import { performance } from 'node:perf_hooks';
import { Subject, VirtualTimeScheduler } from 'rxjs';
import { HOST_MESSAGE_MAX_CHARS, hostGate } from '../streams/host/hostGate';
import { hostInboundOf } from '../streams/host/hostInboundOf';
import { hostDeliveries } from '../streams/host/hostDeliveries';
import { createLogSink } from '../streams/logging/createLogSink';
import type { ClientEvent } from '../streams/logging/stampEvent';
import { playerEvents } from '../streams/logging/playerEvents';
import { buildClientContext } from '../streams/transport/buildClientContext';
import { buildApiRequest } from '../streams/transport/buildApiRequest';
import { makeInfo } from '../test/streams/host/fixtures';
import { WallClockScheduler } from './wallClockScheduler';

interface Result {
  name: string;
  opsPerSecond: number;
  note?: string;
}

function measure(name: string, ops: number, run: () => void, rounds = 7): Result {
  run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  return { name, opsPerSecond: Math.round((ops / median) * 1000) };
}

const PARTS = ['client', 'page', 'retry', 'collector', 'state', 'abr'] as const;
const OPTIONS = ['--long', '--entry'] as const;
type Part = (typeof PARTS)[number];
const USAGE = `Usage: npm run bench [-- <part> ...] [--long] [--entry <path>]

Parts (all but abr when none is named):
  client      host messages, host deliveries, the log sink and its heap, the sink against OpenTelemetry's
  page        the embed against a bare page in Chromium: bytes, ready, first frame, seek, script time, heap, budgets
  retry       the retry queue against workbox-background-sync, draining 1,000 stored requests
  collector   log requests into the server for each store, start-up, the dashboard under load
  state       per server: /accounts/token, /youtubei/v1/player, log requests, pings on SQLite and PostgreSQL, RSS
  abr         the embed against hls.js, shaka-player and dash.js under bandwidth schedules (hours at its defaults)

Options:
  --long          page: play on to BENCH_LONG_PLAY_SECONDS (default 600) and report the heap there too
  --entry <path>  abr: the entry of the player under test
  --help          this text

Results go to bench/results/<part>-latest.json; environment variables (BENCH_*) are described in bench/run.ts.`;
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const parts = args.filter((a, i) => !(OPTIONS as readonly string[]).includes(a) && args[i - 1] !== '--entry');
const unknown = parts.filter((part) => !(PARTS as readonly string[]).includes(part));
if (unknown.length > 0) {
  console.error(`npm run bench: no part or option named ${unknown.map((u) => `"${u}"`).join(', ')}\n\n${USAGE}`);
  process.exit(2);
}
const runs = (part: Part) => (parts.length === 0 && part !== 'abr') || parts.includes(part);

/** The client-side hot paths (everything before the collector benchmark). */
function runClientBenches(): void {
  const results: Result[] = [];

  // ── Host messages ───────────────────────────────────────────────────────────────────────────────────────────────
  // What the protocol does with each host message: the gate (origin, window, JSON text), then the message's shape.
  const readHostMessage = (data: unknown) => {
    const gate = hostGate({ data, origin: 'https://host.example', source: {} }, null, { maxChars: HOST_MESSAGE_MAX_CHARS });
    return gate.accepted ? hostInboundOf(gate.value) : null;
  };
  const messages = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ event: 'command', func: 'setVolume', args: [i % 101], id: 1, channel: 'widget' }));
  results.push(
    measure('hostGate + hostInboundOf (setVolume commands)', messages.length, () => {
      for (const m of messages) readHostMessage(m);
    }),
  );
  const garbage = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? '{"event":' + 'x'.repeat(200) : { not: 'a string' }));
  results.push(
    measure('hostGate + hostInboundOf (malformed input, dropped)', garbage.length, () => {
      for (const m of garbage) readHostMessage(m);
    }),
  );

  // ── Host deliveries ─────────────────────────────────────────────────────────────────────────────────────────────
  const snapshots = Array.from({ length: 5_000 }, (_, i) => makeInfo({ currentTime: i / 4, playerState: 1 }));
  results.push(
    measure('hostDeliveries (timeupdate snapshot diff)', snapshots.length - 1, () => {
      for (let i = 1; i < snapshots.length; i++) hostDeliveries(snapshots[i - 1], snapshots[i]);
    }),
  );

  // ── Log sink ────────────────────────────────────────────────────────────────────────────────────────────────────
  // A micro-benchmark of the sink with one context built once. The target row (below, bench/sinkVsOtel.ts) builds
  // every request with the page's own API client instead, as the page does.
  const context = buildClientContext({});
  function runSink(eventCount: number): { requests: number } {
    // The page's clock: each `now()` a `Date.now()` (see bench/sinkVsOtel.ts).
    const scheduler = new WallClockScheduler();
    const events$ = new Subject<ClientEvent>();
    let requests = 0;
    const sink = createLogSink({
      buildRequest: (endpoint, payload) => buildApiRequest(endpoint, payload as unknown as Record<string, unknown>, { context }),
      send: () => {
        requests++;
        return [];
      },
      store: () => undefined,
      scheduler,
    });
    const sub = sink(events$).subscribe();
    for (let i = 0; i < eventCount; i++) {
      events$.next(playerEvents.stateChange({ videoId: 'VFsunrise01', previousState: 1, state: 2, mediaTimeSec: i }));
    }
    events$.complete();
    scheduler.flush();
    sub.unsubscribe();
    return { requests };
  }
  const sinkEvents = 20_000;
  const { requests } = runSink(sinkEvents);
  results.push({ ...measure('log sink (stamp + batch + build request)', sinkEvents, () => runSink(sinkEvents), 5), note: `${requests} requests` });

  // ── Memory: events waiting in the batching queue ────────────────────────────────────────────────────────────────
  function heapKeptBy(count: number): number {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().heapUsed;
    const scheduler = new VirtualTimeScheduler();
    const events$ = new Subject<ClientEvent>();
    const sink = createLogSink({
      buildRequest: (endpoint, payload) => buildApiRequest(endpoint, payload as unknown as Record<string, unknown>, { context }),
      send: () => [],
      store: () => undefined,
      scheduler,
      // Nothing leaves the queue until the max wait: every event stays queued while we measure.
      batching: { forceFlushQueuedEvents: Number.MAX_SAFE_INTEGER, initialTimeoutMs: 1e12, debounceMs: 1e12, maxQueueWaitMs: 1e12 },
    });
    const sub = sink(events$).subscribe();
    for (let i = 0; i < count; i++) events$.next(playerEvents.seek({ videoId: 'VFsunrise01', fromSec: i, toSec: i + 1 }));
    gc?.();
    const after = process.memoryUsage().heapUsed;
    sub.unsubscribe();
    return after - before;
  }
  const queued = 100_000;
  const kept = heapKeptBy(queued);

  console.log('VidFrame benchmarks (median of rounds; node ' + process.version + ')');
  for (const r of results) console.log(`  ${r.name.padEnd(48)} ${r.opsPerSecond.toLocaleString('en-US').padStart(12)} ops/s${r.note ? `  (${r.note})` : ''}`);
  console.log(
    `  ${'heap kept by 100 000 queued events'.padEnd(48)} ${(kept / 1024 / 1024).toFixed(1).padStart(12)} MiB  (${Math.round(kept / queued)} B/event${(globalThis as { gc?: unknown }).gc ? '' : ', run with --expose-gc for a steadier figure'})`,
  );
}

if (runs('client')) runClientBenches();
if (runs('client')) {
  const { runSinkComparison } = await import('./sinkVsOtel');
  const { printTable, writeResult, TARGETS } = await import('./report');
  const c = await runSinkComparison();
  const m = (x: number) => `${(x / 1e6).toFixed(2)} M events/s`;
  const ratio = c.vidframe.median / c.otel.median;
  printTable(`The logging sink against OTel's BatchLogRecordProcessor + OTLP-JSON (${c.events} events × ${c.rounds} rounds each, alternating)`, [
    {
      measure: 'stamp + batch + serialise requests (Node)',
      vidframe: `${m(c.vidframe.median)} (${m(c.vidframe.min)}–${m(c.vidframe.max)}; ${c.vidframeRequests} requests)`,
      bare: `OTel ${m(c.otel.median)} (${m(c.otel.min)}–${m(c.otel.max)}; ${c.otelBatches} batches)`,
      ratio: `${ratio.toFixed(2)}×`,
      target: `≥ ${TARGETS.sinkEventsPerSecond / 1e6} M/s and ≥ ${TARGETS.sinkOtelRatio}× OTel`,
      holds: c.vidframe.median >= TARGETS.sinkEventsPerSecond && ratio >= TARGETS.sinkOtelRatio,
    },
    {
      measure: 'the same, the clock standing still for a round',
      vidframe: `${m(c.vidframeSameMillisecond.median)} (${m(c.vidframeSameMillisecond.min)}–${m(c.vidframeSameMillisecond.max)})`,
      bare: `JSON.stringify alone on our bodies: ${m(c.serialiseOnly.median)}`,
      ratio: `${(c.vidframeSameMillisecond.median / c.otel.median).toFixed(2)}×`,
      target: '(diagnostic)',
      holds: null,
    },
  ]);
  console.log(`  written: ${writeResult('sink', c)}`);
}
if (runs('page')) {
  // Imported only when it runs: it starts the real server and Chromium.
  const { runPageBench, LONG_PLAY_DEFAULT_SECONDS } = await import('./embedPage');
  const { printPageReport, writeResult } = await import('./report');
  const { pageBudgets, printBudgets } = await import('./budgets');
  const longPlaySeconds = args.includes('--long') ? Number(process.env.BENCH_LONG_PLAY_SECONDS ?? LONG_PLAY_DEFAULT_SECONDS) : undefined;
  const result = await runPageBench({ longPlaySeconds });
  printPageReport(result);
  const withinBudgets = printBudgets(pageBudgets(result));
  console.log(`  written: ${writeResult('page', result)}`);
  // As the first load's byte budget fails its test, an exceeded budget fails the run.
  if (!withinBudgets) {
    console.error('page: a budget is exceeded (see above)');
    process.exitCode = 1;
  }
}
if (runs('retry')) {
  // Imported only when it runs: it bundles a page with Vite and launches Chromium.
  const { runRetryBench } = await import('./retryDrain');
  const { printRetryReport, writeResult } = await import('./report');
  const result = await runRetryBench();
  printRetryReport(result);
  console.log(`  written: ${writeResult('retry', result)}`);
}
if (runs('collector')) {
  // Imported only when it runs: it installs clean-up handlers for the processes and folders it creates.
  const { runCollectorBench } = await import('./collectorIngest');
  await runCollectorBench();
  const { runDashboardBench } = await import('./collectorDashboard');
  await runDashboardBench();
}
if (runs('state')) {
  // Imported only when it runs: it starts server processes and PostgreSQL.
  const { runStateBench } = await import('./stateCalls');
  const { writeResult } = await import('./report');
  console.log(`  written: ${writeResult('state', await runStateBench())}`);
}
if (runs('abr')) {
  // Imported only when it runs: it starts the reference server, Chromium for every play, and may encode a dev ladder.
  const { runAbrBench } = await import('./abr/abrBench');
  const { printAbrReport } = await import('./abr/abrReport');
  const { writeResult } = await import('./report');
  const result = await runAbrBench(args);
  const { comparisons, summaries } = printAbrReport(result);
  console.log(`  written: ${writeResult('abr', { ...result, summaries, comparisons })}`);
}
