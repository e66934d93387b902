import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Catalog, type CatalogVideo, channelRegistry, checkVideo } from './catalog';
import { fileChecker } from './catalogChecks';

/**
 * The library of ingested videos (docs/adaptive-streaming.md, "The library"): one catalogue entry per file in
 * `<library>/entries/<id>.json`, its paths relative to the library and under `videos/` (the part served at
 * `/library/videos/`). An entry is checked as a `media/catalog.json` entry is; a bad one is skipped, never fatal.
 */

/** Where the entries are, inside the library. */
export const ENTRIES_FOLDER = 'entries';
/** Where the entries' files are, inside the library: the only part of it the server serves. */
export const LIBRARY_FILES_FOLDER = 'videos';
/** An entry file's name: the video id and `.json`. */
const ENTRY_FILE = /^([A-Za-z0-9_-]{11})\.json$/;

/** One entry file as last read: its identity on disk (re-read only when it changes) and what it held. */
export interface LibraryEntry {
  /** The entry's identity on disk: inode, size and modification time. A rename over it or a rewrite changes it. */
  stamp: string;
  /** The checked video, or why the entry is skipped. */
  result: CatalogVideo | Error;
}

/** Reads and checks one entry file of the library; throws an error naming the library, the entry and its field. */
export function readLibraryEntry(libraryDir: string, fileName: string): CatalogVideo {
  const root = resolve(libraryDir);
  const where = `${ENTRIES_FOLDER}/${fileName}`;
  const fail = (at: string, what: string): never => {
    throw new Error(`Library ${root}, entry ${at}: ${what}`);
  };
  const id = ENTRY_FILE.exec(fileName)?.[1];
  if (id === undefined) return fail(where, 'the file name must be the video id (11 characters of [A-Za-z0-9_-]) and .json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(root, ENTRIES_FOLDER, fileName), 'utf8'));
  } catch (e) {
    return fail(where, `not readable JSON: ${(e as Error).message}`);
  }
  const checkFile = fileChecker({ root, name: 'library', fix: 'npm run ingest', under: `${LIBRARY_FILES_FOLDER}/` }, fail);
  const video = checkVideo(`${where} (${id})`, raw, checkFile, fail, 'npm run ingest');
  if (video.id !== id) return fail(where, `the id ${video.id} is not the file's name (${id}.json)`);
  return { ...video, root: 'library' };
}

/**
 * Reads the library's entries again, reusing what `previous` read of every file unchanged on disk, so a rescan
 * costs a directory listing and a `stat` per entry. Files whose names start with a dot or do not end in `.json`
 * (an ingest's temporary file) are not entries. A library without `entries/` holds nothing.
 */
export function scanLibrary(libraryDir: string, previous: ReadonlyMap<string, LibraryEntry>): Map<string, LibraryEntry> {
  const folder = resolve(libraryDir, ENTRIES_FOLDER);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return new Map();
  }
  const scanned = new Map<string, LibraryEntry>();
  for (const name of names.filter((n) => !n.startsWith('.') && n.endsWith('.json')).sort()) {
    let stamp: string;
    try {
      const stat = statSync(join(folder, name));
      if (!stat.isFile()) continue;
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch {
      continue; // removed between the listing and now
    }
    const known = previous.get(name);
    if (known?.stamp === stamp) {
      scanned.set(name, known);
      continue;
    }
    try {
      scanned.set(name, { stamp, result: readLibraryEntry(libraryDir, name) });
    } catch (error) {
      scanned.set(name, { stamp, result: error instanceof Error ? error : new Error(String(error)) });
    }
  }
  return scanned;
}

/** What becomes of one library entry in the catalogue: served, or skipped and why. */
export type EntryOutcome = { name: string; video: CatalogVideo } | { name: string; skipped: string };

/**
 * The media catalogue with the library's good entries after its own videos. An id `media/catalog.json` already holds
 * wins over a library entry of that id; an entry whose author or channel clashes with a video before it (one channel
 * per author) is skipped. Entries go in file-name order, so the same library gives the same catalogue.
 */
export function mergeLibrary(media: Catalog, entries: ReadonlyMap<string, LibraryEntry>): { catalog: Catalog; outcomes: EntryOutcome[] } {
  const ids = new Set(media.videos.map((v) => v.id));
  const channels = channelRegistry();
  for (const video of media.videos) channels.claim(video);
  const videos = [...media.videos];
  const outcomes = [...entries].map(([name, { result }]): EntryOutcome => {
    if (result instanceof Error) return { name, skipped: result.message };
    if (ids.has(result.id)) return { name, skipped: `media/catalog.json already holds the video ${result.id}, which wins over the library's` };
    const conflict = channels.claim(result);
    if (conflict) return { name, skipped: `${ENTRIES_FOLDER}/${name}: ${conflict}` };
    ids.add(result.id);
    videos.push(result);
    return { name, video: result };
  });
  return { catalog: { videos, playlists: media.playlists }, outcomes };
}
