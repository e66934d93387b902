import { asyncScheduler, distinctUntilChanged, filter, map, merge, type Observable, of, scan, type SchedulerLike, throttleTime } from 'rxjs';
import { ABR_DEFAULT_ESTIMATE_BPS, ABR_ESTIMATE_THROTTLE_MS } from '../timing';
import { abandonTo, type AbrState, decide, type DecisionParams, initialAbrState, type QualityDecision, type QualityPreference } from './abrDecision';
import type { Rung } from './abrRules';
import { shouldAbandon } from './abandonRule';
import { estimateBps, type EstimateState, initialEstimate, nextEstimate } from './bandwidthEstimate';
import { type BandwidthSample, sampleOf, type SegmentTransfer } from './bandwidthSample';

/** The segment transfer in flight, as the engine reports it while bytes arrive (times on the scheduler's clock). */
export interface TransferProgress {
  rungIndex: number;
  segmentIndex?: number;
  requestMs: number;
  /** When the first byte arrived, or null while none has. */
  firstByteMs: number | null;
  bytesLoaded: number;
  /** The segment's size, or null when unknown. */
  bytesTotal: number | null;
}

export interface AdaptiveInputs {
  /** The video rungs, lowest bitrate first. */
  ladder: readonly Rung[];
  segmentSeconds: number;
  /**
   * Each segment transfer once it ends (failed ones too). A completed one is reported once its segment is buffered,
   * so the decision it triggers reads the buffer level with that segment in it.
   */
  transfers$: Observable<SegmentTransfer>;
  /** Seconds buffered ahead of the playhead, whenever it changes (at least as often as the playhead moves). */
  buffer$: Observable<number>;
  preference$: Observable<QualityPreference>;
  /** The transfer in flight, at each chunk of bytes: what the abandon rule watches. */
  progress$?: Observable<TransferProgress>;
  /** The segment index playback resumes at, after each seek into an unbuffered range. */
  seeks$?: Observable<number>;
  /** What was measured of the link before the engine started (the page's own load): the estimate starts from them. */
  startSamples?: readonly BandwidthSample[];
  /**
   * The lowest rung of the video buffered beyond the seconds a replacement keeps (undefined when none is), whenever
   * it may have changed (before each transfer is reported): a later decision above it replaces that video too.
   */
  aheadRung$?: Observable<number | undefined>;
  /** Bits per second the other tracks fetched over the same link take (the audio). */
  otherTracksBps?: number;
}

export interface AdaptiveDecisionsOptions extends DecisionParams {
  /** How often `estimate$` may emit. */
  estimateThrottleMs?: number;
  scheduler?: SchedulerLike;
}

type AbrEvent =
  | { kind: 'start' }
  | { kind: 'transfer'; transfer: SegmentTransfer }
  | { kind: 'buffer'; seconds: number }
  | { kind: 'preference'; preference: QualityPreference }
  | { kind: 'progress'; progress: TransferProgress }
  | { kind: 'seek'; segmentIndex: number }
  | { kind: 'ahead'; rung: number | undefined };

interface EngineState {
  estimate: EstimateState;
  abr: AbrState;
  bufferSeconds: number;
  preference: QualityPreference;
  /** Until a segment arrives after the start or a seek, each decision is that fresh start's. */
  fresh: 'startup' | 'seek' | null;
  nextSegment?: number;
  inflight: TransferProgress | null;
  /** When the transfer in flight last reported more bytes. */
  lastBytesMs: number;
  /** The lowest rung buffered beyond what a replacement keeps, when known. */
  aheadRung?: number;
  out: QualityDecision | null;
}

/** The decision of an event that asks for one (the start, a transfer's end, a preference, a seek). */
function decideNow(
  state: EngineState,
  nowMs: number,
  { ladder, segmentSeconds, otherTracksBps }: AdaptiveInputs,
  options: AdaptiveDecisionsOptions,
): EngineState {
  const sampled = state.estimate.lastEndMs !== null;
  // The start plans with what was measured, trusted or not: the fresh-start rule bounds the first segment by the time
  // it takes to arrive, so an estimate that is too high costs a slower start, never a stall.
  const trust = state.fresh === 'startup' ? { trustBytes: 0 } : {};
  const { state: abr, decision } = decide(
    state.fresh === 'startup' ? { ...state.abr, index: -1 } : state.abr,
    {
      ladder,
      nowMs,
      bufferSeconds: state.bufferSeconds,
      estimateBps: sampled ? estimateBps(state.estimate, options.defaultBps, trust) : null,
      preference: state.preference,
      segmentSeconds,
      segmentIndex: state.nextSegment,
      seek: state.fresh === 'seek',
      ...(state.aheadRung !== undefined && { lowestAheadRung: state.aheadRung }),
      ...(otherTracksBps !== undefined && { otherTracksBps }),
    },
    options,
  );
  return { ...state, abr, out: decision };
}

/** The abandon rule on the transfer in flight: a decision for a lower rung when its segment would arrive too late. */
function checkAbandon(state: EngineState, nowMs: number, { ladder, segmentSeconds }: AdaptiveInputs): EngineState {
  const { inflight, preference } = state;
  if (!inflight || (typeof preference === 'object' && 'fixed' in preference)) return { ...state, out: null };
  const index = shouldAbandon({
    ...inflight,
    elapsedMs: nowMs - inflight.requestMs,
    firstByteMs: inflight.firstByteMs === null ? null : inflight.firstByteMs - inflight.requestMs,
    lastBytesMs: state.lastBytesMs - inflight.requestMs,
    bufferSeconds: state.bufferSeconds,
    ladder,
    segmentSeconds,
  });
  if (index === null) return { ...state, out: null };
  return { ...state, abr: abandonTo(state.abr, index, nowMs), inflight: null, out: { index, reason: 'abandon' } };
}

