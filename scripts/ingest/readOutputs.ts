/**
 * Reads back what the encodes wrote into a version folder: each family's manifest and segment sizes, the progressive
 * file, the storyboard, and the record ingest keeps beside them (`version.json`). The entry is built from these, so it
 * states what is on disk, whether this run encoded it or an earlier one did.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FamilyOutput } from './buildEntry';
import type { Family } from './ffmpegArgs';
import type { ChosenRung } from './ladder';
import { readMpd } from './readMpd';
import { avcCodecOf, segmentSizes } from './library';

/** Where each output lives inside a version folder. */
export const LAYOUT = {
  manifest: (family: Family) => `${family}/manifest.mpd`,
  hlsMaster: 'h264/master.m3u8',
  progressive: 'progressive.mp4',
  poster: 'poster.jpg',
  storyboardDir: 'storyboard',
  sheetPattern: 'storyboard/sheet-%03d.jpg',
  /** ffmpeg's framecrc of the thumbnails: one line per thumbnail, counted, then removed. */
  thumbCount: 'storyboard/thumbs.crc',
  record: 'version.json',
} as const;

/** What ingest records about a version beside its files: what the entry needs and cannot read back from them. */
export interface VersionRecord {
  sourceDigest: string;
  settings: Record<string, unknown>;
  frameRate: number;
  storyboardCount: number;
}

export async function writeRecord(dir: string, record: VersionRecord): Promise<void> {
  await writeFile(join(dir, LAYOUT.record), `${JSON.stringify(record, null, 2)}\n`);
}

export async function readRecord(dir: string): Promise<VersionRecord> {
  return JSON.parse(await readFile(join(dir, LAYOUT.record), 'utf8')) as VersionRecord;
}

/** One family's manifest and the sizes of each representation's segments on disk. */
export async function readFamily(versionDir: string, family: Family, rungs: readonly ChosenRung[]): Promise<FamilyOutput> {
  const manifest = LAYOUT.manifest(family);
  const representations = readMpd(await readFile(join(versionDir, manifest), 'utf8'));
  const dir = join(versionDir, family);
  const segmentBytes = await Promise.all(representations.map((r) => segmentSizes(dir, r.media, r.startNumber)));
  return { family, manifest, rungs, representations, segmentBytes };
}

/** The progressive file's size and codecs (its audio is always AAC-LC). */
export async function readProgressive(versionDir: string): Promise<{ bytes: number; codecs: string }> {
  const file = join(versionDir, LAYOUT.progressive);
  return { bytes: (await stat(file)).size, codecs: `${await avcCodecOf(file)}, mp4a.40.2` };
}

/** The storyboard's sheets in order, relative to the version folder. */
export async function readSheets(versionDir: string): Promise<string[]> {
  const dir = join(versionDir, LAYOUT.storyboardDir);
  const names = existsSync(dir) ? await readdir(dir) : [];
  return names
    .filter((n) => /^sheet-\d+\.jpg$/.test(n))
    .sort()
    .map((n) => `${LAYOUT.storyboardDir}/${n}`);
}

/** The number of thumbnails ffmpeg made: the frame lines of its framecrc (comment lines start with `#`). */
export const countFrames = (framecrc: string): number => framecrc.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')).length;
