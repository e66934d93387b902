/**
 * Where the embed's script time goes while it plays: a CPU profile of the frame's renderer during steady
 * playback, attributed to the original sources through `dist/assets/*.map`, and what churns per second (timers,
 * listeners). Optionally a heap diff between "just ready" and "after N seconds of playback".
 *
 *   npm run build                                    # it serves dist/, as the page benchmark does
 *   node --import tsx bench/profilePlayback.ts       # the embed; add `bare` for the bare page of bench/embedPage.ts
 *
 * Settings (environment):
 * - `PROFILE_WARMUP_SECONDS` (default 5): playback before the profile starts (the load and first frame are not steady).
 * - `PROFILE_SECONDS` (default 10): how long the CPU profile records (0: no profile, e.g. for a heap diff alone: the
 *   profiler keeps code of its own alive).
 * - `PROFILE_TOP` (default 40): rows per table.
 * - `PROFILE_COUNT=0`: do not count timers and listeners (counting wraps `setTimeout`, `addEventListener`, … in the
 *   frame, which costs a little script time itself; the tables of the profile are recorded either way).
 * - `PROFILE_HEAP_SECONDS` (default 0: off): also take a heap snapshot at ready and after that many seconds of play, and
 *   print what grew, by constructor (count and retained self size).
 * - `PROFILE_METRICS_SECONDS` (default 0: off): first, without the profiler, CDP ScriptDuration (the page benchmark's
 *   measure) per second for that many seconds: shows what is steady per tick and what comes in bursts (a loop, a ping).
 * - `PROFILE_SPLIT=1`: attribute the steady 250 ms bins and the bursts (busier than 3× the median bin) apart.
 * - `PROFILE_OUT` (optional): a file to write the raw `.cpuprofile` to (opens in Chrome DevTools' Performance panel).
 *
 * The frame is the same as the page benchmark's: the embed framed cross-site by a listening host (`enablejsapi=1`,
 * autoplay, muted, loop), in its own renderer process, in headless Chromium on loopback. The CDP session is the
 * frame's own target, so the profile holds that renderer only.
 *
 * Output: self time by original function (file:line of the function's start, with the source line), self time by
 * original file, total (inclusive) time by function, and the counters per second. "(program)", "(garbage
 * collector)" and "(idle)" are V8's own buckets; ScriptDuration of the page benchmark is roughly everything but idle.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CDPSession } from 'playwright-core';
import { BENCH_MEDIA_PATH, cdpFor, openFrame, newViewer, startBenchPages, type Kind } from './embedPage';
import { mapFor, shortSource } from './sourceMaps';

// ── The CPU profile ─────────────────────────────────────────────────────────────────────────────────────────────────
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Where {
  key: string;
  file: string;
  label: string;
}

export function whereOf(node: ProfileNode): Where {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  if (!url) return { key: functionName || '(anonymous)', file: functionName.startsWith('(') ? functionName : '(native)', label: functionName || '(anonymous)' };
  const map = mapFor(url);
  const mapped = map?.lookup(lineNumber, columnNumber);
  if (!map || !mapped) {
    const file = url.split('/').pop() ?? url;
    return { key: `${file}:${lineNumber + 1}:${columnNumber}`, file, label: `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}` };
  }
  const file = shortSource(mapped.source);
  const text = (map.sourceLine(mapped.source, mapped.line) ?? '').trim().slice(0, 70);
  return { key: `${file}:${mapped.line}`, file, label: `${file}:${mapped.line}  ${text}` };
}

function table(title: string, rows: [string, number][], totalMs: number, top: number): void {
  console.log(`\n${title}`);
  for (const [label, ms] of rows.sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${ms.toFixed(1).padStart(8)} ms ${((ms / totalMs) * 100).toFixed(1).padStart(5)}%  ${label}`);
  }
}

/** Busy (not idle) microseconds per `binUs` of the profile, and the bin of each sample. */
export function busyBins(profile: Profile, binUs: number): { bins: number[]; binOf: (i: number) => number } {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const at: number[] = [];
  let t = profile.startTime;
  const bins: number[] = [];
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    at.push(t);
    const bin = Math.floor((t - profile.startTime) / binUs);
    while (bins.length <= bin) bins.push(0);
    if (!idle.has(profile.samples[i])) bins[bin] += profile.timeDeltas[i + 1] ?? 0;
  }
  return { bins, binOf: (i) => Math.floor((at[i] - profile.startTime) / binUs) };
}

