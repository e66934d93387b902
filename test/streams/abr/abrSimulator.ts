import { Subject, type Subscription } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import type { DecisionParams, QualityDecision, QualityPreference } from '../../../streams/abr/abrDecision';
import { type Rung, segmentBytesOf } from '../../../streams/abr/abrRules';
import { adaptiveDecisions, type TransferProgress } from '../../../streams/abr/adaptiveDecisions';
import type { BandwidthSample, SegmentTransfer } from '../../../streams/abr/bandwidthSample';
import { ABR_BUFFER_GOAL_S } from '../../../streams/timing';

/**
 * A small player in virtual time for the decision rules: one link shaped by a bandwidth schedule, segments fetched one
 * after another at the rung of the latest decision, a buffer that fills with each segment and drains at play speed
 * once the first segment is in, and the abandon rule's decisions carried out (the transfer aborted, the segment asked
 * again at the new rung), as are replacements (the segments past the kept seconds fetched again over the buffer).
 */

/** From `atS` on (seconds since the start), the link carries `bps`. */
export interface BandwidthStep {
  atS: number;
  bps: number;
}
export type BandwidthSchedule = readonly BandwidthStep[];

/** The H.264 ladder of docs/adaptive-streaming.md, with segment sizes that vary with the content like a real encode. */
export function h264Ladder(segments: number, segmentSeconds = 2): Rung[] {
  const rates: [string, number][] = [
    ['tiny', 110_000],
    ['small', 250_000],
    ['medium', 500_000],
    ['large', 900_000],
    ['hd720', 1_800_000],
    ['hd1080', 3_500_000],
  ];
  // Complexity varies by scene (the same for every rung); each rung's encoder also misses its mean a little.
  return rates.map(([quality, bitrate], r) => ({
    quality,
    bitrate,
    segmentBytes: Array.from({ length: segments }, (_, k) =>
      Math.round(((bitrate * segmentSeconds) / 8) * (1 + 0.3 * Math.sin(k * 0.7)) * (1 + 0.05 * Math.cos(k * 1.3 + r))),
    ),
  }));
}

const bpsAt = (schedule: BandwidthSchedule, ms: number) => schedule.reduce((bps, step) => (step.atS * 1000 <= ms ? step.bps : bps), 0);

/** Bytes the link carries from `fromMs` to `toMs`. */
export function bytesBetween(schedule: BandwidthSchedule, fromMs: number, toMs: number): number {
  let bytes = 0;
  const edges = [fromMs, ...schedule.map((s) => s.atS * 1000).filter((ms) => ms > fromMs && ms < toMs), toMs];
  for (let i = 0; i + 1 < edges.length; i++) bytes += (bpsAt(schedule, edges[i]!) / 8) * ((edges[i + 1]! - edges[i]!) / 1000);
  return bytes;
}

/** When `bytes` have arrived, starting at `fromMs` (whole milliseconds). */
export function arrivalMs(schedule: BandwidthSchedule, fromMs: number, bytes: number): number {
  let at = fromMs;
  let left = bytes;
  for (;;) {
    const bps = bpsAt(schedule, at);
    const nextEdge = schedule.map((s) => s.atS * 1000).find((ms) => ms > at) ?? Infinity;
    const canCarry = bps > 0 ? (bps / 8) * ((nextEdge - at) / 1000) : 0;
    if (bps > 0 && canCarry >= left) return Math.ceil(at + (left / (bps / 8)) * 1000);
    if (nextEdge === Infinity) return Infinity;
    left -= canCarry;
    at = nextEdge;
  }
}

/** The page's load before the engine starts: `bytes` at the schedule's first rate, ending at 0. */
function pageSample(schedule: BandwidthSchedule, bytes: number): BandwidthSample {
  const bps = schedule[0]?.bps ?? 0;
  const durationMs = (bytes * 8 * 1000) / bps;
  return { bps, durationMs, bytes, endMs: 0 };
}

export interface SimulationOptions {
  ladder: Rung[];
  schedule: BandwidthSchedule;
  segments: number;
  segmentSeconds?: number;
  latencyMs?: number;
  bufferGoalS?: number;
  tickMs?: number;
  /** Preferences over time: the first at 0. */
  preferences?: { atMs: number; preference: QualityPreference }[];
  /** The decision's parameters, when a test changes one. */
  params?: DecisionParams;
  /** Whether the engine reports progress to the abandon rule (true by default). */
  abandon?: boolean;
  /** What the page's own load measured before the engine started: `pageBytes` carried at the schedule's first rate. */
  pageBytes?: number;
}

