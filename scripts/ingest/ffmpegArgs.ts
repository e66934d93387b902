/**
 * The ffmpeg command lines of one ingest, built as argument lists (never through a shell). Pure: every path and
 * fact comes in as a parameter.
 *
 * What every encode holds to: keyframes forced at every segment boundary and nowhere else (a fixed group of pictures,
 * no scene-cut keyframes), so every rendition of both families starts a segment at the same instant and the player
 * switches at any boundary; capped rate control (never far above the rung's rate), so a simple scene costs less than
 * a busy one; bit-exact muxing without metadata, so a single-threaded encode is
 * reproducible byte for byte.
 */
import { AUDIO, INGEST_SEGMENT_SECONDS, STORYBOARD, type ChosenRung, type Preset } from './ladder';

/** The facts about one ingest that every command line shares. */
export interface EncodeJob {
  source: string;
  /** The output frame rate as ffmpeg reads it (`30000/1001`) and its value. */
  frameRate: { text: string; value: number };
  /** Frames per group of pictures (one segment). */
  gop: number;
  /** The display aspect ratio every rendition states (`setdar`), the same across a ladder. */
  aspect: { num: number; den: number };
  /** The video's duration: every output ends there (audio that runs on is cut). */
  durationSeconds: number;
  /** `false`: the source is silent and a silent stereo track is generated, so every video has an audio rendition. */
  hasAudio: boolean;
  preset: Preset;
  threads: number;
}

export type Family = 'h264' | 'vp9';

/** Every run: no banner, no prompt, errors only, overwrite, progress as `key=value` lines on stdout. */
const RUN = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1'];
/** Every output: bit-exact, no metadata or chapters copied from the source. */
const BITEXACT = ['-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact', '-map_metadata', '-1', '-map_chapters', '-1'];
/**
 * H.264: constant quality (x264's CRF) capped by each rung's rate through the VBV. VP9: libvpx's one-pass quality
 * modes do not hold a cap (a busy scene after a still one takes many times the rate), so each rung runs its rate
 * control with the rate as both floor and ceiling and a buffer of two segments: a still scene still costs next to
 * nothing (libvpx never pads), a busy one stays near the rate.
 */
export const H264_CRF = 23;

/** The source, and a silent track after it when the source has no audio (input 1). */
function inputs(job: EncodeJob, seekSeconds?: number): string[] {
  const source = [...(seekSeconds === undefined ? [] : ['-ss', seekSeconds.toFixed(3)]), '-i', job.source];
  if (job.hasAudio) return source;
  const silence = `anullsrc=channel_layout=stereo:sample_rate=${AUDIO.sampleRate}`;
  return [...source, '-f', 'lavfi', '-t', job.durationSeconds.toFixed(3), '-i', silence];
}

const audioInput = (job: EncodeJob) => (job.hasAudio ? '0:a:0' : '1:a:0');

/** Forced keyframes at every segment boundary, no others: the same instants in every rendition. */
function keyframes(job: EncodeJob, family: Family): string[] {
  const fixed = ['-g', String(job.gop), '-keyint_min', String(job.gop), '-force_key_frames', `expr:gte(t,n_forced*${INGEST_SEGMENT_SECONDS})`];
  return family === 'h264' ? [...fixed, '-sc_threshold', '0'] : fixed;
}

function h264Encoder(job: EncodeJob): string[] {
  return ['-c:v', 'libx264', '-preset', job.preset === 'fast' ? 'ultrafast' : 'medium', '-crf', String(H264_CRF), '-pix_fmt', 'yuv420p'];
}

function vp9Encoder(job: EncodeJob): string[] {
  const speed = job.preset === 'fast' ? ['-deadline', 'realtime', '-cpu-used', '8'] : ['-deadline', 'good', '-cpu-used', '4'];
  return ['-c:v', 'libvpx-vp9', ...speed, '-row-mt', job.threads === 1 ? '0' : '1', '-pix_fmt', 'yuv420p'];
}

