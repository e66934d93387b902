import {
  ABR_BOLA_ENTER_S,
  ABR_BOLA_LEAVE_S,
  ABR_DEFAULT_ESTIMATE_BPS,
  ABR_HOLD_SAFETY,
  ABR_REPLACE_KEEP_S,
  ABR_REPLACE_SAFETY,
  ABR_STARTUP_FETCH_MS,
  ABR_UP_SAFETY,
  ABR_UP_SWITCH_AFTER_DOWN_MS,
} from '../timing';
import { arrivingWithin, bolaMinBufferFor, bolaRule, type BolaOptions, highestWithin, insufficientBufferGuard, type Rung, throughputRule } from './abrRules';

/** What the host or viewer asked for: automatic, automatic up to a rung (`cap`), or one rung (`fixed`). */
export type QualityPreference = 'auto' | { cap: number } | { fixed: number };

/** Why a rung was chosen, as telemetry reports it. */
export type DecisionReason = 'startup' | 'throughput' | 'buffer' | 'insufficientBuffer' | 'cap' | 'fixed' | 'abandon' | 'seek';

/** One quality decision: the rung to fetch next and the rule that chose it. */
export interface QualityDecision {
  index: number;
  reason: DecisionReason;
  /**
   * Set on an automatic switch up, to a rung the link carries easily, while much is buffered: the video buffered
   * further than this many seconds past the playhead (from the segment holding that time on) is fetched again at the
   * new rung over what is buffered, so the better picture shows within seconds instead of after the buffer has played.
   */
  replaceFromS?: number;
}

/** What the decision remembers between two segments. */
export interface AbrState {
  /** The rung of the latest decision; -1 before the first. */
  index: number;
  /** Whether the buffer rule is in charge. */
  bola: boolean;
  /** Seconds added to the buffer level BOLA sees, so taking over from the throughput rule keeps the current rung. */
  placeholderS: number;
  /** When the latest switch down happened (scheduler time), or -Infinity. */
  lastDownMs: number;
}

export const initialAbrState: AbrState = { index: -1, bola: false, placeholderS: 0, lastDownMs: -Infinity };

/** What one decision looks at. */
export interface DecisionInput {
  ladder: readonly Rung[];
  nowMs: number;
  /** Seconds buffered ahead of the playhead. */
  bufferSeconds: number;
  /** The bandwidth estimate to plan with, or null before any sample. */
  estimateBps: number | null;
  preference: QualityPreference;
  segmentSeconds: number;
  /** The segment to fetch next, when known (for its listed sizes). */
  segmentIndex?: number;
  /** The next segment follows a seek into an unbuffered range. */
  seek?: boolean;
  /**
   * The lowest rung of the video buffered beyond `replaceKeepS` past the playhead, when known: an automatic decision
   * above it replaces that video, whether or not it is a switch up. Unknown, only a switch up replaces.
   */
  lowestAheadRung?: number;
  /** Bits per second the other tracks fetched over the same link take (the audio): a replacement leaves room for them. */
  otherTracksBps?: number;
}

export interface DecisionParams extends BolaOptions {
  upSafety?: number;
  insufficientBufferSafety?: number;
  bolaEnterS?: number;
  bolaLeaveS?: number;
  holdSafety?: number;
  upAfterDownMs?: number;
  defaultBps?: number;
  startupFetchMs?: number;
  replaceKeepS?: number;
  replaceSafety?: number;
}

/** A rung index from outside, made safe: within the ladder, and the top for anything that is not a number. */
const clampIndex = (ladder: readonly Rung[], index: number) =>
  Number.isFinite(index) ? Math.max(0, Math.min(ladder.length - 1, Math.floor(index))) : ladder.length - 1;

