/**
 * The video the adaptive benchmark plays: a catalogue entry in the library layout of `docs/adaptive-streaming.md`
 * (its H.264 family: the DASH manifest `adaptive.dash.h264`, the HLS playlist, the `video/mp4` formats)
 * in `<library>/entries/<id>.json`, paths relative to the library, as `npm run ingest` writes it. Found, in order, from
 * `--entry <path>` or `BENCH_ABR_ENTRY`, the longest entry with an H.264 DASH manifest and an HLS playlist in the
 * library (`VIDFRAME_LIBRARY_DIR`, by default `.data/library`), else the dev ladder (`bench/abr/devLadder.ts`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ensureDevLadder } from './devLadder';

export interface BenchEntry {
  id: string;
  entryPath: string;
  libraryDir: string;
  durationSeconds: number;
  segmentSeconds: number;
  /** Paths relative to the library. */
  dashH264: string;
  hls: string;
  /** Height → bit/s: the ladder's video formats, then the progressive files. */
  ladder: { height: number; bitrate: number; source: 'ladder' | 'progressive' }[];
}

interface EntryFile {
  id?: string;
  durationSeconds?: number;
  renditions?: { height?: number; bytes?: number }[];
  adaptive?: {
    segmentSeconds?: number;
    dash?: { h264?: string };
    hls?: string;
    formats?: { kind?: string; height?: number; bitrate?: number; mimeType?: string }[];
  };
}

function read(path: string): EntryFile | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as EntryFile;
  } catch {
    return undefined;
  }
}

const playable = (e: EntryFile | undefined) => Boolean(e?.id && e.adaptive?.dash?.h264 && e.adaptive.hls && e.adaptive.formats?.length);

function findEntryPath(args: string[]): string {
  const at = args.indexOf('--entry');
  const given = at >= 0 ? args[at + 1] : process.env.BENCH_ABR_ENTRY;
  if (given) return resolve(given);
  const library = resolve(process.env.VIDFRAME_LIBRARY_DIR ?? '.data/library');
  const dir = join(library, 'entries');
  const found = existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith('.json'))
        .map((n) => ({ path: join(dir, n), entry: read(join(dir, n)) }))
        .filter((c) => playable(c.entry))
        .sort((a, b) => (b.entry?.durationSeconds ?? 0) - (a.entry?.durationSeconds ?? 0))
    : [];
  return found[0]?.path ?? ensureDevLadder();
}

/** The entry to play, read and checked; throws with the reason when it cannot be played. */
export function loadBenchEntry(args: string[]): BenchEntry {
  const entryPath = findEntryPath(args);
  const e = read(entryPath);
  if (!playable(e) || !e?.adaptive) throw new Error(`abr: ${entryPath} is no catalogue entry with adaptive.dash.h264, adaptive.hls and formats`);
  const durationSeconds = e.durationSeconds ?? NaN;
  // The H.264 family only: the VP9 family has the same heights at other bitrates, and the bench plays H.264.
  const h264 = (e.adaptive.formats ?? []).filter((f) => f.kind === 'video' && f.height && f.bitrate && /^video\/mp4\b/.test(f.mimeType ?? ''));
  const ladder: BenchEntry['ladder'] = [
    ...h264.map((f) => ({ height: f.height!, bitrate: f.bitrate!, source: 'ladder' as const })),
    ...(e.renditions ?? [])
      .filter((r) => r.height && r.bytes && durationSeconds > 0)
      .map((r) => ({ height: r.height!, bitrate: Math.round((r.bytes! * 8) / durationSeconds), source: 'progressive' as const })),
  ];
  return {
    id: e.id!,
    entryPath,
    libraryDir: dirname(dirname(entryPath)),
    durationSeconds,
    segmentSeconds: e.adaptive.segmentSeconds ?? 2,
    dashH264: e.adaptive.dash!.h264!,
    hls: e.adaptive.hls!,
    ladder,
  };
}

/**
 * The bitrate (bit/s) of what shows at `height`: the ladder's rendition of that height, else the progressive file's,
 * else the ladder's nearest height (a rendition scaled by the player reports its coded height).
 */
export function bitrateOf(entry: BenchEntry, height: number): number {
  const exact = entry.ladder.find((r) => r.height === height);
  if (exact) return exact.bitrate;
  const nearest = [...entry.ladder].sort((a, b) => Math.abs(a.height - height) - Math.abs(b.height - height))[0];
  return nearest?.bitrate ?? NaN;
}
