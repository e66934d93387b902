/**
 * The budgets `npm run bench -- page` holds the embed to, in bytes: its first load on the wire
 * (`bench/size-budget.json`, also held by `test/e2e/compression.e2e.ts`) and its JS heap (`bench/heap-budget.json`).
 * A budget is a figure that must not be exceeded, not a ratio: the run prints each with its figure and exits non-zero
 * when one is over. Ratios to the bare page stay in the table as diagnostics.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PageBenchResult } from './embedPage';
import { spread } from './spread';

interface SizeBudget {
  embedFirstLoad: { brotliBytes: number; gzipBytes: number };
}

interface HeapBudget {
  embedHeap: { settledBytes: number; afterPlayBytes: number; playSeconds: number };
}

const readBudget = <T>(file: string): T => JSON.parse(readFileSync(resolve(import.meta.dirname, file), 'utf8')) as T;

export const sizeBudget = (): SizeBudget['embedFirstLoad'] => readBudget<SizeBudget>('size-budget.json').embedFirstLoad;
export const heapBudget = (): HeapBudget['embedHeap'] => readBudget<HeapBudget>('heap-budget.json').embedHeap;

export interface BudgetCheck {
  budget: string;
  figureBytes: number;
  limitBytes: number;
  /** Whether the figure is within the budget; null when the run could not check it (`note` says why). */
  holds: boolean | null;
  note?: string;
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The median settled heap of the embed's cold loads. */
export const settledHeapBytes = (r: PageBenchResult) => spread(r.loads.vidframe.map((l) => l.heapAfterLoadBytes)).median;

/** Every budget of the page benchmark, checked against one run. */
export function pageBudgets(r: PageBenchResult): BudgetCheck[] {
  const size = sizeBudget();
  const heap = heapBudget();
  const check = (budget: string, figureBytes: number, limitBytes: number): BudgetCheck => ({
    budget,
    figureBytes,
    limitBytes,
    holds: figureBytes <= limitBytes,
  });
  const afterPlay = check(`JS heap after ${heap.playSeconds} s playing`, r.play.vidframe.heapAfterPlayBytes, heap.afterPlayBytes);
  return [
    check('first load, brotli', r.bytes.brotli, size.brotliBytes),
    check('first load, gzip', r.bytes.gzip, size.gzipBytes),
    check('JS heap after load, settled (median)', settledHeapBytes(r), heap.settledBytes),
    r.playSeconds === heap.playSeconds
      ? afterPlay
      : { ...afterPlay, holds: null, note: `not checked: the figure is after ${r.playSeconds} s (BENCH_PLAY_SECONDS)` },
  ];
}

/** Prints each budget with its figure and whether it holds; returns false when one is exceeded. */
export function printBudgets(checks: BudgetCheck[]): boolean {
  console.log('Budgets (bench/size-budget.json, bench/heap-budget.json):');
  const width = Math.max(...checks.map((c) => c.budget.length));
  for (const c of checks) {
    const bytes = (n: number) =>
      c.budget.startsWith('first load') ? `${n.toLocaleString('en-US')} B (${kb(n)})` : `${n.toLocaleString('en-US')} B (${mib(n)})`;
    const verdict = c.holds === null ? c.note : c.holds ? 'holds' : 'EXCEEDED';
    console.log(`  ${c.budget.padEnd(width)}  ${bytes(c.figureBytes)} ≤ ${bytes(c.limitBytes)}: ${verdict}`);
  }
  return checks.every((c) => c.holds !== false);
}