/**
 * The ladder's audio ends this much before the video: the DASH muxer shifts audio by the encoder's delay (AAC's
 * priming, Opus's pre-skip, both under 25 ms), so audio that ran to the video's last instant would spill a few
 * milliseconds into a segment of its own past the video's end. Every track then has the same number of segments.
 */
export const AUDIO_END_MARGIN_SECONDS = 0.05;

const audioEncoder = (family: Family): string[] =>
  family === 'h264'
    ? ['-c:a', 'aac', '-b:a', `${AUDIO.aacKbps}k`, '-ac', String(AUDIO.channels), '-ar', String(AUDIO.sampleRate)]
    : ['-c:a', 'libopus', '-b:a', `${AUDIO.opusKbps}k`, '-ac', String(AUDIO.channels), '-ar', String(AUDIO.sampleRate)];

/** Each rung's rate cap, as per-output-stream options (`-maxrate:v:2 900k`). */
function rungRates(family: Family, rungs: readonly ChosenRung[]): string[] {
  return rungs.flatMap((r, i) =>
    family === 'h264'
      ? [`-maxrate:v:${i}`, `${r.h264Kbps}k`, `-bufsize:v:${i}`, `${2 * r.h264Kbps}k`, `-profile:v:${i}`, r.height >= 720 ? 'high' : 'main']
      : [`-b:v:${i}`, `${r.vp9Kbps}k`, `-minrate:v:${i}`, `${r.vp9Kbps}k`, `-maxrate:v:${i}`, `${r.vp9Kbps}k`, `-bufsize:v:${i}`, `${2 * r.vp9Kbps}k`],
  );
}

/** The source's video, at the output frame rate, split once per rung and scaled to each (`[v0]` … `[vN]`). */
export function ladderFilter(job: EncodeJob, rungs: readonly ChosenRung[]): string {
  const splits = rungs.map((_, i) => `[s${i}]`).join('');
  const dar = `${job.aspect.num}/${job.aspect.den}`;
  const scales = rungs.map((r, i) => `[s${i}]scale=${r.width}:${r.height}:flags=bicubic,setdar=${dar}[v${i}]`);
  return [`[0:v:0]fps=${job.frameRate.text},format=yuv420p,split=${rungs.length}${splits}`, ...scales].join(';');
}

/**
 * One family's whole ladder in one run: every rung and the audio as representations of one DASH manifest
 * (`manifest.mpd`), video and audio in two adaptation sets; for H.264 also HLS playlists over the same fMP4 segments
 * (`master.m3u8`, `media_<n>.m3u8`). Segment files: `init-<n>.<ext>`, `seg-<n>-<00001>.<ext>`, where n is the
 * representation (the rungs lowest first, then the audio).
 */
export function ladderArgs(job: EncodeJob, family: Family, rungs: readonly ChosenRung[], manifest: string): string[] {
  const ext = family === 'h264' ? 'm4s' : 'webm';
  const maps = [...rungs.flatMap((_, i) => ['-map', `[v${i}]`]), '-map', audioInput(job)];
  return [
    ...RUN,
    ...inputs(job),
    '-filter_complex',
    ladderFilter(job, rungs),
    ...maps,
    ...(family === 'h264' ? h264Encoder(job) : vp9Encoder(job)),
    ...rungRates(family, rungs),
    ...keyframes(job, family),
    ...audioEncoder(family),
    ...['-filter:a', `atrim=end=${Math.max(0.1, job.durationSeconds - AUDIO_END_MARGIN_SECONDS).toFixed(3)}`],
    ...['-t', job.durationSeconds.toFixed(3), '-threads', String(job.threads)],
    ...BITEXACT,
    ...['-f', 'dash', '-seg_duration', String(INGEST_SEGMENT_SECONDS), '-use_template', '1', '-use_timeline', '0', '-single_file', '0'],
    ...['-adaptation_sets', 'id=0,streams=v id=1,streams=a', '-dash_segment_type', family === 'h264' ? 'mp4' : 'webm'],
    ...['-init_seg_name', `init-$RepresentationID$.${ext}`, '-media_seg_name', `seg-$RepresentationID$-$Number%05d$.${ext}`],
    ...(family === 'h264' ? ['-hls_playlist', '1', '-hls_master_name', 'master.m3u8'] : []),
    manifest,
  ];
}

