import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';

/**
 * The small checks every part of a catalogue entry shares: the value tests and the file check, whose paths are
 * relative to the folder the entry belongs to (the media folder for `media/catalog.json`, the library for an ingested
 * entry).
 */

export type Entry = Record<string, unknown>;

/** Throws the entry's error: `where` names the entry and its field (`videos[3] (VFbrokenvid).renditions[1]`). */
export type Fail = (where: string, what: string) => never;

export const isEntry = (value: unknown): value is Entry => typeof value === 'object' && value !== null && !Array.isArray(value);
export const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
export const isPositiveInteger = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
export const isPositiveNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** Where an entry's files are, and how its errors say so. */
export interface EntryFolder {
  /** The folder's absolute path. */
  root: string;
  /** How an error names it: `media folder`, `library`. */
  name: string;
  /** What regenerates a missing file: `npm run media`, `npm run ingest`. */
  fix: string;
  /** A prefix every file path must start with (`videos/`), so that only the served part of the folder is named. */
  under?: string;
}

/** Checks one file path of an entry and returns its size in bytes. */
export type CheckFile = (where: string, file: unknown) => number;

/** A path relative to `folder.root` naming a file inside it (never `..` out of it); returns the file's size. */
export function fileChecker(folder: EntryFolder, fail: Fail): CheckFile {
  const root = resolve(folder.root);
  return (where, file) => {
    if (!isText(file)) return fail(where, 'a file path is missing');
    if (isAbsolute(file) || file.includes('\\')) return fail(where, `the file ${file} must be a path relative to the ${folder.name}`);
    const full = resolve(root, file);
    if (!full.startsWith(root + sep)) return fail(where, `the file ${file} is outside the ${folder.name}`);
    if (folder.under !== undefined && !file.startsWith(folder.under)) return fail(where, `the file ${file} must be under ${folder.under} in the ${folder.name}`);
    const stat = existsSync(full) ? statSync(full) : undefined;
    if (!stat?.isFile()) return fail(where, `the file ${file} does not exist (run \`${folder.fix}\`)`);
    return stat.size;
  };
}

/** A chapter of a video: its title and where it starts, in seconds from the start of the video. */
export interface CatalogChapter {
  title: string;
  startSeconds: number;
}

/** A chapter title is at most this many characters (a title on a seek bar, not a description). */
export const MAX_CHAPTER_TITLE_CHARS = 100;
/** A video has at most this many chapters. */
export const MAX_CHAPTERS = 100;

/**
 * Checks a video's chapters (`where`: the entry's `chapters` field): a list of at least two, each a title of 1 to
 * {@link MAX_CHAPTER_TITLE_CHARS} characters (no control characters) and a `startSeconds`; the first at 0, each later
 * one after the one before it and before the video's end (`durationSeconds`), so every chapter has a length.
 *
 * @returns fresh chapter objects, titles trimmed.
 */
export function checkChapters(where: string, chapters: unknown, durationSeconds: number, fail: Fail): CatalogChapter[] {
  if (!Array.isArray(chapters)) return fail(where, 'chapters must be a list');
  if (chapters.length < 2 || chapters.length > MAX_CHAPTERS) return fail(where, `a video has 2 to ${MAX_CHAPTERS} chapters (got ${chapters.length})`);
  let before = -1;
  return chapters.map((c: unknown, j: number): CatalogChapter => {
    const cw = `${where}[${j}]`;
    if (!isEntry(c)) return fail(cw, 'a chapter must be an object with title and startSeconds');
    const { title, startSeconds } = c;
    // eslint-disable-next-line no-control-regex
    if (!isText(title) || title.trim().length > MAX_CHAPTER_TITLE_CHARS || /[\u0000-\u001f\u007f]/.test(title)) {
      return fail(cw, `the title must be 1 to ${MAX_CHAPTER_TITLE_CHARS} characters of text, without control characters`);
    }
    if (typeof startSeconds !== 'number' || !Number.isFinite(startSeconds)) return fail(cw, 'startSeconds must be a number');
    if (j === 0 && startSeconds !== 0) return fail(cw, 'the first chapter must start at 0');
    if (j > 0 && startSeconds <= before) return fail(cw, `startSeconds ${startSeconds} must be after the chapter before it (${before})`);
    if (startSeconds >= durationSeconds) return fail(cw, `startSeconds ${startSeconds} must be before the end of the video (${durationSeconds})`);
    before = startSeconds;
    return { title: title.trim(), startSeconds };
  });
}
