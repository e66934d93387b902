/**
 * A stand-in library for the adaptive benchmark when no ingested video is at hand: a synthetic source (a test pattern,
 * with a grainy middle third so that the encoder's work varies) encoded by ffmpeg into the contract's layout
 * (`docs/adaptive-streaming.md`): `entries/<id>.json`, and under `videos/<id>/dev/` an H.264/AAC fMP4 ladder from 144p
 * to 720p in 2 s segments with its DASH manifest and HLS playlists, plus one progressive H.264 file. The harness reads
 * it exactly as it reads ingest's output. Made once into `.bench/abr-library/` and reused while its entry exists.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const DEV_LIBRARY_DIR = resolve(import.meta.dirname, '../../.bench/abr-library');
export const DEV_VIDEO_ID = 'VFbenchABR1';

/** Height and target bitrate (kbps) of each rendition: the contract's H.264 column up to 720p. */
const LADDER = [
  { quality: 'tiny', height: 144, kbps: 110 },
  { quality: 'small', height: 240, kbps: 250 },
  { quality: 'medium', height: 360, kbps: 500 },
  { quality: 'large', height: 480, kbps: 900 },
  { quality: 'hd720', height: 720, kbps: 1800 },
] as const;

const SEGMENT_SECONDS = 2;
const FPS = 30;

function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
}

function encodeLadder(dir: string, seconds: number): void {
  const grain = `noise=alls=14:allf=t:enable='between(t,${Math.round(seconds / 3)},${Math.round((2 * seconds) / 3)})'`;
  const split = `[0:v]${grain},split=${LADDER.length}${LADDER.map((_, i) => `[s${i}]`).join('')}`;
  const scales = LADDER.map((r, i) => `[s${i}]scale=-2:${r.height}[v${i}]`);
  const perRendition = LADDER.flatMap((r, i) => [
    `-b:v:${i}`,
    `${r.kbps}k`,
    `-maxrate:v:${i}`,
    `${Math.round(r.kbps * 1.1)}k`,
    `-bufsize:v:${i}`,
    `${r.kbps * 2}k`,
  ]);
  ffmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=s=1280x720:r=${FPS}:d=${seconds}`, '-f', 'lavfi', '-i', `sine=f=440:d=${seconds}`],
    ...['-filter_complex', [split, ...scales].join(';')],
    ...LADDER.flatMap((_, i) => ['-map', `[v${i}]`]),
    ...['-map', '1:a'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'main', '-pix_fmt', 'yuv420p'],
    ...['-g', String(FPS * SEGMENT_SECONDS), '-keyint_min', String(FPS * SEGMENT_SECONDS), '-sc_threshold', '0'],
    ...perRendition,
    ...['-c:a', 'aac', '-b:a', '128k', '-ac', '2'],
    ...['-f', 'dash', '-seg_duration', String(SEGMENT_SECONDS), '-use_template', '1', '-use_timeline', '0', '-hls_playlist', '1'],
    ...['-adaptation_sets', 'id=0,streams=v id=1,streams=a'],
    ...['-init_seg_name', 'init-$RepresentationID$.m4s', '-media_seg_name', 'seg-$RepresentationID$-$Number%05d$.m4s'],
    join(dir, 'h264', 'manifest.mpd'),
  ]);
  ffmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=s=640x360:r=${FPS}:d=${seconds}`, '-f', 'lavfi', '-i', `sine=f=440:d=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'main', '-b:v', '500k', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k'],
    ...['-movflags', '+faststart', join(dir, 'progressive.mp4')],
  ]);
}

/** The `codecs` of each Representation of the manifest, by its id. */
function codecsById(mpd: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of mpd.matchAll(/<Representation\b[^>]*>/g)) {
    const id = /\bid="([^"]+)"/.exec(m[0])?.[1];
    const codecs = /\bcodecs="([^"]+)"/.exec(m[0])?.[1];
    if (id !== undefined && codecs !== undefined) out.set(id, codecs);
  }
  return out;
}

function writeEntry(library: string, version: string, seconds: number): void {
  const rel = `videos/${DEV_VIDEO_ID}/${version}`;
  const dir = join(library, rel, 'h264');
  const codecs = codecsById(readFileSync(join(dir, 'manifest.mpd'), 'utf8'));
  const format = (id: number) => {
    const names = readdirSync(dir)
      .filter((n) => n.startsWith(`seg-${id}-`))
      .sort();
    const segmentBytes = names.map((n) => statSync(join(dir, n)).size);
    const bitrate = Math.round((segmentBytes.reduce((a, b) => a + b, 0) * 8) / seconds);
    return {
      init: `${rel}/h264/init-${id}.m4s`,
      segments: `${rel}/h264/seg-${id}-$Number%05d$.m4s`,
      startNumber: 1,
      segmentSeconds: SEGMENT_SECONDS,
      segmentBytes,
      bitrate,
    };
  };
  const formats = [
    ...LADDER.map((r, i) => {
      const width = Math.round((r.height * 16) / 9 / 2) * 2;
      return {
        kind: 'video',
        quality: r.quality,
        width,
        height: r.height,
        mimeType: `video/mp4; codecs="${codecs.get(String(i)) ?? 'avc1.4d401f'}"`,
        ...format(i),
      };
    }),
    { kind: 'audio', mimeType: `audio/mp4; codecs="${codecs.get(String(LADDER.length)) ?? 'mp4a.40.2'}"`, ...format(LADDER.length) },
  ];
  const entry = {
    id: DEV_VIDEO_ID,
    title: 'Benchmark ladder (synthetic)',
    author: 'VidFrame bench',
    channelId: 'UCvidframeBench000000000',
    durationSeconds: seconds,
    embeddable: true,
    renditions: [
      {
        quality: 'medium',
        width: 640,
        height: 360,
        file: `${rel}/progressive.mp4`,
        mimeType: 'video/mp4; codecs="avc1.4d401e, mp4a.40.2"',
        bytes: statSync(join(library, rel, 'progressive.mp4')).size,
      },
    ],
    captions: [],
    adaptive: { segmentSeconds: SEGMENT_SECONDS, dash: { h264: `${rel}/h264/manifest.mpd` }, hls: `${rel}/h264/master.m3u8`, formats },
  };
  mkdirSync(join(library, 'entries'), { recursive: true });
  const path = join(library, 'entries', `${DEV_VIDEO_ID}.json`);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(entry, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

/** The dev library's entry file, encoded first (ffmpeg, a minute or two) when missing. */
export function ensureDevLadder(seconds = 90, library = DEV_LIBRARY_DIR): string {
  const entryPath = join(library, 'entries', `${DEV_VIDEO_ID}.json`);
  if (existsSync(entryPath)) return entryPath;
  const version = `dev-${seconds}s`;
  const dir = join(library, 'videos', DEV_VIDEO_ID, version);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'h264'), { recursive: true });
  console.log(`abr: encoding the dev ladder (${seconds} s, ${LADDER.length} renditions) into ${dir}`);
  encodeLadder(dir, seconds);
  writeEntry(library, version, seconds);
  return entryPath;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  console.log(ensureDevLadder(Number(process.argv[2] ?? 90)));
}