export function attribute(profile: Profile, top: number, title = '', keep: (sample: number) => boolean = () => true): void {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const where = new Map(profile.nodes.map((n) => [n.id, whereOf(n)]));
  const self = new Map<string, number>();
  const selfFile = new Map<string, number>();
  const total = new Map<string, number>();
  const labels = new Map<string, string>();
  let busyMs = 0;
  let idleMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000; // a sample's time is the gap to the next one
    if (!keep(i)) continue;
    const id = profile.samples[i];
    const w = where.get(id)!;
    if (w.key === '(idle)') {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    labels.set(w.key, w.label);
    self.set(w.key, (self.get(w.key) ?? 0) + ms);
    selfFile.set(w.file, (selfFile.get(w.file) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = where.get(at)!;
      if (k.key === '(root)' || seen.has(k.key)) continue;
      seen.add(k.key);
      labels.set(k.key, k.label);
      total.set(k.key, (total.get(k.key) ?? 0) + ms);
    }
  }
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  console.log(
    `\n${title}profile: ${seconds.toFixed(1)} s, busy ${busyMs.toFixed(1)} ms (${((busyMs / seconds) * 10).toFixed(1)} ms / 10 s), idle ${idleMs.toFixed(0)} ms`,
  );
  table(
    'self time by function',
    [...self].map(([k, ms]) => [labels.get(k)!, ms]),
    busyMs,
    top,
  );
  table('self time by file', [...selfFile], busyMs, top);
  table(
    'total time by function (caller and callees)',
    [...total].map(([k, ms]) => [labels.get(k)!, ms]),
    busyMs,
    top,
  );
}

// ── Counters: timers and listeners per second, in the frame ──────────────────────────────────────────────────────────
const COUNTERS = `(() => {
  if (window === window.top) return;
  const counts = (window.__profileCounts = {});
  const bump = (k) => (counts[k] = (counts[k] || 0) + 1);
  const wrap = (obj, name, key) => {
    const original = obj[name];
    obj[name] = function (...args) { bump(key(args)); return original.apply(this, args); };
  };
  wrap(window, 'setTimeout', (a) => 'setTimeout ' + (a[1] ?? 0) + ' ms');
  wrap(window, 'clearTimeout', () => 'clearTimeout');
  wrap(window, 'setInterval', (a) => 'setInterval ' + (a[1] ?? 0) + ' ms');
  wrap(window, 'clearInterval', () => 'clearInterval');
  wrap(window, 'requestAnimationFrame', () => 'requestAnimationFrame');
  wrap(window, 'queueMicrotask', () => 'queueMicrotask');
  wrap(EventTarget.prototype, 'addEventListener', (a) => 'addEventListener ' + a[0]);
  wrap(EventTarget.prototype, 'removeEventListener', (a) => 'removeEventListener ' + a[0]);
  wrap(Window.prototype, 'postMessage', () => 'postMessage');
})();`;

async function scriptSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((m) => m.name === 'ScriptDuration')?.value ?? NaN;
}

async function counts(cdp: CDPSession): Promise<Record<string, number>> {
  const { result } = (await cdp.send('Runtime.evaluate', { expression: 'JSON.stringify(window.__profileCounts || {})', returnByValue: true })) as {
    result: { value: string };
  };
  return JSON.parse(result.value) as Record<string, number>;
}

// ── Heap snapshots ─────────────────────────────────────────────────────────────────────────────────────────────────
interface HeapSummary {
  [constructor: string]: { count: number; bytes: number };
}

async function heapSummary(cdp: CDPSession): Promise<HeapSummary> {
  await cdp.send('HeapProfiler.collectGarbage');
  const chunks: string[] = [];
  const onChunk = (e: { chunk: string }) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const snap = JSON.parse(chunks.join('')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = snap.snapshot.meta.node_types[0];
  const out: HeapSummary = {};
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]];
    const name = type === 'object' || type === 'closure' || type === 'native' ? snap.strings[snap.nodes[i + nameAt]] : `(${type})`;
    const key = type === 'closure' ? `closure ${name}` : name;
    const e = (out[key] ??= { count: 0, bytes: 0 });
    e.count++;
    e.bytes += snap.nodes[i + sizeAt];
  }
  return out;
}

