import { type FSWatcher, mkdirSync, watch } from 'node:fs';
import { resolve } from 'node:path';
import { isValidVideoId } from '../../streams/config/playerConfig';
import { type Catalog, type CatalogVideo, findVideo, loadCatalog } from './catalog';
import { ENTRIES_FOLDER, type LibraryEntry, mergeLibrary, scanLibrary } from './catalogLibrary';
import { LIBRARY_RESCAN_MIN_INTERVAL_MS, LIBRARY_WATCH_DEBOUNCE_MS } from './limits';

/** What a consumer of the catalogue needs: the catalogue now (see {@link CatalogSource.current}). */
export type CurrentCatalog = Pick<CatalogSource, 'current'>;

/** Where the catalogue's changes are told: the server's logger. */
export interface CatalogLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * The catalogue as the running server sees it: the sample catalogue (`media/catalog.json`, read once at start) and
 * the library's entries, read again whenever they change. Every consumer asks {@link CatalogSource.current} per
 * request and never keeps the answer, so a new, changed or removed library entry is served without a restart.
 */
export interface CatalogSource {
  /**
   * The catalogue now. When `videoId` is a well-formed id the catalogue does not hold, the library is read again
   * first (at most once every `rescanMinIntervalMs`, however many requests name unknown ids), so an entry written a
   * moment ago is found before the watcher's quiet time is over.
   */
  current(videoId?: unknown): Catalog;
  /** Reads the library's entries again now (unchanged files are not read again). */
  rescan(): void;
  /** How many times the library has been read: what proves that a flood of unknown ids does not read it each time. */
  readonly scans: number;
  /** The folder a video's file paths are relative to: the media folder or the library. */
  folderOf(video: CatalogVideo): string;
  /**
   * Watches the library's `entries/` (creating it when missing) and reads it again after
   * `debounceMs` of quiet. Returns what stops watching; a library that cannot be watched is logged and still read on
   * requests for unknown ids.
   */
  watch(): () => void;
}

export interface CatalogSourceOptions {
  /** The sample media and its `catalog.json`: a bad catalogue stops the server, as it always has. */
  mediaDir: string;
  /** The library of ingested videos (`VIDFRAME_LIBRARY_DIR`): a bad entry is logged and skipped. */
  libraryDir: string;
  log: CatalogLog;
  now?: () => number;
  rescanMinIntervalMs?: number;
  debounceMs?: number;
}

/** The catalogue source of {@link CatalogSource}; reads both folders once before it returns. */
export function createCatalogSource({
  mediaDir,
  libraryDir,
  log,
  now = Date.now,
  rescanMinIntervalMs = LIBRARY_RESCAN_MIN_INTERVAL_MS,
  debounceMs = LIBRARY_WATCH_DEBOUNCE_MS,
}: CatalogSourceOptions): CatalogSource {
  const media = loadCatalog(mediaDir);
  const library = resolve(libraryDir);
  let entries = new Map<string, LibraryEntry>();
  let catalog = media;
  let scans = 0;
  let lastScanAt = -Infinity;
  const report = createOutcomeReport(log);

  const rescan = (): void => {
    scans += 1;
    lastScanAt = now();
    entries = scanLibrary(library, entries);
    const merged = mergeLibrary(media, entries);
    catalog = merged.catalog;
    report(merged.outcomes, entries);
  };
  rescan();

  return {
    current(videoId?: unknown): Catalog {
      if (isValidVideoId(videoId) && !findVideo(catalog, videoId) && now() - lastScanAt >= rescanMinIntervalMs) rescan();
      return catalog;
    },
    rescan,
    get scans() {
      return scans;
    },
    folderOf: (video) => (video.root === 'library' ? library : resolve(mediaDir)),
    watch: () => watchEntries(resolve(library, ENTRIES_FOLDER), rescan, log, debounceMs),
  };
}

/** Logs each entry's outcome once, when it first appears or changes, and each entry that is gone. */
function createOutcomeReport(log: CatalogLog): (outcomes: ReturnType<typeof mergeLibrary>['outcomes'], entries: ReadonlyMap<string, LibraryEntry>) => void {
  let told = new Map<string, string>();
  return (outcomes, entries) => {
    const now = new Map<string, string>();
    for (const outcome of outcomes) {
      const key = `${entries.get(outcome.name)?.stamp ?? ''} ${'video' in outcome ? 'ok' : outcome.skipped}`;
      now.set(outcome.name, key);
      if (told.get(outcome.name) === key) continue;
      if ('video' in outcome) log.info(`Library: serving ${outcome.video.id} (${outcome.video.title}) from ${ENTRIES_FOLDER}/${outcome.name}`);
      else log.warn(`Library: skipped ${ENTRIES_FOLDER}/${outcome.name}: ${outcome.skipped}`);
    }
    for (const name of told.keys()) if (!now.has(name)) log.info(`Library: ${ENTRIES_FOLDER}/${name} is gone; its video is no longer served`);
    told = now;
  };
}

function watchEntries(folder: string, rescan: () => void, log: CatalogLog, debounceMs: number): () => void {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const stop = () => {
    clearTimeout(timer);
    watcher?.close();
    watcher = undefined;
  };
  try {
    mkdirSync(folder, { recursive: true });
    watcher = watch(folder, () => {
      clearTimeout(timer);
      timer = setTimeout(rescan, debounceMs);
      timer.unref();
    });
    // The process never stays up for the watcher alone: the server's close stops it.
    watcher.unref();
    watcher.on('error', (error) => {
      log.warn(`Library: stopped watching ${folder} (${error.message}); new entries are found when a request names them`);
      stop();
    });
  } catch (error) {
    log.warn(`Library: cannot watch ${folder} (${(error as Error).message}); new entries are found when a request names them`);
    stop();
  }
  return stop;
}
