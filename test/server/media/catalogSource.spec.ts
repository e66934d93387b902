import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findVideo } from '../../../server/media/catalog';
import { type CatalogLog, createCatalogSource } from '../../../server/media/catalogSource';
import { LIBRARY_RESCAN_MIN_INTERVAL_MS } from '../../../server/media/limits';
import { writeEntry, writeLibraryVideo } from './libraryFixture';

/** How many samples `media/catalog.json` holds: the library's entries come after them. */
const SAMPLES = (JSON.parse(readFileSync(join(__dirname, '../../../media/catalog.json'), 'utf8')) as { videos: unknown[] }).videos.length;

/** The catalogue source without its watcher: the samples, the library read at start, and the rescans requests cause. */
const mediaDir = resolve(__dirname, '../../../media');
let libraryDir: string;
let now: number;
let lines: string[];
const log: CatalogLog = { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) };
const source = () => createCatalogSource({ mediaDir, libraryDir, log, now: () => now });
const ids = (catalog: { videos: Array<{ id: string }> }) => catalog.videos.map((v) => v.id);

beforeEach(() => {
  libraryDir = mkdtempSync(join(tmpdir(), 'vidframe-library-'));
  now = 1_800_000_000_000;
  lines = [];
});
afterEach(() => rmSync(libraryDir, { recursive: true, force: true }));