function heapDiff(before: HeapSummary, after: HeapSummary, top: number): void {
  const rows = Object.keys({ ...before, ...after }).map((k) => {
    const a = before[k] ?? { count: 0, bytes: 0 };
    const b = after[k] ?? { count: 0, bytes: 0 };
    return { k, dCount: b.count - a.count, dBytes: b.bytes - a.bytes, bytes: b.bytes };
  });
  const sum = (s: HeapSummary) => Object.values(s).reduce((n, e) => n + e.bytes, 0);
  console.log(`\nheap (snapshot self sizes): ${(sum(before) / 1024).toFixed(0)} KB at ready → ${(sum(after) / 1024).toFixed(0)} KB; grew most:`);
  for (const r of rows.sort((x, y) => y.dBytes - x.dBytes).slice(0, top)) {
    console.log(
      `  ${(r.dBytes / 1024).toFixed(1).padStart(8)} KB ${String(r.dCount).padStart(7)} objects  ${r.k.slice(0, 90)}  (now ${(r.bytes / 1024).toFixed(1)} KB)`,
    );
  }
}

// ── The run ───────────────────────────────────────────────────────────────────────────────────────────────────────
async function main(): Promise<void> {
  const kind: Kind = process.argv.includes('bare') ? 'bare' : 'vidframe';
  const warmup = Number(process.env.PROFILE_WARMUP_SECONDS ?? 5);
  const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
  const top = Number(process.env.PROFILE_TOP ?? 40);
  const heapSeconds = Number(process.env.PROFILE_HEAP_SECONDS ?? 0);
  const count = process.env.PROFILE_COUNT !== '0';

  const { servers, close } = await startBenchPages();
  const mediaPath = BENCH_MEDIA_PATH;
  const viewer = await newViewer();
  try {
    const context = viewer.context;
    if (count) await context.addInitScript(COUNTERS);
    const { page, frame } = await openFrame(context, servers, kind, mediaPath);
    const cdp = await cdpFor(context, page, frame);
    console.log(`${kind}: ready and playing at ${frame.url()}`);
    const heapAtReady = heapSeconds > 0 ? await heapSummary(cdp) : undefined;

    await page.waitForTimeout(warmup * 1000);
    const metricsSeconds = Number(process.env.PROFILE_METRICS_SECONDS ?? 0);
    if (metricsSeconds > 0) {
      await cdp.send('Performance.enable', { timeDomain: 'threadTicks' }).catch(() => cdp.send('Performance.enable'));
      const perSecond: number[] = [];
      let before = await scriptSeconds(cdp);
      for (let i = 0; i < metricsSeconds; i++) {
        await page.waitForTimeout(1000);
        const now = await scriptSeconds(cdp);
        perSecond.push((now - before) * 1000);
        before = now;
      }
      const sorted = [...perSecond].sort((a, b) => a - b);
      const total = perSecond.reduce((a, b) => a + b, 0);
      console.log(
        `\nScriptDuration per second (${metricsSeconds} s, ${((total / metricsSeconds) * 10).toFixed(1)} ms / 10 s; median second ${sorted[sorted.length >> 1].toFixed(2)} ms):`,
      );
      console.log(`  ${perSecond.map((x) => x.toFixed(1)).join(' ')}`);
    }
    if (seconds > 0) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); // µs
      const countsBefore = count ? await counts(cdp) : {};
      await cdp.send('Profiler.start');
      await page.waitForTimeout(seconds * 1000);
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
      const countsAfter = count ? await counts(cdp) : {};
      if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
      if (process.env.PROFILE_SPLIT === '1') {
        // Steady ticks and bursts (a loop's new load, a ping, a log request) apart: a 250 ms bin is a burst when it is
        // busier than three times the median bin.
        const { bins, binOf } = busyBins(profile, 250_000);
        const median = [...bins].sort((a, b) => a - b)[bins.length >> 1];
        const burst = (i: number) => bins[binOf(i)] > 3 * median;
        console.log(`\n250 ms bins, busy ms: ${bins.map((b) => (b / 1000).toFixed(0)).join(' ')}`);
        attribute(profile, top, '[steady bins] ', (i) => !burst(i));
        attribute(profile, top, '[burst bins] ', burst);
      } else attribute(profile, top);
      if (count) {
        console.log(`\nper second (${seconds} s):`);
        const rows = Object.keys(countsAfter)
          .map((k) => [k, ((countsAfter[k] ?? 0) - (countsBefore[k] ?? 0)) / seconds] as const)
          .filter(([, n]) => n > 0)
          .sort((a, b) => b[1] - a[1]);
        for (const [k, n] of rows) console.log(`  ${n.toFixed(1).padStart(7)}  ${k}`);
      }
    }
    if (heapAtReady) {
      const left = heapSeconds - warmup - seconds;
      if (left > 0) await page.waitForTimeout(left * 1000);
      heapDiff(heapAtReady, await heapSummary(cdp), top);
    }
    await cdp.detach().catch(() => undefined);
  } finally {
    await viewer.close();
    await close();
  }
}

// Run when started as a script (bench/tickCost.ts imports `attribute` from here).
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
