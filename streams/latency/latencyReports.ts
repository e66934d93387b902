import { asyncScheduler, filter, from, mergeMap, type Observable, scan, type SchedulerLike } from 'rxjs';
import { LATENCY_MAX_ENTRIES_PER_KEY, LATENCY_STALE_ENTRY_MS } from '../timing';
import { latencySpan, type LatencySpanResult } from './latencySpan';
import { type LatencyLog, recordLatencyTick } from './recordLatencyTick';

/** A tick as the app sends it: `{ action: 'watch', name: 'playerReady' }`, timed on arrival unless `time` is given. */
export interface LatencyTick {
  action: string;
  name: string;
  /** Milliseconds on the scheduler's clock when the moment happened, if earlier than the tick's arrival. */
  time?: number;
}

/** A span to report: from tick `from` to tick `to`, of one action or (no `action`) of every action. */
export interface LatencySpanSpec {
  from: string;
  to: string;
  action?: string;
}

/** One measured span, for the logging layer. */
export interface LatencyReport extends LatencySpanResult {
  action: string;
  from: string;
  to: string;
}

export interface LatencyReportsOptions {
  /** The spans to report, e.g. `[{ from: 'navigationStart', to: 'playerReady' }]`. */
  spans: readonly LatencySpanSpec[];
  maxEntriesPerKey?: number;
  staleEntryMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * Latency timing (spec §1, §9): named ticks per action go in, a report comes out each time a tick ends one of
 * `spans` and its start tick is in the log.
 *
 * - A tick is timed with `scheduler.now()` when it arrives (or carries its own earlier `time`).
 * - The log keeps at most {@link LATENCY_MAX_ENTRIES_PER_KEY} entries per (action, name) and purges entries older
 *   than {@link LATENCY_STALE_ENTRY_MS} at every tick (see `recordLatencyTick`): a start older than 60 s at the
 *   end tick gives no report.
 * - The span runs from the latest start at or before the end (see `latencySpan`).
 * - A malformed tick (action or name not a string, a time that is not a finite number) is skipped, never thrown.
 *
 * ```
 * ticks$:  --s-----r----r--      s = watch/navigationStart, r = watch/playerReady
 * result:  --------R----R--      R = { action: 'watch', from: 'navigationStart', to: 'playerReady', durationMs: … }
 * ```
 *
 * Wire it with a `Subject<LatencyTick>` whose `next({ action, name })` is the app's `tick(action, name)`.
 */
export function latencyReports(
  ticks$: Observable<LatencyTick>,
  { spans, maxEntriesPerKey = LATENCY_MAX_ENTRIES_PER_KEY, staleEntryMs = LATENCY_STALE_ENTRY_MS, scheduler = asyncScheduler }: LatencyReportsOptions,
): Observable<LatencyReport> {
  const seed: { log: LatencyLog; reports: LatencyReport[] } = { log: new Map(), reports: [] };
  return ticks$.pipe(
    filter(isWellFormed),
    scan(({ log }, tick) => {
      const now = scheduler.now();
      const timed = { action: tick.action, name: tick.name, time: tick.time ?? now };
      const next = recordLatencyTick(log, timed, now, { maxEntriesPerKey, staleEntryMs });
      const reports: LatencyReport[] = [];
      for (const span of spans) {
        if (span.to !== tick.name || (span.action !== undefined && span.action !== tick.action)) continue;
        const measured = latencySpan(next, tick.action, span.from, span.to);
        if (measured) reports.push({ action: tick.action, from: span.from, to: span.to, ...measured });
      }
      return { log: next, reports };
    }, seed),
    mergeMap(({ reports }) => from(reports)),
  );
}

function isWellFormed(tick: LatencyTick): boolean {
  if (tick === null || typeof tick !== 'object') return false;
  if (typeof tick.action !== 'string' || typeof tick.name !== 'string') return false;
  return tick.time === undefined || Number.isFinite(tick.time);
}
