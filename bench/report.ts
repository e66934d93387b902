import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { heapBudget, kb, mib, pageBudgets, settledHeapBytes, sizeBudget } from './budgets';
import type { LoadSample, PageBenchResult } from './embedPage';
import type { RetryBenchResult } from './retryDrain';
import { spread, type Spread } from './spread';

/** The ratio targets a run is judged on (printed: yes / NO); the budgets in bytes are in `bench/budgets.ts`. */
export const TARGETS = {
  readyRatio: 1.5,
  firstFrameRatio: 1.5,
  seekMedianMs: 20,
  scriptRatio: 3,
  sinkEventsPerSecond: 2_000_000,
  sinkOtelRatio: 5,
} as const;

export interface Row {
  measure: string;
  vidframe: string;
  bare: string;
  ratio: string;
  target: string;
  holds: boolean | null;
}

const ms = (s: Spread) => `${s.median.toFixed(1)} ms (p95 ${s.p95.toFixed(1)}, ${s.min.toFixed(0)}–${s.max.toFixed(0)})`;
const x = (n: number) => `${n.toFixed(2)}×`;
const of = (r: PageBenchResult, kind: 'vidframe' | 'bare', pick: (l: LoadSample) => number[] | number) => spread(r.loads[kind].flatMap((l) => pick(l)));

/** A timed measure of both pages with a ratio target (or none: a diagnostic). */
function ratioRow(r: PageBenchResult, measure: string, pick: (l: LoadSample) => number, target?: number): Row {
  const v = of(r, 'vidframe', pick);
  const b = of(r, 'bare', pick);
  const ratio = v.median / b.median;
  return target === undefined
    ? { measure, vidframe: ms(v), bare: ms(b), ratio: x(ratio), target: '(diagnostic)', holds: null }
    : { measure, vidframe: ms(v), bare: ms(b), ratio: x(ratio), target: `≤ ${target}× bare`, holds: ratio <= target };
}

/** The load's milestones, diagnostics (results without them have none). */
function milestoneRows(r: PageBenchResult): Row[] {
  const milestones: [string, (l: LoadSample) => number][] = [
    ['iframe created → its HTML received', (l) => l.htmlReceivedMs],
    ['iframe created → DOMContentLoaded (scripts ran)', (l) => l.domContentLoadedMs],
    ['iframe created → load event', (l) => l.loadEventMs],
  ];
  const rows = milestones.filter(([, pick]) => r.loads.vidframe.every((l) => Number.isFinite(pick(l)))).map(([measure, pick]) => ratioRow(r, measure, pick));
  // When the last first-load script has arrived (the bare page has none; its ratio is to the bare page's onReady): the
  // floor of onReady for an embed that answers from a script file. The embed answers from its HTML
  // (streams/host/earlyHandshake.ts), so its onReady may come before it.
  if (r.loads.vidframe.every((l) => Number.isFinite(l.scriptsReceivedMs))) {
    const v = of(r, 'vidframe', (l) => l.scriptsReceivedMs);
    rows.push({
      measure: 'iframe created → its first-load scripts received',
      vidframe: ms(v),
      bare: '— (no script file)',
      ratio: `${x(v.median / of(r, 'bare', (l) => l.readyMs).median)} bare onReady`,
      target: '(diagnostic: onReady from a script file could not come sooner)',
      holds: null,
    });
  }
  return rows;
}

