import { ABR_BOLA_MIN_BUFFER_S, ABR_BOLA_TARGET_BUFFER_S, ABR_HOLD_SAFETY, ABR_INSUFFICIENT_BUFFER_SAFETY, ABR_UP_SAFETY } from '../timing';

/** One video rendition of the ladder, as the rules see it. A ladder lists its rungs lowest bitrate first. */
export interface Rung {
  /** Average bits per second over the rendition. */
  bitrate: number;
  /** The quality name (`tiny` … `hd1080`). */
  quality: string;
  /** Each media segment's size in bytes, when the manifest gives them. */
  segmentBytes?: number[];
}

/** The bytes of segment `segmentIndex` of a rung: its listed size, or the rung's bitrate over the segment's duration. */
export function segmentBytesOf(rung: Rung, segmentSeconds: number, segmentIndex?: number): number {
  const listed = segmentIndex === undefined ? undefined : rung.segmentBytes?.[segmentIndex];
  return listed ?? (rung.bitrate * segmentSeconds) / 8;
}

/** The highest rung whose bitrate is at most `share` of `bps` (the lowest when none is). */
export function highestWithin(ladder: readonly Rung[], bps: number, share: number): number {
  let index = 0;
  ladder.forEach((rung, i) => {
    if (rung.bitrate <= share * bps) index = i;
  });
  return index;
}

/** The highest rung whose segment `segmentIndex`, at `bps`, arrives within `withinMs` (the lowest when none does). */
export function arrivingWithin(ladder: readonly Rung[], bps: number, withinMs: number, segmentSeconds: number, segmentIndex?: number): number {
  let index = 0;
  ladder.forEach((rung, i) => {
    if ((segmentBytesOf(rung, segmentSeconds, segmentIndex) * 8 * 1000) / bps <= withinMs) index = i;
  });
  return index;
}

/**
 * The throughput rule: the highest rung whose bitrate is at most `upSafety` × the estimate; the current rung is kept
 * while its bitrate stays within `holdSafety` × the estimate, so an estimate wandering around a rung's threshold does
 * not switch back and forth.
 *
 * @param current the rung playing now, or -1 when there is none (start-up, seek).
 */
export function throughputRule(
  ladder: readonly Rung[],
  estimateBps: number,
  current = -1,
  { upSafety = ABR_UP_SAFETY, holdSafety = ABR_HOLD_SAFETY } = {},
): number {
  const up = highestWithin(ladder, estimateBps, upSafety);
  const held = ladder[current];
  return held !== undefined && current > up && held.bitrate <= holdSafety * estimateBps ? current : up;
}

export interface BolaOptions {
  /** At and below this buffer level BOLA picks the lowest rung. */
  minBufferS?: number;
  /** From this buffer level on BOLA picks the highest rung. */
  targetBufferS?: number;
}

/** BOLA's constants for a ladder: the utilities (ln of bitrate, the lowest at 1) and V·p, γ·p from the buffer levels. */
function bolaParameters(ladder: readonly Rung[], { minBufferS = ABR_BOLA_MIN_BUFFER_S, targetBufferS = ABR_BOLA_TARGET_BUFFER_S }: BolaOptions) {
  const lowest = ladder[0]?.bitrate ?? 1;
  const utilities = ladder.map((rung) => Math.log(rung.bitrate / lowest) + 1);
  const top = utilities[utilities.length - 1] ?? 1;
  // γp makes the top rung's score fall to 0 near the target; Vp makes the lowest rung win up to the minimum level.
  const gammaP = top > 1 ? (top - 1) / Math.max(targetBufferS / minBufferS - 1, 1e-6) : 1;
  const vP = minBufferS / gammaP;
  return { utilities, gammaP, vP };
}

/**
 * BOLA (Spiteri, Urgaonkar, Sitaraman): the rung m maximising (V·(υ_m + γ·p) − Q) / S_m, with Q the buffer level in
 * seconds, υ_m the utility ln(bitrate_m / bitrate_0) + 1 and S_m the size of the next segment in that rung (its listed
 * size when known, so a segment that is dear in one rung is less attractive there). V and γ follow from the two buffer
 * levels of `options`: the lowest rung up to the minimum, the highest from about the target.
 */
export function bolaRule(ladder: readonly Rung[], bufferSeconds: number, segmentSeconds: number, segmentIndex?: number, options: BolaOptions = {}): number {
  const { utilities, gammaP, vP } = bolaParameters(ladder, options);
  let best = 0;
  let bestScore = -Infinity;
  ladder.forEach((rung, i) => {
    const score = (vP * ((utilities[i] ?? 1) + gammaP) - bufferSeconds) / segmentBytesOf(rung, segmentSeconds, segmentIndex);
    if (score >= bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/**
 * The lowest buffer level at which BOLA picks rung `index` or a higher one, when sizes follow the bitrates (the
 * placeholder that lets BOLA take over from the throughput rule without a switch down).
 */
export function bolaMinBufferFor(ladder: readonly Rung[], index: number, options: BolaOptions = {}): number {
  if (index <= 0) return 0;
  const { utilities, gammaP, vP } = bolaParameters(ladder, options);
  // Rung j beats every lower rung i once Q ≥ Vp·((u_i + γp)·b_j − (u_j + γp)·b_i) / (b_j − b_i): the largest of those.
  let level = 0;
  for (let i = 0; i < index; i++) {
    const bi = ladder[i]?.bitrate ?? 0;
    const bj = ladder[index]?.bitrate ?? 0;
    const ui = utilities[i] ?? 1;
    const uj = utilities[index] ?? 1;
    if (bj > bi) level = Math.max(level, (vP * ((ui + gammaP) * bj - (uj + gammaP) * bi)) / (bj - bi));
  }
  return level;
}

/**
 * The insufficient-buffer guard: the highest rung up to `index` whose next segment, fetched at `estimateBps`, takes at
 * most `safety` × the buffer (the lowest when none does). A switch that would drain the buffer before its segment
 * arrives is never made, whatever the other rules say.
 */
export function insufficientBufferGuard(
  ladder: readonly Rung[],
  index: number,
  bufferSeconds: number,
  estimateBps: number,
  segmentSeconds: number,
  segmentIndex?: number,
  safety = ABR_INSUFFICIENT_BUFFER_SAFETY,
): number {
  for (let i = Math.min(index, ladder.length - 1); i > 0; i--) {
    const rung = ladder[i];
    if (rung && (segmentBytesOf(rung, segmentSeconds, segmentIndex) * 8) / estimateBps <= safety * bufferSeconds) return i;
  }
  return 0;
}