/** The buffer rule's choice, capped on the way up by what the link sustains, and its updated placeholder. */
function bolaChoice(state: AbrState, input: DecisionInput, current: number, params: DecisionParams) {
  const { ladder, bufferSeconds, segmentSeconds, segmentIndex } = input;
  const top = ladder.length - 1;
  const entering = !state.bola;
  let placeholderS = entering ? Math.max(0, bolaMinBufferFor(ladder, current, params) - bufferSeconds) : state.placeholderS;
  // The placeholder never lifts BOLA above the level where it already picks the top rung.
  placeholderS = Math.min(placeholderS, Math.max(0, bolaMinBufferFor(ladder, top, params) - bufferSeconds));
  const level = bufferSeconds + placeholderS;
  const up = bolaRule(ladder, level, segmentSeconds, segmentIndex, params);
  if (up > current) {
    // BOLA climbs only as far as the estimate sustains (with the hold margin: the deep buffer absorbs the rest), as a
    // full buffer alone would pick a rung the link cannot carry and must leave again.
    const estimate = input.estimateBps ?? params.defaultBps ?? ABR_DEFAULT_ESTIMATE_BPS;
    return { index: Math.min(up, Math.max(current, highestWithin(ladder, estimate, params.holdSafety ?? ABR_HOLD_SAFETY))), placeholderS };
  }
  // Down only when two more segments of buffer would not keep the current rung either (segment sizes vary with the
  // content: a level near a threshold would otherwise switch at every other segment), and never while the estimate
  // carries the current rung with the up-switch margin: the buffer is then growing, or held back only while a
  // replacement fetches the same seconds again.
  const estimate = input.estimateBps ?? params.defaultBps ?? ABR_DEFAULT_ESTIMATE_BPS;
  if (highestWithin(ladder, estimate, params.upSafety ?? ABR_UP_SAFETY) >= current) return { index: current, placeholderS };
  return { index: Math.min(current, bolaRule(ladder, level + 2 * segmentSeconds, segmentSeconds, segmentIndex, params)), placeholderS };
}

/** The automatic choice of a decision after the first: the rule in charge, the up-switch pause and the buffer guard. */
function automatic(state: AbrState, input: DecisionInput, params: DecisionParams): { state: AbrState; decision: QualityDecision } {
  const { ladder, bufferSeconds, nowMs } = input;
  const { bolaEnterS = ABR_BOLA_ENTER_S, bolaLeaveS = ABR_BOLA_LEAVE_S, upAfterDownMs = ABR_UP_SWITCH_AFTER_DOWN_MS } = params;
  const estimate = input.estimateBps ?? params.defaultBps ?? ABR_DEFAULT_ESTIMATE_BPS;
  const current = clampIndex(ladder, state.index);
  const bola = state.bola ? bufferSeconds >= bolaLeaveS : bufferSeconds >= bolaEnterS;
  let placeholderS = 0;
  let decision: QualityDecision;
  if (bola) {
    const choice = bolaChoice(state, input, current, params);
    placeholderS = choice.placeholderS;
    decision = { index: choice.index, reason: 'buffer' };
    // BOLA climbs as the buffer grows; a link that carries a higher rung with the up-switch margin does not wait for
    // it (a deep buffer of a slow link, then a faster network): the throughput rule's climb wins.
    const climb = throughputRule(ladder, estimate, current, params);
    if (climb > Math.max(current, choice.index) && nowMs - state.lastDownMs >= upAfterDownMs) decision = { index: climb, reason: 'throughput' };
  } else {
    decision = { index: throughputRule(ladder, estimate, current, params), reason: 'throughput' };
  }
  // The throughput rule waits after a switch down before it goes up again; BOLA's climbs are held by the estimate.
  if (!bola && decision.index > current && nowMs - state.lastDownMs < upAfterDownMs) decision = { ...decision, index: current };
  const guarded = insufficientBufferGuard(
    ladder,
    decision.index,
    bufferSeconds,
    estimate,
    input.segmentSeconds,
    input.segmentIndex,
    params.insufficientBufferSafety,
  );
  if (guarded < decision.index) decision = { index: guarded, reason: 'insufficientBuffer' };
  return { state: { ...state, bola, placeholderS }, decision };
}

/** The rung of a fresh start: the lowest before any sample; else the throughput rule's, no higher than arrives quickly. */
function freshIndex(input: DecisionInput, params: DecisionParams): number {
  const { ladder, estimateBps, segmentSeconds, segmentIndex, seek } = input;
  if (estimateBps === null) return 0;
  const rule = throughputRule(ladder, estimateBps, -1, params);
  if (seek) return rule;
  return Math.min(rule, arrivingWithin(ladder, estimateBps, params.startupFetchMs ?? ABR_STARTUP_FETCH_MS, segmentSeconds, segmentIndex ?? 0));
}

