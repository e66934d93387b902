/**
 * One ingest, from a source file to its catalogue entry in the library:
 *
 * 1. check the source (bounds, tools, ffprobe, a decode check);
 * 2. name its version from its bytes and the ladder settings; when that version's folder is already there, encode
 *    nothing, else encode into a temporary folder inside the library and rename it into place whole;
 * 3. build the entry from the files on disk and write it last, atomically, unless the same bytes are already there.
 *
 * An abort (Ctrl-C) or a failure removes the temporary folder; the entry is only ever written after its files.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { EXIT, IngestError } from './ingestErrors';
import type { IngestOptions } from './ingestArgs';
import type { CatalogChapter } from '../../server/media/catalogChecks';
import { buildEntry, formatEntry, type CatalogEntry } from './buildEntry';
import { readChapterList } from './chapterList';
import { checkSource } from './checkSource';
import { encodeVersion, planSteps, type Reporter } from './encodeVersion';
import type { EncodeJob } from './ffmpegArgs';
import { channelIdFor, titleFromFileName, versionOf, videoIdFromDigest } from './ids';
import {
  chooseLadder,
  gopFrames,
  snapAspect,
  INGEST_SEGMENT_SECONDS,
  ladderSettings,
  outputFrameRate,
  progressiveSize,
  STORYBOARD,
  type ChosenRung,
} from './ladder';
import { digestFile, moveIntoPlace, readEntry, removeStaleTemps, videoPaths, writeEntryAtomically, type VideoPaths } from './library';
import { LAYOUT, readFamily, readProgressive, readRecord, readSheets, writeRecord, type VersionRecord } from './readOutputs';
import type { Tools } from './runTool';
import type { SourceInfo } from './probeSource';

export interface IngestResult {
  id: string;
  version: string;
  /** The entry's path. */
  entryFile: string;
  /** `false`: the version was already complete and no file was encoded. */
  encoded: boolean;
  /** `false`: the entry already had exactly these bytes and was left alone. */
  entryWritten: boolean;
  entry: CatalogEntry;
}

export interface IngestDeps {
  tools: Tools;
  reporter: Reporter;
  signal?: AbortSignal;
}

/** The library error (exit code 11) for a file-system failure, any other error as it is. */
const asLibraryError = (e: unknown, what: string): unknown =>
  e instanceof IngestError || (e as Error)?.name === 'AbortError' || !(e as NodeJS.ErrnoException)?.code
    ? e
    : new IngestError(EXIT.LIBRARY_ERROR, `cannot ${what}: ${(e as Error).message}`);

/** What one version's encode needs. */
interface EncodePlan {
  job: EncodeJob;
  rungs: ChosenRung[];
  info: SourceInfo;
  record: Pick<VersionRecord, 'sourceDigest' | 'settings'>;
}

/** Encodes the version into its temporary folder and renames it into place; the temporary folder never outlives this. */
async function encodeIntoPlace(paths: VideoPaths, ctx: EncodePlan, deps: IngestDeps): Promise<void> {
  try {
    await removeStaleTemps(join(paths.versionDir, '..'));
    await mkdir(paths.tempDir, { recursive: true });
  } catch (e) {
    throw asLibraryError(e, `create a folder in the library (${paths.tempDir})`);
  }
  try {
    const storyboardCount = await encodeVersion({
      ...ctx,
      source: ctx.info,
      dir: paths.tempDir,
      tools: deps.tools,
      reporter: deps.reporter,
      signal: deps.signal,
    });
    await writeRecord(paths.tempDir, { ...ctx.record, frameRate: ctx.job.frameRate.value, storyboardCount });
    deps.signal?.throwIfAborted();
    await moveIntoPlace(paths.tempDir, paths.versionDir);
  } catch (e) {
    throw asLibraryError(e, 'write the version folder');
  } finally {
    await rm(paths.tempDir, { recursive: true, force: true });
  }
}

/** The entry of a complete version folder, from its files. */
async function entryOf(
  paths: VideoPaths,
  meta: { id: string; title: string; author: string; chapters?: CatalogChapter[] },
  info: SourceInfo,
  rungs: ChosenRung[],
): Promise<CatalogEntry> {
  const dir = paths.versionDir;
  const record = await readRecord(dir);
  const progressive = progressiveSize(info.height, info.displayAspect);
  return buildEntry({
    ...meta,
    channelId: channelIdFor(meta.author),
    durationSeconds: info.durationSeconds,
    base: paths.base,
    families: [await readFamily(dir, 'h264', rungs), await readFamily(dir, 'vp9', rungs)],
    progressive: { ...progressive, file: LAYOUT.progressive, ...(await readProgressive(dir)) },
    storyboard: {
      sheets: await readSheets(dir),
      intervalSeconds: STORYBOARD.intervalSeconds,
      columns: STORYBOARD.columns,
      rows: STORYBOARD.rows,
      thumbWidth: STORYBOARD.thumbWidth,
      thumbHeight: STORYBOARD.thumbHeight,
      count: record.storyboardCount,
    },
    poster: LAYOUT.poster,
    hls: LAYOUT.hlsMaster,
    segmentSeconds: INGEST_SEGMENT_SECONDS,
  });
}

/** Runs one ingest (see the module comment). Throws an {@link IngestError} with the exit code of what went wrong. */
export async function ingest(options: IngestOptions, deps: IngestDeps): Promise<IngestResult> {
  const { reporter, signal } = deps;
  const source = resolve(options.file);
  reporter.step(0, planSteps(chooseLadder(1080, 16 / 9)));
  const info = await checkSource(source, deps.tools, signal);
  // A bad chapter list is refused before anything is encoded.
  const chapters = options.chapters === undefined ? undefined : await readChapterList(options.chapters, info.durationSeconds);
  const rungs = chooseLadder(info.height, info.displayAspect);
  const frameRate = outputFrameRate(info.frameRate);
  const job: EncodeJob = {
    source,
    frameRate,
    gop: gopFrames(frameRate.value),
    aspect: snapAspect(info.displayAspect),
    durationSeconds: info.durationSeconds,
    hasAudio: info.hasAudio,
    preset: options.preset,
    threads: options.threads,
  };
  const sourceDigest = await digestFile(source, signal);
  reporter.progress(0, 1);
  const settings = ladderSettings(options.preset);
  const version = versionOf(sourceDigest, settings);
  const id = options.id ?? videoIdFromDigest(sourceDigest);
  const paths = videoPaths(resolve(options.library), id, version);

  const encoded = !existsSync(paths.versionDir);
  if (encoded) await encodeIntoPlace(paths, { job, rungs, info, record: { sourceDigest, settings } }, deps);
  signal?.throwIfAborted();

  const meta = { id, title: options.title ?? titleFromFileName(basename(source)), author: options.channel, ...(chapters && { chapters }) };
  const entry = await entryOf(paths, meta, info, rungs);
  const text = `${formatEntry(entry)}\n`;
  const entryWritten = (await readEntry(paths.entry)) !== text;
  signal?.throwIfAborted();
  if (entryWritten) await writeEntryAtomically(paths.entry, text).catch((e: unknown) => Promise.reject(asLibraryError(e, `write ${paths.entry}`)));
  return { id, version, entryFile: paths.entry, encoded, entryWritten, entry };
}