describe('the catalogue source', () => {
  it('holds the samples and, after them, the good library entries; a library without entries/ holds nothing more', () => {
    const empty = source();
    expect(ids(empty.current())).toHaveLength(SAMPLES);
    expect(lines).toEqual([]);
    writeEntry(libraryDir, writeLibraryVideo(libraryDir, 'VFlib000002'));
    writeEntry(libraryDir, writeLibraryVideo(libraryDir, 'VFlib000001'));
    const catalog = source().current();
    expect(ids(catalog).slice(SAMPLES)).toEqual(['VFlib000001', 'VFlib000002']);
    expect(findVideo(catalog, 'VFlib000001')!.root).toBe('library');
    expect(lines).toEqual([
      'info Library: serving VFlib000001 (A library video) from entries/VFlib000001.json',
      'info Library: serving VFlib000002 (A library video) from entries/VFlib000002.json',
    ]);
  });

  it('skips a bad entry with a log line naming it, a sample id, an author on another channel; keeps the good ones', () => {
    writeEntry(libraryDir, writeLibraryVideo(libraryDir, 'VFlib000001'));
    writeEntry(libraryDir, { ...writeLibraryVideo(libraryDir, 'VFlib000002'), durationSeconds: -1 });
    writeEntry(libraryDir, { ...writeLibraryVideo(libraryDir, 'VFsunrise01'), title: 'Not the sample' });
    writeEntry(libraryDir, { ...writeLibraryVideo(libraryDir, 'VFlib000003'), author: 'VidFrame Samples' });
    writeEntry(libraryDir, '{"half', 'VFlib000004.json');
    writeEntry(libraryDir, {}, 'notes.json');
    const catalog = source().current();
    expect(ids(catalog).slice(SAMPLES)).toEqual(['VFlib000001']);
    expect(findVideo(catalog, 'VFsunrise01')!.root).toBeUndefined();
    expect(lines.filter((l) => l.startsWith('warn'))).toEqual([
      `warn Library: skipped entries/VFlib000002.json: Library ${libraryDir}, entry entries/VFlib000002.json (VFlib000002): durationSeconds must be a number ≥ 0`,
      'warn Library: skipped entries/VFlib000003.json: entries/VFlib000003.json: the author "VidFrame Samples" already has the channel UCvidframeSamples0000000 (one channel per author)',
      expect.stringMatching(/^warn Library: skipped entries\/VFlib000004\.json: .*not readable JSON/),
      'warn Library: skipped entries/VFsunrise01.json: media/catalog.json already holds the video VFsunrise01, which wins over the library\'s',
      expect.stringMatching(/^warn Library: skipped entries\/notes\.json: .*the file name must be the video id/),
    ]);
  });

  it('reads the library again for a request naming an unknown id, at most once per interval however many there are', () => {
    const catalog = source();
    expect(catalog.scans).toBe(1);
    writeEntry(libraryDir, writeLibraryVideo(libraryDir, 'VFlib000001'));
    // Without an id, or with a malformed one, nothing is read: the watcher's business.
    expect(findVideo(catalog.current(), 'VFlib000001')).toBeUndefined();
    expect(findVideo(catalog.current('VFlib0000'), 'VFlib000001')).toBeUndefined();
    expect(catalog.scans).toBe(1);
    // An unknown id within the interval after the start's reading: not yet.
    now += LIBRARY_RESCAN_MIN_INTERVAL_MS - 1;
    expect(findVideo(catalog.current('VFlib000001'), 'VFlib000001')).toBeUndefined();
    expect(catalog.scans).toBe(1);
    now += 1;
    expect(findVideo(catalog.current('VFlib000001'), 'VFlib000001')).toBeDefined();
    expect(catalog.scans).toBe(2);
    // A known id never reads; a flood of unknown ones reads once per interval.
    for (let i = 0; i < 100; i++) catalog.current('VFlib000001');
    now += LIBRARY_RESCAN_MIN_INTERVAL_MS;
    for (let i = 0; i < 100; i++) catalog.current(`VFnone${String(i).padStart(5, '0')}`);
    expect(catalog.scans).toBe(3);
    now += LIBRARY_RESCAN_MIN_INTERVAL_MS;
    for (let i = 0; i < 100; i++) catalog.current(`VFnone${String(i).padStart(5, '0')}`);
    expect(catalog.scans).toBe(4);
  });

  it('reads a changed entry again, drops a removed one with a log line, and does not log an unchanged one twice', () => {
    const catalog = source();
    writeEntry(libraryDir, writeLibraryVideo(libraryDir, 'VFlib000001'));
    catalog.rescan();
    catalog.rescan();
    expect(lines).toEqual(['info Library: serving VFlib000001 (A library video) from entries/VFlib000001.json']);
    writeEntry(libraryDir, writeLibraryVideo(libraryDir, 'VFlib000001', { version: 'v2', title: 'Second cut' }));
    catalog.rescan();
    expect(findVideo(catalog.current(), 'VFlib000001')).toMatchObject({ title: 'Second cut', poster: 'videos/VFlib000001/v2/poster.jpg' });
    unlinkSync(join(libraryDir, 'entries/VFlib000001.json'));
    catalog.rescan();
    expect(findVideo(catalog.current(), 'VFlib000001')).toBeUndefined();
    expect(lines.slice(1)).toEqual([
      'info Library: serving VFlib000001 (Second cut) from entries/VFlib000001.json',
      'info Library: entries/VFlib000001.json is gone; its video is no longer served',
    ]);
  });

  it('watches entries/ (creating it) until told to stop', async () => {
    const catalog = createCatalogSource({ mediaDir, libraryDir, log, now: () => now, debounceMs: 10 });
    const stop = catalog.watch();
    writeEntry(libraryDir, writeLibraryVideo(libraryDir, 'VFlib000001'));
    for (let waited = 0; !findVideo(catalog.current(), 'VFlib000001'); waited += 10) {
      if (waited > 5000) throw new Error('the watcher never read the new entry');
      await new Promise((r) => setTimeout(r, 10));
    }
    stop();
    const scans = catalog.scans;
    writeEntry(libraryDir, writeLibraryVideo(libraryDir, 'VFlib000002'));
    // Ten times the quiet time: a watcher still running would have read the library by now.
    await new Promise((r) => setTimeout(r, 100));
    expect(catalog.scans).toBe(scans);
    expect(findVideo(catalog.current(), 'VFlib000002')).toBeUndefined();
  });
});
