/**
 * Who calls what, in a CPU profile saved by `TICK_PROFILE_SAVE=<file> node --import tsx bench/tickCost.ts` (issue 15):
 * the time of the samples under each function whose label contains `<match>`, by the chain of this project's own
 * frames above it (rxjs and other dependencies left out, so that a chain reads as the page's code).
 *
 *   node --import tsx bench/profileCallers.ts <file> <match> [top]
 */
import { readFileSync } from 'node:fs';
import { whereOf, type Profile } from './profilePlayback';

const [file, match, top = '15'] = process.argv.slice(2);
if (!file || !match) throw new Error('usage: profileCallers.ts <profile.json> <match> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const where = new Map(profile.nodes.map((n) => [n.id, whereOf(n)]));
const chains = new Map<string, number>();
let totalMs = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  const stack: string[] = [];
  for (let at: number | undefined = profile.samples[i]; at !== undefined; at = parent.get(at)) stack.push(where.get(at)!.label);
  const hit = stack.findIndex((label) => label.includes(match));
  if (hit < 0) continue;
  totalMs += ms;
  const own = stack.slice(hit).filter((label, k) => k === 0 || (!label.startsWith('rxjs') && !label.startsWith('observable-hooks') && !label.startsWith('(')));
  const chain = own.slice(0, 8).join('\n      ← ');
  chains.set(chain, (chains.get(chain) ?? 0) + ms);
}
console.log(`${totalMs.toFixed(1)} ms under "${match}"`);
for (const [chain, ms] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${chain}`);
