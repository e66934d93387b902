/**
 * The adaptive ladder of docs/adaptive-streaming.md ("The ladder"), the bounds a source must stay within, and the pure
 * rules that pick a source's rungs, their sizes and the moments the poster and the storyboard show.
 */
import { INGEST_SEGMENT_MAX_SECONDS, INGEST_SEGMENT_SECONDS } from '../../streams/timing';
import type { Quality } from '../../streams/player/playerModel';

export { INGEST_SEGMENT_SECONDS, INGEST_SEGMENT_MAX_SECONDS };

/** One rung: a height and the capped bit rates of both codec families (kbit/s), close to YouTube's for that height. */
export interface LadderRung {
  quality: Quality;
  height: number;
  h264Kbps: number;
  vp9Kbps: number;
}

/** The contract's table, lowest first: a source gets every rung up to its own height. */
export const LADDER: readonly LadderRung[] = [
  { quality: 'tiny', height: 144, h264Kbps: 110, vp9Kbps: 80 },
  { quality: 'small', height: 240, h264Kbps: 250, vp9Kbps: 180 },
  { quality: 'medium', height: 360, h264Kbps: 500, vp9Kbps: 350 },
  { quality: 'large', height: 480, h264Kbps: 900, vp9Kbps: 650 },
  { quality: 'hd720', height: 720, h264Kbps: 1800, vp9Kbps: 1300 },
  { quality: 'hd1080', height: 1080, h264Kbps: 3500, vp9Kbps: 2500 },
];

/** Audio, one rendition per family: AAC-LC stereo in fMP4, Opus stereo in WebM. */
export const AUDIO = { aacKbps: 128, opusKbps: 96, sampleRate: 48_000, channels: 2 } as const;

/** The progressive H.264/AAC file for browsers without Media Source Extensions is at most this tall. */
export const PROGRESSIVE_MAX_HEIGHT = 360;
/** The poster is at most this tall (the source's height when lower). */
export const POSTER_MAX_HEIGHT = 720;

/** Seek-preview storyboard: one thumbnail every interval, `columns` × `rows` per JPEG sheet. */
export const STORYBOARD = { intervalSeconds: 2, thumbWidth: 160, thumbHeight: 90, columns: 10, rows: 10 } as const;

/** The frame rate of every rendition is the source's, at most this (a faster source is halved in rate, never sped up). */
export const MAX_FRAME_RATE = 60;
/** The frame rate assumed when the source states none it can be trusted on. */
export const FALLBACK_FRAME_RATE = 25;

/** A source longer than this is refused (exit 9): four hours. */
export const MAX_SOURCE_SECONDS = 4 * 60 * 60;
/** A source file larger than this is refused (exit 9): 16 GiB. */
export const MAX_SOURCE_BYTES = 16 * 1024 ** 3;
/** A source frame wider or taller than 8K UHD is refused (exit 9). */
export const MAX_SOURCE_WIDTH = 7680;
export const MAX_SOURCE_HEIGHT = 4320;

/** The encoder effort: `fast` is the fastest settings (tests, previews), `normal` the ones the samples use. */
export type Preset = 'normal' | 'fast';

/** A rung chosen for one source, with the width that keeps the source's display aspect ratio. */
export interface ChosenRung extends LadderRung {
  width: number;
}

/** The nearest even number (encoders want even frame sizes for 4:2:0), at least 2. */
export const even = (n: number): number => Math.max(2, Math.round(n / 2) * 2);

/** A display aspect ratio as a fraction (`16/9`), the form ffmpeg's `setdar` and a DASH manifest's `par` take. */
export interface AspectRatio {
  num: number;
  den: number;
  value: number;
}

/** The usual display aspect ratios: a source within 1% of one is shown at exactly that one. */
const COMMON_ASPECTS: readonly [number, number][] = [
  [16, 9],
  [4, 3],
  [1, 1],
  [21, 9],
  [239, 100],
  [37, 20],
  [3, 2],
  [5, 4],
  [9, 16],
  [3, 4],
  [2, 3],
  [4, 5],
];

/**
 * The display aspect ratio every rendition gets, as a fraction: a usual one when the source is within 1% of it (an
 * 854×480 frame is 16:9), else the nearest fraction with a denominator up to 100. Every rung of a ladder shows the
 * same ratio (a DASH adaptation set requires it), whatever rounding its even width needed.
 */
