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