/** The heap rows: held to the budget in bytes, the ratio to the bare page a diagnostic; the long play's figure beside. */
function heapRows(r: PageBenchResult): Row[] {
  const budget = heapBudget();
  const [settled, afterPlay] = pageBudgets(r).slice(2);
  const bareSettled = of(r, 'bare', (l) => l.heapAfterLoadBytes).median;
  const rows: Row[] = [
    {
      measure: 'JS heap after load, settled (after GC, median)',
      vidframe: mib(settledHeapBytes(r)),
      bare: mib(bareSettled),
      ratio: x(settledHeapBytes(r) / bareSettled),
      target: `≤ ${mib(budget.settledBytes)} (budget)`,
      holds: settled.holds,
    },
    {
      measure: `JS heap after ${r.playSeconds} s playing (after GC)`,
      vidframe: mib(r.play.vidframe.heapAfterPlayBytes),
      bare: mib(r.play.bare.heapAfterPlayBytes),
      ratio: x(r.play.vidframe.heapAfterPlayBytes / r.play.bare.heapAfterPlayBytes),
      target: afterPlay.holds === null ? `(budget for ${budget.playSeconds} s)` : `≤ ${mib(budget.afterPlayBytes)} (budget)`,
      holds: afterPlay.holds,
    },
  ];
  const long = { v: r.play.vidframe.heapAfterLongPlayBytes, b: r.play.bare.heapAfterLongPlayBytes };
  if (r.longPlaySeconds !== undefined && long.v !== undefined && long.b !== undefined) {
    rows.push({
      measure: `JS heap after ${r.longPlaySeconds} s playing (after GC)`,
      vidframe: mib(long.v),
      bare: mib(long.b),
      ratio: x(long.v / long.b),
      target: '(diagnostic)',
      holds: null,
    });
  }
  return rows;
}

export function pageRows(r: PageBenchResult): Row[] {
  const size = sizeBudget();
  const seek = of(r, 'vidframe', (l) => l.seekRoundTripMs);
  const script = { v: spread(r.play.vidframe.scriptMsPer10s), b: spread(r.play.bare.scriptMsPer10s) };
  return [
    {
      measure: 'embed JS + CSS, first load, as served',
      vidframe: `${kb(r.bytes.raw)} raw, ${kb(r.bytes.gzip)} gzip, ${kb(r.bytes.brotli)} brotli (${r.bytes.files.length} files)`,
      bare: '—',
      ratio: '—',
      target: `≤ ${kb(size.brotliBytes)} brotli, ≤ ${kb(size.gzipBytes)} gzip (budget)`,
      holds: r.bytes.brotli <= size.brotliBytes && r.bytes.gzip <= size.gzipBytes,
    },
    ratioRow(r, 'iframe created → onReady at the host', (l) => l.readyMs, TARGETS.readyRatio),
    ratioRow(r, 'iframe created → first video frame', (l) => l.firstFrameMs, TARGETS.firstFrameRatio),
    ratioRow(r, 'iframe created → media request starts', (l) => l.mediaRequestMs),
    ...milestoneRows(r),
    {
      measure: 'seekTo while paused → infoDelivery',
      vidframe: ms(seek),
      bare: ms(of(r, 'bare', (l) => l.seekRoundTripMs)),
      ratio: x(seek.median / of(r, 'bare', (l) => l.seekRoundTripMs).median),
      target: `< ${TARGETS.seekMedianMs} ms median`,
      holds: seek.median < TARGETS.seekMedianMs,
    },
    {
      measure: 'script time per 10 s of playback (CDP)',
      vidframe: ms(script.v),
      bare: ms(script.b),
      ratio: x(script.v.median / script.b.median),
      target: `≤ ${TARGETS.scriptRatio}× bare`,
      holds: script.v.median / script.b.median <= TARGETS.scriptRatio,
    },
    ...heapRows(r),
  ];
}

/**
 * The retry queue's drain against workbox-background-sync's `Queue`: figures and ratios only, no target (`holds`
 * empty). Ratios are ours / workbox: below 1 is faster for times, above 1 for rates.
 */
export function retryRows(r: RetryBenchResult): Row[] {
  const rate = (s: Spread) => `${Math.round((r.requests / s.median) * 1000).toLocaleString('en-US')} req/s`;
  const none = '(none)';
  const n = r.requests.toLocaleString('en-US');
  return [
    {
      measure: `store ${n} requests (one at a time, IndexedDB)`,
      vidframe: ms(r.store.vidframe),
      bare: ms(r.store.workbox),
      ratio: x(r.store.vidframe.median / r.store.workbox.median),
      target: none,
      holds: null,
    },
    {
      measure: `drain ${n} requests to the endpoint`,
      vidframe: ms(r.drain.vidframe),
      bare: ms(r.drain.workbox),
      ratio: x(r.drain.vidframe.median / r.drain.workbox.median),
      target: none,
      holds: null,
    },
    {
      measure: 'store rate (median)',
      vidframe: rate(r.store.vidframe),
      bare: rate(r.store.workbox),
      ratio: x(r.store.workbox.median / r.store.vidframe.median),
      target: none,
      holds: null,
    },
    {
      measure: 'drain rate (median)',
      vidframe: rate(r.drain.vidframe),
      bare: rate(r.drain.workbox),
      ratio: x(r.drain.workbox.median / r.drain.vidframe.median),
      target: none,
      holds: null,
    },
  ];
}