/**
 * The quality decision before each segment, a pure reducer. A fixed preference wins outright. The first segment after
 * a seek takes the throughput rule's rung; the first of a play takes it too, but no higher than the rung whose segment
 * arrives within `startupFetchMs` at the estimate; before any sample, either takes the lowest: a quick start first.
 * After that the throughput rule is in charge while the buffer is short, and makes no switch up within `upAfterDownMs`
 * of a switch down; BOLA is in charge once the buffer is deep (from `bolaEnterS` until it falls under `bolaLeaveS`),
 * climbing no higher than the estimate sustains, and the throughput rule's climb wins when it is higher (not within
 * `upAfterDownMs` of a switch down either). The insufficient-buffer guard has the last word; a cap lowers
 * whatever was chosen. An automatic switch up over a deep buffer, to a rung the link carries easily, also replaces
 * what lies beyond a few seconds (`replaceFromS`, see `replacing`).
 */
export function decide(state: AbrState, input: DecisionInput, params: DecisionParams = {}): { state: AbrState; decision: QualityDecision } {
  const { ladder, preference, nowMs } = input;
  if (typeof preference === 'object' && 'fixed' in preference) {
    const index = clampIndex(ladder, preference.fixed);
    return { state: { ...state, index, bola: false, placeholderS: 0 }, decision: { index, reason: 'fixed' } };
  }
  let next: { state: AbrState; decision: QualityDecision };
  if (state.index < 0 || input.seek) {
    const index = freshIndex(input, params);
    next = { state: { ...state, bola: false, placeholderS: 0 }, decision: { index, reason: input.seek ? 'seek' : 'startup' } };
  } else {
    next = automatic(state, input, params);
  }
  const cap = typeof preference === 'object' ? clampIndex(ladder, preference.cap) : ladder.length - 1;
  if (next.decision.index > cap) next = { ...next, decision: { index: cap, reason: 'cap' } };
  const { index } = next.decision;
  // A cap is the host's doing, not the link's: it never delays the next switch up.
  const down = state.index >= 0 && index < state.index && next.decision.reason !== 'cap';
  const result = { ...next, state: { ...next.state, index, lastDownMs: down ? nowMs : state.lastDownMs } };
  return replacing(state, input, params, result);
}

/**
 * The replacement rule: an automatic decision above what is buffered beyond `replaceKeepS` (above the rung before it,
 * when the input does not say what is buffered), with more than `replaceKeepS` and a segment buffered, to a rung whose
 * bitrate, with the other tracks', is at most `replaceSafety` × the estimate, replaces what lies beyond
 * `replaceKeepS`. Told what is buffered, a climb made before the link had room to spare replaces once it has. The
 * engine fetches those segments again over the buffer, which does not grow meanwhile (an old segment plays until its replacement is in), so
 * only a link with room to spare for the new rung is asked to fetch the same seconds twice, and not within
 * `upAfterDownMs` of a switch down (the link fell short lately, and the buffer is refilling).
 */
function replacing(
  before: AbrState,
  input: DecisionInput,
  params: DecisionParams,
  result: { state: AbrState; decision: QualityDecision },
): { state: AbrState; decision: QualityDecision } {
  const { decision } = result;
  const { replaceKeepS: keepS = ABR_REPLACE_KEEP_S, replaceSafety = ABR_REPLACE_SAFETY, upAfterDownMs = ABR_UP_SWITCH_AFTER_DOWN_MS } = params;
  const automatic = decision.reason === 'throughput' || decision.reason === 'buffer';
  const above = input.lowestAheadRung === undefined ? decision.index > before.index : decision.index > input.lowestAheadRung;
  const up = before.index >= 0 && !input.seek && above && input.nowMs - before.lastDownMs >= upAfterDownMs;
  const bitrate = (input.ladder[decision.index]?.bitrate ?? Infinity) + (input.otherTracksBps ?? 0);
  const sustained = input.estimateBps !== null && bitrate <= replaceSafety * input.estimateBps;
  if (!automatic || !up || !sustained || input.bufferSeconds <= keepS + input.segmentSeconds) return result;
  return { ...result, decision: { ...decision, replaceFromS: keepS } };
}

/** The state after an abandon: the rung it switched to, counted as a switch down. */
export function abandonTo(state: AbrState, index: number, nowMs: number): AbrState {
  return { ...state, index, lastDownMs: nowMs, placeholderS: 0 };
}
