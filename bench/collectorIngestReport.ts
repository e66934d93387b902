/**
 * The report of the collector ingest benchmark (bench/collectorIngest.ts): its figures as text lines, per store and
 * in summary.
 */
import type { Config, StartFigure, StoreReport } from './collectorIngest';

export const int = (n: number) => Math.round(n).toLocaleString('en-US');
export const ms = (n: number) => (Number.isFinite(n) ? (n >= 100 ? n.toFixed(0) : n.toFixed(1)) : '–');
export const mib = (n: number | undefined) => (n === undefined ? '–' : `${int(n)} MiB`);
export const secs = (n: number) => `${(n / 1000).toFixed(2)} s`;
/** CPU seconds, and the share of one core over the load's wall time. */
const cpu = (seconds: number | undefined, wallMs: number) =>
  seconds === undefined ? '?' : `${seconds.toFixed(0)} s (${Math.round((seconds * 100000) / wallMs)}% of a core)`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

// ── Report ──────────────────────────────────────────────────────────────────────────────────────────────────────
export function storeLines(report: StoreReport, cfg: Config): string[] {
  const lines = [`  ${report.target.label}`];
  if (report.skipped) return [...lines, `    skipped: ${report.skipped}`];
  const load = report.load;
  if (!load) return [...lines, `    failed: ${report.loadError ?? 'no figures'}`];
  const side = report.target.sideLabel;
  lines.push(
    `    ${'events acked'.padStart(12)} ${'elapsed'.padStart(8)} ${'events/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'server RSS'.padStart(11)}${side ? `  ${side}` : ''}`,
  );
  for (const c of load.checkpoints) {
    lines.push(
      `    ${int(c.events).padStart(12)} ${`${(c.elapsedMs / 1000).toFixed(1)} s`.padStart(8)} ${int(c.segmentEventsPerSec).padStart(9)} ${ms(c.p50Ms).padStart(7)} ${ms(c.p99Ms).padStart(7)} ${mib(c.rssMiB).padStart(11)}${side ? `  ${mib(c.sideRssMiB).padStart(side.length)}` : ''}`,
    );
  }
  const failures = [...load.failures].map(([status, n]) => `${int(n)} × ${status === 0 ? 'connection failed' : status}`).join(', ');
  lines.push(
    `    overall: ${int(load.eventsPerSec)} events/s (${int(load.events)} events in ${(load.elapsedMs / 1000).toFixed(1)} s, ${int(load.requests)} requests), ` +
      `p50 ${ms(load.p50Ms)} ms, p99 ${ms(load.p99Ms)} ms, max ${ms(load.maxMs)} ms; peak RSS ${mib(load.peakRssMiB)}${side ? ` (${side} peak ${mib(load.peakSideRssMiB)})` : ''}`,
    `    CPU: server ${cpu(load.serverCpuSec, load.elapsedMs)}, ${side ? `clickhouse-server ${cpu(load.sideCpuSec, load.elapsedMs)}, ` : ''}bench client ${cpu(load.clientCpuSec, load.elapsedMs)}; requests not acknowledged (sent again): ${failures || 'none'}`,
    ...(report.serverTimings ? [`    server side: ${report.serverTimings}`] : []),
    `    stored (server's own count): ${typeof report.stored === 'number' ? int(report.stored) : report.stored}${typeof report.stored === 'number' && report.stored !== load.events ? `  ≠ ${int(load.events)} acknowledged` : ''}; ` +
      `on disk ${report.disk?.bytes !== undefined ? mib(report.disk.bytes / 1048576) : '–'}${report.disk?.note ? ` (${report.disk.note})` : ''}`,
  );
  if (load.stoppedEarly)
    lines.push(`    stopped early: ${load.stoppedEarly} (figures cover the ${int(load.events)} events acknowledged, not ${int(cfg.events)})`);
  if (report.loadError) lines.push(`    error: ${report.loadError}`);
  return lines;
}

function startCell(figure: StartFigure | undefined): string {
  if (!figure) return 'not measured';
  if ('failure' in figure) return `FAILED after ${Number.isFinite(figure.afterMs) ? secs(figure.afterMs) : '?'}: ${figure.failure}`;
  const listen = median(figure.runs.map((r) => r.listenMs));
  const ready = median(figure.runs.map((r) => r.readyMs));
  const rss = median(figure.runs.map((r) => r.rssMiB ?? NaN));
  return `listening ${secs(listen)}, ready ${secs(ready)}, RSS ${mib(rss)} (ready: ${figure.runs.map((r) => (r.readyMs / 1000).toFixed(2)).join(' / ')} s)`;
}

export function summaryLines(reports: StoreReport[], cfg: Config): string[] {
  const lines: string[] = [];
  const filledLabel = `${int(cfg.events)} events`;
  lines.push(
    `  Start-up (median of ${cfg.starts}; spawn → listening, spawn → first 200 from /readyz (baseline: /healthz), RSS when ready; cap ${cfg.startupTimeoutMs / 1000} s)`,
  );
  for (const r of reports) {
    if (r.skipped || (!r.startEmpty && !r.startFilled)) continue;
    const name = r.target.key === 'jsonl' ? 'JSONL baseline' : r.target.key === 'sqlite' ? 'SQLite' : 'ClickHouse';
    const filledEvents = r.load ? `${int(r.load.events)} events` : filledLabel;
    lines.push(`    ${name.padEnd(15)} empty store:  ${startCell(r.startEmpty)}`);
    lines.push(`    ${''.padEnd(15)} ${`${filledEvents}:`.padEnd(13)} ${startCell(r.startFilled)}`);
  }

  const baseline = reports.find((r) => r.target.key === 'jsonl')?.load;
  const reference = baseline && !baseline.stoppedEarly ? baseline.eventsPerSec : undefined;
  lines.push(
    reference
      ? `  Comparison with the JSONL baseline measured in this run (${int(reference)} events/s, p99 ${ms(baseline!.p99Ms)} ms, peak RSS ${mib(baseline!.peakRssMiB)}); target ≥ 5× its events/s with RSS flat as the store grows:`
      : `  Comparison: no complete JSONL baseline in this run; the issue's figure (≈ 12,000 events/s, p99 688 ms, RSS 1 GB after 2 M events) is used for the ratio; target ≥ 5× with RSS flat:`,
  );
  const base = reference ?? 12_000;
  for (const r of reports) {
    if (r.target.key === 'jsonl' || !r.load) continue;
    const load = r.load;
    const rss = load.checkpoints.map((c) => (c.rssMiB === undefined ? '–' : int(c.rssMiB))).join(' → ');
    const ratio = load.eventsPerSec / base;
    lines.push(
      `    ${(r.target.key === 'sqlite' ? 'SQLite' : 'ClickHouse').padEnd(11)} ${int(load.eventsPerSec)} events/s = ${ratio.toFixed(1)}× (${ratio >= 5 ? 'meets' : 'misses'} ≥ 5×), p99 ${ms(load.p99Ms)} ms; ` +
        `server RSS at ${load.checkpoints.map((c) => `${Math.round((c.events / cfg.events) * 100)}%`).join('/')}: ${rss} MiB${load.stoppedEarly ? ` (stopped early: ${load.stoppedEarly})` : ''}`,
    );
  }
  return lines;
}