export function printRetryReport(r: RetryBenchResult): void {
  const runs = r.runs.length / 2;
  printTable(
    `The retry queue against workbox-background-sync's Queue (${r.requests.toLocaleString('en-US')} requests × ${runs} runs each, alternating, each in a fresh Chromium ${r.chromium} profile on disk)`,
    retryRows(r),
    { baseline: 'workbox' },
  );
  console.log(`  checked at the receiver after every run: ${r.requests.toLocaleString('en-US')} distinct ids, none twice, bodies as stored, both stores empty`);
  const steps = (kind: 'vidframe' | 'workbox') =>
    Object.entries(r.phasesPerRequestMs[kind])
      .map(([name, value]) => `${name} ${value.toFixed(2)}`)
      .join(' + ');
  const perRequest = (s: Spread) => (s.median / r.requests).toFixed(2);
  console.log(
    `  per request (ms, median of runs): ours ${perRequest(r.drain.vidframe)} = ${steps('vidframe')} + scheduling; workbox ${perRequest(r.drain.workbox)} = ${steps('workbox')} + scheduling`,
  );
  console.log(
    `  ours drains with throttle and delays at 0 here (the machinery's cost); in production it waits ${r.productionThrottleMs} ms between resends: ` +
      `${r.requests.toLocaleString('en-US')} requests take ≥ ${((r.requests * r.productionThrottleMs) / 1000).toFixed(0)} s of throttle alone (workbox replays without pause)`,
  );
}

export function printTable(title: string, rows: Row[], { baseline = 'bare' }: { baseline?: string } = {}): void {
  const cols: (keyof Row)[] = ['measure', 'vidframe', 'bare', 'ratio', 'target', 'holds'];
  const cell = (r: Row, c: keyof Row) => (c === 'holds' ? (r.holds === null ? '' : r.holds ? 'yes' : 'NO') : String(r[c]));
  const header = cols.map((c) => (c === 'bare' ? baseline : String(c)));
  const widths = cols.map((c, i) => Math.max(header[i].length, ...rows.map((r) => cell(r, c).length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(title);
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => cell(r, c))));
}

export function printPageReport(r: PageBenchResult): void {
  const play = r.longPlaySeconds === undefined ? `${r.playSeconds} s of playback` : `${r.longPlaySeconds} s of playback, heap also at ${r.playSeconds} s`;
  printTable(`The embed against a bare page (${r.runs} cold loads of each, interleaved; ${play}; media ${r.mediaPath})`, pageRows(r));
}

/**
 * Writes `bench/results/<kind>-latest.json` (replacing the last run's) and returns its path: the folder keeps one
 * result per kind, the one the docs quote; earlier runs live in git's history.
 */
export function writeResult(kind: string, result: unknown): string {
  const dir = resolve(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const path = resolve(dir, `${kind}-latest.json`);
  // Results of this kind written under any other name (an older, timestamped naming) go: one per kind stays.
  for (const name of readdirSync(dir)) if (name.startsWith(`${kind}-`) && /-\d{4}-\d{2}-\d{2}T[\d-]+Z\.json$/.test(name)) rmSync(resolve(dir, name));
  const page = typeof result === 'object' && result !== null && 'loads' in result ? (result as PageBenchResult) : undefined;
  const rows = page ? pageRows(page) : typeof result === 'object' && result && 'drain' in result ? retryRows(result as RetryBenchResult) : undefined;
  const budgets = page ? pageBudgets(page) : undefined;
  writeFileSync(
    path,
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, ...(rows && { rows }), ...(budgets && { budgets }), result }, null, 2)}\n`,
  );
  return path;
}
