/**
 * Encodes one version of a video into a folder: the H.264 ladder (DASH and HLS), the VP9 ladder (DASH), the
 * progressive file, the poster and the storyboard, one ffmpeg run each, each with a time limit, reporting its progress.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXIT, IngestError } from './ingestErrors';
import { ladderArgs, posterArgs, progressiveArgs, storyboardArgs, type EncodeJob, type Family } from './ffmpegArgs';
import { LADDER, posterSeconds, posterSize, progressiveSize, type ChosenRung } from './ladder';
import { familyFormats } from './buildEntry';
import { masterPlaylist, tidyMediaPlaylist } from './hlsPlaylists';
import { progressSeconds, STEP_WEIGHTS, type Step } from './progress';
import { countFrames, LAYOUT, readFamily } from './readOutputs';
import { lastLines, runTool, type Tools } from './runTool';

/** Every encode may take this long, plus {@link ENCODE_TIMEOUT_MS_PER_SECOND} per second of source. */
export const ENCODE_TIMEOUT_BASE_MS = 120_000;
/** An encode's time limit grows by this per second of source (a whole ladder, single-threaded, at the slow preset). */
export const ENCODE_TIMEOUT_MS_PER_SECOND = 30_000;
/** The poster (one frame) may take this long. */
export const POSTER_TIMEOUT_MS = 60_000;

/** Where an ingest reports its steps and their progress. */
export interface Reporter {
  /** Step `index` (0-based, of `steps`) starts. */
  step(index: number, steps: readonly Step[]): void;
  /** Step `index` is `fraction` done. */
  progress(index: number, fraction: number): void;
}

const heights = (rungs: readonly ChosenRung[]) => `${rungs[0]!.height}p–${rungs[rungs.length - 1]!.height}p`;

/** The steps of an ingest, in order: the check (done by the caller), then {@link encodeVersion}'s five. */
export function planSteps(rungs: readonly ChosenRung[]): Step[] {
  return [
    { label: 'checking the source', weight: STEP_WEIGHTS.check },
    { label: `H.264 ladder ${heights(rungs)} (DASH + HLS)`, weight: STEP_WEIGHTS.h264 },
    { label: `VP9 ladder ${heights(rungs)} (DASH)`, weight: STEP_WEIGHTS.vp9 },
    { label: 'progressive H.264 file', weight: STEP_WEIGHTS.progressive },
    { label: 'poster', weight: STEP_WEIGHTS.poster },
    { label: 'storyboard', weight: STEP_WEIGHTS.storyboard },
  ];
}

export interface EncodeContext {
  job: EncodeJob;
  rungs: readonly ChosenRung[];
  source: { width: number; height: number; displayAspect: number };
  dir: string;
  tools: Tools;
  reporter: Reporter;
  signal?: AbortSignal;
}

/** Runs ffmpeg for step `index`, reporting its progress against the source's duration; fails with exit code 10. */
async function ffmpegStep(ctx: EncodeContext, index: number, what: string, args: string[], timeoutMs: number): Promise<void> {
  const onLine = (line: string) => {
    const seconds = progressSeconds(line);
    if (seconds !== undefined) ctx.reporter.progress(index, seconds / ctx.job.durationSeconds);
  };
  const result = await runTool(ctx.tools.ffmpeg, args, { timeoutMs, signal: ctx.signal, onLine });
  if (result.timedOut) throw new IngestError(EXIT.ENCODE_FAILED, `ffmpeg ran past its limit of ${Math.round(timeoutMs / 1000)} s on the ${what}`);
  if (result.code !== 0) throw new IngestError(EXIT.ENCODE_FAILED, `ffmpeg failed on the ${what}: ${lastLines(result.stderr) || `exit code ${result.code}`}`);
  ctx.reporter.progress(index, 1);
}

/**
 * ffmpeg's HLS media playlists made reproducible, and the master playlist rewritten from the measured segments (ffmpeg's
 * states bandwidths it estimated, not the ones the files have).
 */
async function writeHls(ctx: EncodeContext): Promise<void> {
  const dir = join(ctx.dir, 'h264');
  for (const name of (await readdir(dir)).filter((n) => /^media_\d+\.m3u8$/.test(n))) {
    await writeFile(join(dir, name), tidyMediaPlaylist(await readFile(join(dir, name), 'utf8')));
  }
  const family = await readFamily(ctx.dir, 'h264', ctx.rungs);
  const formats = familyFormats(family, '.', ctx.job.durationSeconds);
  const audio = formats.find((f) => f.kind === 'audio');
  if (!audio) throw new IngestError(EXIT.ENCODE_FAILED, 'the H.264 ladder has no audio representation');
  const playlistOf = (f: (typeof formats)[number]) => `media_${family.representations[formats.indexOf(f)]!.id}.m3u8`;
  const text = masterPlaylist(
    formats.filter((f) => f.kind === 'video'),
    audio,
    ctx.job.frameRate.value,
    playlistOf,
  );
  await writeFile(join(ctx.dir, LAYOUT.hlsMaster), text);
}

/** Encodes every output into `ctx.dir` (which must not exist yet); resolves with the number of storyboard thumbnails. */
export async function encodeVersion(ctx: EncodeContext): Promise<number> {
  const { job, dir, reporter } = ctx;
  const steps = planSteps(ctx.rungs);
  const ladderTimeout = ENCODE_TIMEOUT_BASE_MS + job.durationSeconds * ENCODE_TIMEOUT_MS_PER_SECOND;
  await mkdir(join(dir, LAYOUT.storyboardDir), { recursive: true });
  const families: Family[] = ['h264', 'vp9'];
  for (const [i, family] of families.entries()) {
    reporter.step(1 + i, steps);
    await mkdir(join(dir, family), { recursive: true });
    await ffmpegStep(
      ctx,
      1 + i,
      `${family === 'h264' ? 'H.264' : 'VP9'} ladder`,
      ladderArgs(job, family, ctx.rungs, join(dir, LAYOUT.manifest(family))),
      ladderTimeout,
    );
    if (family === 'h264') await writeHls(ctx);
  }

  reporter.step(3, steps);
  const progressive = progressiveSize(ctx.source.height, ctx.source.displayAspect);
  const rate = LADDER.find((r) => r.quality === progressive.quality)!.h264Kbps;
  await ffmpegStep(ctx, 3, 'progressive file', progressiveArgs(job, progressive, rate, join(dir, LAYOUT.progressive)), ladderTimeout);

  reporter.step(4, steps);
  const poster = posterArgs(job, posterSeconds(job.durationSeconds), posterSize(ctx.source.height, ctx.source.displayAspect), join(dir, LAYOUT.poster));
  await ffmpegStep(ctx, 4, 'poster', poster, POSTER_TIMEOUT_MS);

  reporter.step(5, steps);
  const countFile = join(dir, LAYOUT.thumbCount);
  await ffmpegStep(ctx, 5, 'storyboard', storyboardArgs(job, join(dir, LAYOUT.sheetPattern), countFile), ladderTimeout);
  const count = countFrames(await readFile(countFile, 'utf8'));
  await rm(countFile);
  return count;
}