/** The progressive H.264/AAC MP4 (index up front, so it plays while it downloads), capped at `rateKbps`. */
export function progressiveArgs(job: EncodeJob, size: { width: number; height: number }, rateKbps: number, out: string): string[] {
  return [
    ...RUN,
    ...inputs(job),
    ...['-map', '0:v:0', '-map', audioInput(job)],
    '-vf',
    `fps=${job.frameRate.text},scale=${size.width}:${size.height}:flags=bicubic,setsar=1,format=yuv420p`,
    ...h264Encoder(job),
    ...['-profile:v', 'main', '-maxrate', `${rateKbps}k`, '-bufsize', `${2 * rateKbps}k`],
    ...keyframes(job, 'h264'),
    ...audioEncoder('h264'),
    ...['-t', job.durationSeconds.toFixed(3), '-threads', String(job.threads), ...BITEXACT, '-movflags', '+faststart', '-f', 'mp4', out],
  ];
}

/** One JPEG frame `atSeconds` into the source. */
export function posterArgs(job: EncodeJob, atSeconds: number, size: { width: number; height: number }, out: string): string[] {
  return [
    ...RUN,
    ...['-ss', atSeconds.toFixed(3), '-i', job.source, '-map', '0:v:0', '-frames:v', '1'],
    ...['-vf', `scale=${size.width}:${size.height}:flags=bicubic,setsar=1`, '-q:v', '3', ...BITEXACT, '-update', '1', '-f', 'image2', out],
  ];
}

/**
 * The storyboard: one thumbnail every {@link STORYBOARD}.intervalSeconds, letterboxed into the thumbnail size, tiled
 * into sheets (`sheet-000.jpg` …; the last one padded), and one line per thumbnail in `countFile` (ffmpeg's framecrc),
 * so the number of thumbnails is what the filter made, not a guess.
 */
export function storyboardArgs(job: EncodeJob, sheetPattern: string, countFile: string): string[] {
  const { intervalSeconds, thumbWidth: w, thumbHeight: h, columns, rows } = STORYBOARD;
  const thumbs = `fps=1/${intervalSeconds},scale=${w}:${h}:force_original_aspect_ratio=decrease:flags=bicubic,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,setsar=1`;
  return [
    ...RUN,
    ...['-i', job.source, '-filter_complex', `[0:v:0]${thumbs},split=2[t][c];[t]tile=${columns}x${rows}[sheets]`],
    ...['-map', '[sheets]', '-q:v', '5', '-start_number', '0', ...BITEXACT, '-f', 'image2', sheetPattern],
    ...['-map', '[c]', '-f', 'framecrc', countFile],
  ];
}

/** Frames decoded in each window of the decode check. */
export const DECODE_CHECK_FRAMES = 10;

/**
 * Decodes a few frames at the start, the middle and near the end of the source, stopping at the first error: a
 * damaged file is refused before any encode starts.
 */
export function decodeCheckArgs(source: string, durationSeconds: number): string[] {
  const starts = [0, durationSeconds / 2, Math.max(0, durationSeconds - 2)];
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-xerror'],
    ...starts.flatMap((s) => ['-ss', s.toFixed(3), '-i', source]),
    ...starts.flatMap((_, i) => ['-map', `${i}:v:0`, '-frames:v', String(DECODE_CHECK_FRAMES), '-f', 'null', '-']),
  ];
}
