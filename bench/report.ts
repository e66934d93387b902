import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { spread, type PageBenchResult, type Spread } from './embedPage';
import type { RetryBenchResult } from './retryDrain';

/** Issue 15's targets: what the ratios and figures are judged on. */
export const TARGETS = {
  brotliBytes: 80 * 1024,
  gzipBytes: 100 * 1024,
  readyRatio: 1.5,
  firstFrameRatio: 1.5,
  seekMedianMs: 20,
  scriptRatio: 3,
  heapRatio: 2,
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
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function pageRows(r: PageBenchResult): Row[] {
  const of = (kind: 'vidframe' | 'bare', pick: (l: PageBenchResult['loads']['bare'][number]) => number[] | number) =>
    spread(r.loads[kind].flatMap((l) => pick(l)));
  const ready = { v: of('vidframe', (l) => l.readyMs), b: of('bare', (l) => l.readyMs) };
  const frame = { v: of('vidframe', (l) => l.firstFrameMs), b: of('bare', (l) => l.firstFrameMs) };
  const media = { v: of('vidframe', (l) => l.mediaRequestMs), b: of('bare', (l) => l.mediaRequestMs) };
  const seek = { v: of('vidframe', (l) => l.seekRoundTripMs), b: of('bare', (l) => l.seekRoundTripMs) };
  const heap = { v: of('vidframe', (l) => l.heapAfterLoadBytes), b: of('bare', (l) => l.heapAfterLoadBytes) };
  const script = { v: spread(r.play.vidframe.scriptMsPer10s), b: spread(r.play.bare.scriptMsPer10s) };
  const ratio = (a: number, b: number) => a / b;
  const x = (n: number) => `${n.toFixed(2)}×`;
  const heapPlayRatio = ratio(r.play.vidframe.heapAfterPlayBytes, r.play.bare.heapAfterPlayBytes);
  const heapLoadRatio = ratio(heap.v.median, heap.b.median);
  return [
    {
      measure: 'embed JS + CSS, first load, as served',
      vidframe: `${kb(r.bytes.raw)} raw, ${kb(r.bytes.gzip)} gzip, ${kb(r.bytes.brotli)} brotli (${r.bytes.files.length} files)`,
      bare: '—',
      ratio: '—',
      target: `≤ ${kb(TARGETS.brotliBytes)} brotli, ≤ ${kb(TARGETS.gzipBytes)} gzip`,
      holds: r.bytes.brotli <= TARGETS.brotliBytes && r.bytes.gzip <= TARGETS.gzipBytes,
    },
    {
      measure: 'iframe created → onReady at the host',
      vidframe: ms(ready.v),
      bare: ms(ready.b),
      ratio: x(ratio(ready.v.median, ready.b.median)),
      target: `≤ ${TARGETS.readyRatio}× bare`,
      holds: ratio(ready.v.median, ready.b.median) <= TARGETS.readyRatio,
    },
    {
      measure: 'iframe created → first video frame',
      vidframe: ms(frame.v),
      bare: ms(frame.b),
      ratio: x(ratio(frame.v.median, frame.b.median)),
      target: `≤ ${TARGETS.firstFrameRatio}× bare`,
      holds: ratio(frame.v.median, frame.b.median) <= TARGETS.firstFrameRatio,
    },
    {
      measure: 'iframe created → media request starts',
      vidframe: ms(media.v),
      bare: ms(media.b),
      ratio: x(ratio(media.v.median, media.b.median)),
      target: '(diagnostic)',
      holds: null,
    },
    ...(
      [
        ['iframe created → its HTML received', (l) => l.htmlReceivedMs],
        ['iframe created → DOMContentLoaded (scripts ran)', (l) => l.domContentLoadedMs],
        ['iframe created → load event', (l) => l.loadEventMs],
      ] as const satisfies readonly (readonly [string, (l: PageBenchResult['loads']['bare'][number]) => number])[]
    )
      // Results written before these were recorded have none.
      .filter(([, pick]) => r.loads.vidframe.every((l) => Number.isFinite(pick(l))))
      .map(([measure, pick]): Row => {
        const v = of('vidframe', pick);
        const b = of('bare', pick);
        return { measure, vidframe: ms(v), bare: ms(b), ratio: x(ratio(v.median, b.median)), target: '(diagnostic)', holds: null };
      }),
    // When the last first-load script has arrived (the bare page has none; its ratio is to the bare page's onReady):
    // the floor of onReady for an embed that answers from a script file. The embed answers from its HTML since the
    // handshake moved there (streams/host/earlyHandshake.ts), so its onReady may come before it.
    ...(r.loads.vidframe.every((l) => Number.isFinite(l.scriptsReceivedMs))
      ? [
          ((v: Spread): Row => ({
            measure: 'iframe created → its first-load scripts received',
            vidframe: ms(v),
            bare: '— (no script file)',
            ratio: `${x(ratio(v.median, ready.b.median))} bare onReady`,
            target: '(diagnostic: onReady from a script file could not come sooner)',
            holds: null,
          }))(of('vidframe', (l) => l.scriptsReceivedMs)),
        ]
      : []),
    {
      measure: 'seekTo while paused → infoDelivery',
      vidframe: ms(seek.v),
      bare: ms(seek.b),
      ratio: x(ratio(seek.v.median, seek.b.median)),
      target: `< ${TARGETS.seekMedianMs} ms median`,
      holds: seek.v.median < TARGETS.seekMedianMs,
    },
    {
      measure: 'script time per 10 s of playback (CDP)',
      vidframe: ms(script.v),
      bare: ms(script.b),
      ratio: x(ratio(script.v.median, script.b.median)),
      target: `≤ ${TARGETS.scriptRatio}× bare`,
      holds: ratio(script.v.median, script.b.median) <= TARGETS.scriptRatio,
    },
    {
      measure: 'JS heap after load, settled (after GC)',
      vidframe: mb(heap.v.median),
      bare: mb(heap.b.median),
      ratio: x(heapLoadRatio),
      target: `≤ ${TARGETS.heapRatio}× bare`,
      holds: heapLoadRatio <= TARGETS.heapRatio,
    },
    {
      measure: `JS heap after ${r.playSeconds} s playing (after GC)`,
      vidframe: mb(r.play.vidframe.heapAfterPlayBytes),
      bare: mb(r.play.bare.heapAfterPlayBytes),
      ratio: x(heapPlayRatio),
      target: `≤ ${TARGETS.heapRatio}× bare`,
      holds: heapPlayRatio <= TARGETS.heapRatio,
    },
  ];
}

/**
 * The retry queue's drain against workbox-background-sync's `Queue` (issue 15 names no target for this row: figures
 * and ratios only, `holds` empty). Ratios are ours / workbox: below 1 is faster for times, above 1 for rates.
 */
export function retryRows(r: RetryBenchResult): Row[] {
  const x = (n: number) => `${n.toFixed(2)}×`;
  const rate = (s: Spread) => `${Math.round((r.requests / s.median) * 1000).toLocaleString('en-US')} req/s`;
  const none = '(issue 15 names none)';
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
  printTable(`The embed against a bare page (${r.runs} cold loads of each, interleaved; ${r.playSeconds} s of playback; media ${r.mediaPath})`, pageRows(r));
}

/** Writes `bench/results/<name>-<timestamp>.json` and returns its path. */
export function writeResult(name: string, result: unknown): string {
  const dir = resolve(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const path = resolve(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const rows =
    typeof result === 'object' && result && 'loads' in result
      ? pageRows(result as PageBenchResult)
      : typeof result === 'object' && result && 'drain' in result
        ? retryRows(result as RetryBenchResult)
        : undefined;
  writeFileSync(path, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, ...(rows && { rows }), result }, null, 2)}\n`);
  return path;
}
