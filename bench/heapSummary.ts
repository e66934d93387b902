/**
 * Heap snapshots of the frame by constructor (count and self size), and what grew between two of them: the
 * `PROFILE_HEAP_SECONDS` diff of `bench/profilePlayback.ts`.
 */
import type { CDPSession } from 'playwright-core';

export interface HeapSummary {
  [constructor: string]: { count: number; bytes: number };
}

/** A heap snapshot after a forced GC, summed by constructor (closures by name, other kinds by type). */
export async function heapSummary(cdp: CDPSession): Promise<HeapSummary> {
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

/** Prints what grew most between two summaries. */
export function heapDiff(before: HeapSummary, after: HeapSummary, top: number): void {
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
