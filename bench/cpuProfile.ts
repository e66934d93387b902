/**
 * A CPU profile of the frame (CDP `Profiler`), attributed to the original sources through the built scripts' source
 * maps: self time by function and by file, total time by function, and the busy time per bin (steady ticks and bursts
 * apart). Shared by `bench/profilePlayback.ts`, `bench/tickCost.ts` and `bench/profileCallers.ts`.
 */
import { mapFor, shortSource } from './sourceMap';

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