export function snapAspect(displayAspect: number): AspectRatio {
  const common = COMMON_ASPECTS.find(([n, d]) => Math.abs(n / d - displayAspect) / (n / d) < 0.01);
  if (common) return { num: common[0], den: common[1], value: common[0] / common[1] };
  let best: AspectRatio = { num: Math.max(1, Math.round(displayAspect)), den: 1, value: Math.max(1, Math.round(displayAspect)) };
  for (let den = 1; den <= 100; den++) {
    const num = Math.max(1, Math.round(displayAspect * den));
    if (Math.abs(num / den - displayAspect) < Math.abs(best.value - displayAspect)) best = { num, den, value: num / den };
  }
  return best;
}

/** The width of a frame `height` tall with the source's display aspect ratio. */
export const widthFor = (height: number, displayAspect: number): number => even(height * displayAspect);

/**
 * The rungs for a source `sourceHeight` tall: every rung of the table up to its height, at most 1080p; a source
 * shorter than 144 lines still gets the 144p rung (upscaled), so every video has a ladder.
 */
export function chooseLadder(sourceHeight: number, displayAspect: number): ChosenRung[] {
  const rungs = LADDER.filter((r) => r.height <= sourceHeight);
  const chosen = rungs.length > 0 ? rungs : LADDER.slice(0, 1);
  const aspect = snapAspect(displayAspect).value;
  return chosen.map((r) => ({ ...r, width: widthFor(r.height, aspect) }));
}

/** The progressive file's size: 360p, or the source's height when lower. */
export function progressiveSize(sourceHeight: number, displayAspect: number): { width: number; height: number; quality: Quality } {
  const height = even(Math.min(sourceHeight, PROGRESSIVE_MAX_HEIGHT));
  const rung = [...LADDER].reverse().find((r) => r.height <= height) ?? LADDER[0]!;
  return { width: widthFor(height, displayAspect), height, quality: rung.quality };
}

/** The poster's size: the source's height up to {@link POSTER_MAX_HEIGHT}. */
export function posterSize(sourceHeight: number, displayAspect: number): { width: number; height: number } {
  const height = even(Math.min(sourceHeight, POSTER_MAX_HEIGHT));
  return { width: widthFor(height, displayAspect), height };
}

/**
 * Where the poster frame is taken: 10% into the video once it is 20 s or longer (past an intro's black frames),
 * else 2 s in, or the middle of a video shorter than 4 s.
 */
export const posterSeconds = (durationSeconds: number): number =>
  durationSeconds >= 20 ? Math.round(durationSeconds * 100) / 1000 : Math.min(2, durationSeconds / 2);

/**
 * The output frame rate for a source's stated rate (`30000/1001`, `25/1`): kept as the exact fraction when it is
 * sane, halved until at most {@link MAX_FRAME_RATE}, {@link FALLBACK_FRAME_RATE} when unknown.
 */
export function outputFrameRate(stated: string | undefined): { text: string; value: number } {
  const [num, den] = (stated ?? '').split('/').map(Number);
  let n = num ?? NaN;
  const d = den === undefined ? 1 : den;
  if (!Number.isFinite(n) || !Number.isFinite(d) || n <= 0 || d <= 0 || n / d < 1) return { text: String(FALLBACK_FRAME_RATE), value: FALLBACK_FRAME_RATE };
  while (n / d > MAX_FRAME_RATE) n /= 2;
  const text = Number.isInteger(n) ? (d === 1 ? String(n) : `${n}/${d}`) : String(n / d);
  return { text, value: n / d };
}

/** Frames per group of pictures: one segment's worth, so every segment starts on a keyframe of its own. */
export const gopFrames = (frameRate: number, segmentSeconds = INGEST_SEGMENT_SECONDS): number => Math.max(1, Math.round(frameRate * segmentSeconds));

/**
 * Everything about the ladder that changes the bytes ingest writes, bar the source: part of the version digest, so a
 * change of table, preset or segment length makes a new version and a rerun with the same settings finds the old one.
 */
export function ladderSettings(preset: Preset): Record<string, unknown> {
  return {
    // Counts changes of the encoding itself (ffmpegArgs.ts): raised with each, so a version made before is not reused.
    format: 2,
    segmentSeconds: INGEST_SEGMENT_SECONDS,
    ladder: LADDER,
    audio: AUDIO,
    progressive: PROGRESSIVE_MAX_HEIGHT,
    storyboard: STORYBOARD,
    preset,
  };
}