function reduce(state: EngineState, event: AbrEvent, nowMs: number, inputs: AdaptiveInputs, options: AdaptiveDecisionsOptions): EngineState {
  switch (event.kind) {
    case 'start':
      return decideNow(state, nowMs, inputs, options);
    case 'preference':
      return decideNow({ ...state, preference: event.preference }, nowMs, inputs, options);
    case 'seek':
      return decideNow({ ...state, fresh: 'seek', nextSegment: event.segmentIndex, inflight: null }, nowMs, inputs, options);
    case 'ahead':
      return { ...state, aheadRung: event.rung, out: null };
    case 'buffer':
      return checkAbandon({ ...state, bufferSeconds: event.seconds }, nowMs, inputs);
    case 'progress':
      return checkAbandon({ ...state, inflight: event.progress, lastBytesMs: nowMs }, nowMs, inputs);
    case 'transfer': {
      const { transfer } = event;
      const sample = sampleOf(transfer);
      const estimate = sample ? nextEstimate(state.estimate, sample) : state.estimate;
      const done = !transfer.failed;
      const nextSegment = transfer.segmentIndex === undefined ? state.nextSegment : transfer.segmentIndex + (done ? 1 : 0);
      const fresh = done ? null : state.fresh;
      return decideNow({ ...state, estimate, nextSegment, fresh, inflight: null }, nowMs, inputs, options);
    }
  }
}

/**
 * The adaptive engine's quality decisions as a stream: which rung to fetch next and why, from the transfers (the
 * bandwidth estimate), the buffer level, the host's or viewer's preference and seeks. A decision is made at the start,
 * after each transfer, at each preference and each seek (see `decide`); the abandon rule watches the transfer in
 * flight at each progress and buffer change and, when it fires, switches down at once (reason `abandon`): the engine
 * then aborts that transfer and reports it failed. `estimate$` is the bandwidth estimate for telemetry (whole bits per
 * second, from the first sample on), at most once per `estimateThrottleMs`.
 *
 * ```
 * transfers$: ----a--b    a: 27.5 kB at 5 Mbps (too little to trust: the 1 Mbps default caps it), b: 125 kB more
 * decisions$: s---m--T    s: {0, startup}, m: {2, throughput}, T: {5, throughput}
 * ```
 *
 * Until `preference$` says otherwise the preference is `auto`. Transfers that are not the ladder's media segments (an
 * initialisation segment, audio) may be reported too, without `segmentIndex`: they feed the estimate and leave the
 * number of the next segment as it is.
 */
export function adaptiveDecisions(
  inputs: AdaptiveInputs,
  options: AdaptiveDecisionsOptions = {},
): { decisions$: Observable<QualityDecision>; estimate$: Observable<number> } {
  const { scheduler = asyncScheduler, estimateThrottleMs = ABR_ESTIMATE_THROTTLE_MS, defaultBps = ABR_DEFAULT_ESTIMATE_BPS } = options;
  const events$: Observable<AbrEvent> = merge(
    inputs.preference$.pipe(map((preference): AbrEvent => ({ kind: 'preference', preference }))),
    inputs.buffer$.pipe(map((seconds): AbrEvent => ({ kind: 'buffer', seconds }))),
    of<AbrEvent>({ kind: 'start' }),
    inputs.transfers$.pipe(map((transfer): AbrEvent => ({ kind: 'transfer', transfer }))),
    (inputs.progress$ ?? of()).pipe(map((progress): AbrEvent => ({ kind: 'progress', progress }))),
    (inputs.seeks$ ?? of()).pipe(map((segmentIndex): AbrEvent => ({ kind: 'seek', segmentIndex }))),
    (inputs.aheadRung$ ?? of()).pipe(map((rung): AbrEvent => ({ kind: 'ahead', rung }))),
  );
  const startEstimate = (inputs.startSamples ?? []).reduce((state, sample) => nextEstimate(state, sample), initialEstimate);
  const initial: EngineState = {
    estimate: startEstimate,
    abr: initialAbrState,
    bufferSeconds: 0,
    preference: 'auto',
    fresh: 'startup',
    inflight: null,
    lastBytesMs: 0,
    out: null,
  };
  const decisions$ = events$.pipe(
    scan((state, event) => reduce(state, event, scheduler.now(), inputs, options), initial),
    map((state) => state.out),
    filter((decision): decision is QualityDecision => decision !== null),
    distinctUntilChanged((a, b) => a.index === b.index && a.reason === b.reason && a.replaceFromS === b.replaceFromS),
  );
  const estimate$ = inputs.transfers$.pipe(
    map((transfer) => sampleOf(transfer)),
    filter((sample) => sample !== null),
    scan((state, sample) => nextEstimate(state, sample), startEstimate),
    map((state) => Math.round(estimateBps(state, defaultBps))),
    distinctUntilChanged(),
    throttleTime(estimateThrottleMs, scheduler, { leading: true, trailing: true }),
  );
  return { decisions$, estimate$ };
}