export interface SegmentRecord {
  index: number;
  rung: number;
  requestMs: number;
  endMs: number;
  /** Stall time while this segment was being fetched. */
  rebufferMs: number;
}

export interface SimulationResult {
  segments: SegmentRecord[];
  decisions: (QualityDecision & { atMs: number; bufferS: number })[];
  abandons: { atMs: number; segment: number; from: number; to: number }[];
  /** Each replacement: when, and the first segment dropped to be fetched again. */
  replacements: { atMs: number; from: number }[];
  estimates: { atMs: number; bps: number }[];
  startupMs: number;
  stalls: number;
  /** When the last segment arrived. */
  finishedMs: number;
}

/** Runs one playback to the last segment in `scheduler`'s virtual time (run mode) and returns what happened. */
export function simulate(scheduler: TestScheduler, options: SimulationOptions): SimulationResult {
  const { ladder, schedule, segments, segmentSeconds = 2, latencyMs = 40, bufferGoalS = ABR_BUFFER_GOAL_S, tickMs = 250 } = options;
  const preferences = options.preferences ?? [{ atMs: 0, preference: 'auto' }];
  const result: SimulationResult = { segments: [], decisions: [], abandons: [], replacements: [], estimates: [], startupMs: NaN, stalls: 0, finishedMs: NaN };
  scheduler.run(() => {
    const transfers$ = new Subject<SegmentTransfer>();
    const buffer$ = new Subject<number>();
    const preference$ = new Subject<QualityPreference>();
    const progress$ = new Subject<TransferProgress>();
    const { decisions$, estimate$ } = adaptiveDecisions(
      {
        ladder,
        segmentSeconds,
        transfers$,
        buffer$,
        preference$,
        progress$: options.abandon === false ? undefined : progress$,
        startSamples: options.pageBytes ? [pageSample(schedule, options.pageBytes)] : [],
      },
      { ...options.params, scheduler },
    );
    let decision: QualityDecision = { index: 0, reason: 'startup' };
    let buffer = 0;
    let lastMs = 0;
    let started = false;
    let stalled = false;
    let stallMs = 0;
    // The segment to fetch next, and the number of segments buffered from the start: they differ while a replacement
    // fetches segments again over the buffer.
    let next = 0;
    let end = 0;
    let inflight: { rung: number; requestMs: number; firstByteMs: number; total: number; reported: number; cancel: () => void } | null = null;
    const now = () => scheduler.now();
    const advance = () => {
      const dt = (now() - lastMs) / 1000;
      lastMs = now();
      if (!started) return;
      if (buffer >= dt) buffer -= dt;
      else {
        if (next < segments) {
          stallMs += (dt - buffer) * 1000;
          if (!stalled) result.stalls++;
          stalled = true;
        }
        buffer = 0;
      }
    };
    // The wait for room in the buffer, when the buffer is full: a replacement fetches at once instead.
    let waiting: Subscription | null = null;
    const fetch = () => {
      advance();
      waiting?.unsubscribe();
      waiting = null;
      const playheadS = end * segmentSeconds - buffer;
      // Replacing what the playhead has passed is pointless: on from the buffer's end.
      if (next < end && (next + 1) * segmentSeconds <= playheadS) next = end;
      if (next >= segments) {
        result.finishedMs = now();
        return;
      }
      const aheadS = next * segmentSeconds - playheadS;
      if (aheadS >= bufferGoalS) {
        waiting = scheduler.schedule(fetch, Math.max(1, Math.ceil((aheadS - bufferGoalS) * 1000)));
        return;
      }
      const rung = decision.index;
      const total = segmentBytesOf(ladder[rung]!, segmentSeconds, next);
      const requestMs = now();
      const firstByteMs = requestMs + latencyMs;
      const endMs = arrivalMs(schedule, firstByteMs, total);
      const done = scheduler.schedule(() => complete(), endMs - requestMs);
      inflight = { rung, requestMs, firstByteMs, total, reported: 0, cancel: () => done.unsubscribe() };
    };
    const complete = () => {
      const t = inflight!;
      inflight = null;
      advance();
      // A segment past the buffer's end extends it; a replaced one takes the old one's place (and its stall time).
      const replaced = result.segments.find((s) => s.index === next);
      if (next >= end) {
        buffer += segmentSeconds;
        end = next + 1;
      }
      if (!started) result.startupMs = now();
      started = true;
      stalled = false;
      result.segments = result.segments.filter((s) => s !== replaced);
      result.segments.push({ index: next, rung: t.rung, requestMs: t.requestMs, endMs: now(), rebufferMs: stallMs + (replaced?.rebufferMs ?? 0) });
      result.segments.sort((a, b) => a.index - b.index);
      stallMs = 0;
      buffer$.next(buffer);
      transfers$.next({ bytes: t.total, requestMs: t.requestMs, firstByteMs: t.firstByteMs, endMs: now(), segmentIndex: next });
      next++;
      fetch();
    };
    const abandon = (to: number) => {
      const t = inflight;
      if (!t) return;
      t.cancel();
      inflight = null;
      const bytes = now() > t.firstByteMs ? Math.min(t.total, bytesBetween(schedule, t.firstByteMs, now())) : 0;
      result.abandons.push({ atMs: now(), segment: next, from: t.rung, to });
      transfers$.next({ bytes, requestMs: t.requestMs, firstByteMs: Math.min(t.firstByteMs, now()), endMs: now(), segmentIndex: next, failed: true });
      fetch();
    };
    // A switch up that replaces: from the segment `keepS` past the playhead on, segments are fetched again at the new
    // rung over the buffer (the one in flight is dropped); the buffer keeps its level.
    const replace = (keepS: number) => {
      advance();
      const playheadS = end * segmentSeconds - buffer;
      const from = Math.floor((playheadS + keepS) / segmentSeconds);
      if (from >= next || from * segmentSeconds <= playheadS) return;
      inflight?.cancel();
      inflight = null;
      next = from;
      result.replacements.push({ atMs: now(), from });
      fetch();
    };
    const tick = () => {
      advance();
      buffer$.next(buffer);
      const t = inflight;
      if (t && now() > t.firstByteMs) {
        const loaded = Math.min(t.total, bytesBetween(schedule, t.firstByteMs, now()));
        if (loaded > t.reported) {
          t.reported = loaded;
          progress$.next({
            rungIndex: t.rung,
            segmentIndex: next,
            requestMs: t.requestMs,
            firstByteMs: t.firstByteMs,
            bytesLoaded: loaded,
            bytesTotal: t.total,
          });
        }
      }
      if (next < segments) scheduler.schedule(tick, tickMs);
    };
    decisions$.subscribe((d) => {
      decision = d;
      result.decisions.push({ ...d, atMs: now(), bufferS: buffer });
      // The engine aborts at once, outside the decision's own emission.
      if (d.reason === 'abandon') scheduler.schedule(() => abandon(d.index), 0);
      const { replaceFromS } = d;
      if (replaceFromS !== undefined) scheduler.schedule(() => replace(replaceFromS), 0);
    });
    estimate$.subscribe((bps) => result.estimates.push({ atMs: now(), bps }));
    for (const { atMs, preference } of preferences) scheduler.schedule(() => preference$.next(preference), atMs);
    scheduler.schedule(() => {
      tick();
      fetch();
    }, 0);
  });
  return result;
}

/** The linear QoE of the ABR literature: Σ bitrate (Mbit/s) − 4.3 × rebuffer seconds − Σ |bitrate change|, per segment. */
export function linearQoe(ladder: readonly Rung[], segments: readonly SegmentRecord[]): number {
  const q = segments.map((s) => ladder[s.rung]!.bitrate / 1e6);
  const rebufferS = segments.reduce((sum, s) => sum + s.rebufferMs / 1000, 0);
  const changes = q.slice(1).reduce((sum, x, i) => sum + Math.abs(x - q[i]!), 0);
  return q.reduce((a, b) => a + b, 0) - 4.3 * rebufferS - changes;
}

/** Number of rung changes from one segment to the next. */
export const switchCount = (segments: readonly SegmentRecord[]) => segments.slice(1).filter((s, i) => s.rung !== segments[i]!.rung).length;
