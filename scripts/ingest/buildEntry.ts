/**
 * The catalogue entry of an ingested video (docs/adaptive-streaming.md, "The catalogue entry"), built from what is on
 * disk: the manifests ffmpeg wrote, the segments' sizes, the progressive file and the storyboard. Pure, and written
 * with a fixed key order and layout, so the same files always give the same bytes.
 */
import type { CatalogAdaptive, CatalogAdaptiveFormat, CatalogStoryboard } from '../../server/media/catalogAdaptive';
import type { CatalogChapter } from '../../server/media/catalogChecks';
import type { ChosenRung } from './ladder';
import type { MpdRepresentation } from './readMpd';
import type { Family } from './ffmpegArgs';

/** One format as the catalogue holds it (`server/media/catalogAdaptive.ts` checks it; ingest writes it). */
export type EntryFormat = CatalogAdaptiveFormat;

export interface CatalogEntry {
  id: string;
  title: string;
  author: string;
  channelId: string;
  durationSeconds: number;
  embeddable: boolean;
  chapters?: CatalogChapter[];
  poster: string;
  renditions: { quality: string; width: number; height: number; file: string; mimeType: string; bytes: number }[];
  captions: never[];
  adaptive: CatalogAdaptive & { dash: Record<Family, string>; hls: string };
  storyboard: CatalogStoryboard;
}

/** One family's ladder as written: its manifest's representations (rungs lowest first, then audio) and their segments. */
export interface FamilyOutput {
  family: Family;
  /** The manifest's path relative to the version folder (`h264/manifest.mpd`). */
  manifest: string;
  rungs: readonly ChosenRung[];
  representations: readonly MpdRepresentation[];
  /** Each representation's media segment sizes, in order. */
  segmentBytes: readonly (readonly number[])[];
}

export interface EntryInput {
  id: string;
  title: string;
  author: string;
  channelId: string;
  durationSeconds: number;
  /** The video's chapters (`--chapters`), checked against its duration; absent: none. */
  chapters?: readonly CatalogChapter[];
  /** The version folder relative to the library (`videos/<id>/<version>`): every path of the entry starts with it. */
  base: string;
  families: readonly FamilyOutput[];
  progressive: { quality: string; width: number; height: number; file: string; codecs: string; bytes: number };
  storyboard: Omit<CatalogEntry['storyboard'], 'sheets'> & { sheets: string[] };
  poster: string;
  hls: string;
  segmentSeconds: number;
}

/** Bits per second of `bytes` over `seconds`, rounded. */
export const measuredBitrate = (bytes: readonly number[], seconds: number): number => Math.round((bytes.reduce((a, b) => a + b, 0) * 8) / seconds);

/** The entry's formats of one family: its video rungs lowest first, then its audio. */
export function familyFormats(out: FamilyOutput, base: string, durationSeconds: number): EntryFormat[] {
  const dir = out.manifest.includes('/') ? out.manifest.slice(0, out.manifest.lastIndexOf('/') + 1) : '';
  const videos = out.representations.filter((r) => r.contentType === 'video');
  if (videos.length !== out.rungs.length)
    throw new Error(`the ${out.family} manifest has ${videos.length} video representations for ${out.rungs.length} rungs`);
  return out.representations.map((rep, i): EntryFormat => {
    const bytes = [...(out.segmentBytes[i] ?? [])];
    if (bytes.length === 0) throw new Error(`the ${out.family} representation ${rep.id} has no segments`);
    const common = {
      bitrate: measuredBitrate(bytes, durationSeconds),
      mimeType: `${rep.mimeType}; codecs="${rep.codecs}"`,
      init: `${base}/${dir}${rep.initialization}`,
      segments: `${base}/${dir}${rep.media}`,
      startNumber: rep.startNumber,
      segmentSeconds: rep.segmentSeconds,
      segmentBytes: bytes,
    };
    if (rep.contentType === 'audio') return { kind: 'audio', ...common };
    const rung = out.rungs[videos.indexOf(rep)]!;
    if (rep.height !== rung.height || rep.width !== rung.width) {
      throw new Error(`the ${out.family} representation ${rep.id} is ${rep.width}×${rep.height}, not the ${rung.width}×${rung.height} of ${rung.quality}`);
    }
    return { kind: 'video', quality: rung.quality, width: rung.width, height: rung.height, ...common };
  });
}

/** The whole entry, fields in the contract's order. */
export function buildEntry(input: EntryInput): CatalogEntry {
  const { base } = input;
  const manifest = (family: Family) => `${base}/${input.families.find((f) => f.family === family)?.manifest ?? `${family}/manifest.mpd`}`;
  const p = input.progressive;
  return {
    id: input.id,
    title: input.title,
    author: input.author,
    channelId: input.channelId,
    durationSeconds: input.durationSeconds,
    embeddable: true,
    ...(input.chapters && { chapters: input.chapters.map((c) => ({ title: c.title, startSeconds: c.startSeconds })) }),
    poster: `${base}/${input.poster}`,
    renditions: [
      { quality: p.quality, width: p.width, height: p.height, file: `${base}/${p.file}`, mimeType: `video/mp4; codecs="${p.codecs}"`, bytes: p.bytes },
    ],
    captions: [],
    adaptive: {
      segmentSeconds: input.segmentSeconds,
      dash: { h264: manifest('h264'), vp9: manifest('vp9') },
      hls: `${base}/${input.hls}`,
      formats: input.families.flatMap((f) => familyFormats(f, base, input.durationSeconds)),
    },
    storyboard: { ...input.storyboard, sheets: input.storyboard.sheets.map((s) => `${base}/${s}`) },
  };
}

/** A value on one line, with a space after each separator (`{ "a": 1, "b": [1, 2] }`), as media/catalog.json reads. */
export function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).filter(([, v]) => v !== undefined);
    return fields.length === 0 ? '{}' : `{ ${fields.map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** A list with one item per line, or `[]`. */
function listLines(items: readonly unknown[], indent: string): string {
  if (items.length === 0) return '[]';
  return `[\n${items.map((item) => `${indent}  ${inlineJson(item)}`).join(',\n')}\n${indent}]`;
}

/**
 * The entry as text, `indent` before every line: one field per line, the renditions, captions and formats one per
 * line, the rest inline (the layout of media/catalog.json, so an entry reads the same in both places).
 */
export function formatEntry(entry: CatalogEntry, indent = ''): string {
  const inner = `${indent}  `;
  const lines = Object.entries(entry).map(([key, value]) => {
    let text: string;
    if (key === 'renditions' || key === 'captions') text = listLines(value as unknown[], inner);
    else if (key === 'adaptive') {
      const a = value as CatalogEntry['adaptive'];
      const fields = Object.entries(a).map(
        ([k, v]) => `${inner}  ${JSON.stringify(k)}: ${k === 'formats' ? listLines(v as unknown[], `${inner}  `) : inlineJson(v)}`,
      );
      text = `{\n${fields.join(',\n')}\n${inner}}`;
    } else text = inlineJson(value);
    return `${inner}${JSON.stringify(key)}: ${text}`;
  });
  return `${indent}{\n${lines.join(',\n')}\n${indent}}`;
}
