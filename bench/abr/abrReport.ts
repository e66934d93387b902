/**
 * The adaptive benchmark's table: per schedule, each player's medians with their least and most, then VidFrame's
 * figures against the best peer on each (the highest QoE, the lowest rebuffer ratio, the shortest startup). A player
 * that did not play in a run counts there as not played (its figures left out, the count of plays shown).
 */
import { spread, type Spread } from '../spread';
import type { AbrBenchResult, PlayRecord, ScheduleResult } from './abrBench';
import { PEERS, type Player } from './pages';

const MEASURES = ['startupMs', 'rebufferRatio', 'stalls', 'bitrateKbps', 'switches', 'qoePerSegment'] as const;
type Measure = (typeof MEASURES)[number];

export type PlayerSummary = Record<Measure, Spread> & { played: number; plays: number };

export interface Comparison {
  schedule: string;
  qoe: { vidframe: number; bestPeer: Player | null; best: number; ratio: number };
  rebufferRatio: { vidframe: number; bestPeer: Player | null; best: number; ratio: number };
  startupMs: { vidframe: number; bestPeer: Player | null; best: number; ratio: number };
}

export function summarise(plays: PlayRecord[]): PlayerSummary {
  const played = plays.filter((p) => p.played);
  const out = { played: played.length, plays: plays.length } as PlayerSummary;
  for (const m of MEASURES) out[m] = spread(played.map((p) => p[m]));
  return out;
}

function best(summaries: Partial<Record<Player, PlayerSummary>>, measure: Measure, higherIsBetter: boolean): { peer: Player | null; value: number } {
  let found: { peer: Player | null; value: number } = { peer: null, value: NaN };
  for (const peer of PEERS) {
    const v = summaries[peer]?.[measure].median;
    if (v === undefined || !Number.isFinite(v)) continue;
    if (found.peer === null || (higherIsBetter ? v > found.value : v < found.value)) found = { peer, value: v };
  }
  return found;
}

export function compare(schedule: ScheduleResult): { summaries: Partial<Record<Player, PlayerSummary>>; comparison: Comparison } {
  const summaries: Partial<Record<Player, PlayerSummary>> = {};
  for (const [player, plays] of Object.entries(schedule.plays)) summaries[player as Player] = summarise(plays);
  const vf = summaries.vidframe;
  const against = (measure: Measure, higherIsBetter: boolean) => {
    const b = best(summaries, measure, higherIsBetter);
    const v = vf?.[measure].median ?? NaN;
    return { vidframe: v, bestPeer: b.peer, best: b.value, ratio: v / b.value };
  };
  return {
    summaries,
    comparison: {
      schedule: schedule.name,
      qoe: against('qoePerSegment', true),
      rebufferRatio: against('rebufferRatio', false),
      startupMs: against('startupMs', false),
    },
  };
}

const FORMAT: Record<Measure, (x: number) => string> = {
  startupMs: (x) => x.toFixed(0),
  rebufferRatio: (x) => `${(x * 100).toFixed(1)}%`,
  stalls: (x) => x.toFixed(0),
  bitrateKbps: (x) => x.toFixed(0),
  switches: (x) => x.toFixed(0),
  qoePerSegment: (x) => x.toFixed(3),
};

const cell = (s: Spread, m: Measure) => (s.n === 0 ? '—' : `${FORMAT[m](s.median)} (${FORMAT[m](s.min)}–${FORMAT[m](s.max)})`);

function printSchedule(schedule: ScheduleResult): Comparison {
  const { summaries, comparison } = compare(schedule);
  const header = ['player', 'played', 'startup ms', 'rebuffer', 'stalls', 'bitrate kbps', 'switches', 'QoE/segment'];
  const rows = Object.entries(summaries).map(([player, s]) => [player, `${s.played}/${s.plays}`, ...MEASURES.map((m) => cell(s[m], m))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${schedule.name}: ${schedule.description} (median (min–max))`);
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(r));
  if (summaries.vidframe) {
    const c = comparison;
    const f = (x: number, d: number) => (Number.isFinite(x) ? x.toFixed(d) : '—');
    console.log(
      `  VidFrame against the best peer: QoE/segment ${f(c.qoe.vidframe, 3)} vs ${c.qoe.bestPeer ?? '—'} ${f(c.qoe.best, 3)} (${f(c.qoe.ratio, 2)}×, target ≥ 1); ` +
        `rebuffer ${f(c.rebufferRatio.vidframe * 100, 1)}% vs ${c.rebufferRatio.bestPeer ?? '—'} ${f(c.rebufferRatio.best * 100, 1)}% (target ≤); ` +
        `startup ${f(c.startupMs.vidframe, 0)} ms vs ${c.startupMs.bestPeer ?? '—'} ${f(c.startupMs.best, 0)} ms (${f(c.startupMs.ratio, 2)}×, target ≤ 1)`,
    );
  }
  return comparison;
}

/** Prints the tables; returns the summaries and comparisons for the JSON result. */
export function printAbrReport(result: AbrBenchResult): { comparisons: Comparison[]; summaries: Record<string, Partial<Record<Player, PlayerSummary>>> } {
  console.log(`\nAdaptive streaming: ${result.entry.id}, ${result.runs} runs × ${result.seconds} s per player and schedule, bytes shaped by a loopback proxy`);
  const comparisons = result.schedules.map(printSchedule);
  const worstLink = Math.max(0, ...result.schedules.flatMap((s) => Object.values(s.plays).flatMap((p) => p.map((x) => x.link.maxSecondRatio))));
  console.log(`\n  the link: no second carried more than ${worstLink.toFixed(3)}× its schedule (the proxy's count)`);
  return { comparisons, summaries: Object.fromEntries(result.schedules.map((s) => [s.name, compare(s).summaries])) };
}
