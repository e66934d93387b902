/**
 * Who calls what, in a saved CPU profile (`TICK_PROFILE_SAVE=<file> node --import tsx bench/tickCost.ts`, or
 * `PROFILE_OUT=<file> node --import tsx bench/profilePlayback.ts`). For the samples under a function whose
 * label contains `<match>`: by default the chain of this project's own frames above it (its callers); with
 * `CALLEES=<depth>`, what it spends its time in, by the first `depth` project frames below it (its callees). rxjs and
 * observable-hooks frames are left out, so that a chain reads as the page's code. `BINS=burst` or `BINS=steady` keeps
 * only the samples in the 250 ms bins busier (or not) than 3× the median bin, as `PROFILE_SPLIT=1` splits them.
 *
 *   node --import tsx bench/profileCallers.ts <file> <match> [top]
 */
import { readFileSync } from 'node:fs';
import { busyBins, whereOf, type Profile } from './cpuProfile';

const [file, match, top = '15'] = process.argv.slice(2);
if (!file || !match) throw new Error('usage: profileCallers.ts <profile.json> <match> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const calleeDepth = Number(process.env.CALLEES ?? 0);
const keep: (i: number) => boolean = (() => {
  if (!process.env.BINS) return () => true;
  const { bins, binOf } = busyBins(profile, 250_000);
  const median = [...bins].sort((a, b) => a - b)[bins.length >> 1];
  const burst = (i: number) => bins[binOf(i)] > 3 * median;
  return process.env.BINS === 'burst' ? burst : (i) => !burst(i);
})();
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const where = new Map(profile.nodes.map((n) => [n.id, whereOf(n)]));
const ours = (label: string) => !label.startsWith('rxjs') && !label.startsWith('observable-hooks');
const chains = new Map<string, number>();
let totalMs = 0;
for (let i = 0; i < profile.samples.length; i++) {
  if (!keep(i)) continue;
  const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  const stack: string[] = [];
  for (let at: number | undefined = profile.samples[i]; at !== undefined; at = parent.get(at)) stack.push(where.get(at)!.label);
  const hit = stack.findIndex((label) => label.includes(match));
  if (hit < 0) continue;
  totalMs += ms;
  const chain =
    calleeDepth > 0
      ? stack
          .slice(0, hit)
          .reverse()
          .filter(ours)
          .slice(0, calleeDepth)
          .map((label) => label.slice(0, 100))
          .join('\n      → ') || '(in itself)'
      : stack
          .slice(hit)
          .filter((label, k) => k === 0 || (ours(label) && !label.startsWith('(')))
          .slice(0, 8)
          .join('\n      ← ');
  chains.set(chain, (chains.get(chain) ?? 0) + ms);
}
console.log(`${totalMs.toFixed(1)} ms under "${match}"`);
for (const [chain, ms] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${chain}`);
