import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../../../server/media/catalog';
import { isSegmentTemplate, segmentPath } from '../../../server/media/catalogAdaptive';
import { readLibraryEntry } from '../../../server/media/catalogLibrary';
import { type LibraryEntryJson, writeEntry, writeLibraryVideo } from './libraryFixture';

/** The checks of a library entry's adaptive ladder and storyboard, on real files in a temporary library. */
const ID = 'VFlib000001';
let dir: string;
let entry: LibraryEntryJson;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidframe-library-'));
  entry = writeLibraryVideo(dir, ID);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (value: unknown = entry, name = `${ID}.json`) => {
  writeEntry(dir, value, name);
  return readLibraryEntry(dir, name);
};
/** The entry with `change` applied to a deep copy of it. */
const changed = (change: (e: LibraryEntryJson) => void): LibraryEntryJson => {
  const copy = structuredClone(entry);
  change(copy);
  return copy;
};
const format = (e: LibraryEntryJson, i: number) => e.adaptive.formats[i]!;
const storyboard = (e: LibraryEntryJson) => e.storyboard as Record<string, unknown>;

describe('a library entry with an adaptive ladder and a storyboard', () => {
  it('is read with its ladder, its storyboard and the library as its root, keeping only the known fields', () => {
    const video = read(changed((e) => (format(e, 0).extra = 'dropped')));
    expect(video).toMatchObject({ id: ID, root: 'library', title: 'A library video', poster: `videos/${ID}/v1/poster.jpg` });
    expect(video.adaptive!.formats.map((f) => [f.kind, f.quality, f.mimeType.split(';')[0]])).toEqual([
      ['video', 'tiny', 'video/mp4'],
      ['video', 'medium', 'video/mp4'],
      ['audio', undefined, 'audio/mp4'],
      ['video', 'tiny', 'video/webm'],
      ['audio', undefined, 'audio/webm'],
    ]);
    expect(video.adaptive!.formats[0]).not.toHaveProperty('extra');
    expect(video.adaptive!.formats[2]).not.toHaveProperty('quality');
    expect(video.adaptive!.formats[1]!.segmentBytes).toEqual([110, 111, 112]);
    expect(video.adaptive!.dash).toEqual({ h264: `videos/${ID}/v1/h264/manifest.mpd`, vp9: `videos/${ID}/v1/vp9/manifest.mpd` });
    expect(video.storyboard).toEqual({ ...storyboard(entry), sheets: [`videos/${ID}/v1/storyboard/sheet-000.jpg`, `videos/${ID}/v1/storyboard/sheet-001.jpg`] });
  });

  it('fills a segment template: $Number$ as it is, $Number%05d$ padded to five digits; only those placeholders', () => {
    expect(segmentPath('a/seg-$Number$.webm', 7)).toBe('a/seg-7.webm');
    expect(segmentPath('a/seg-$Number%05d$.m4s', 7)).toBe('a/seg-00007.m4s');
    expect(['s-$Number$.m4s', 's-$Number%03d$.m4s'].map(isSegmentTemplate)).toEqual([true, true]);
    expect(['s.m4s', 's-$Number$-$Time$.m4s', 's-$Number$-$Number$.m4s', 's-$Number%5d$.m4s', 's-$RepresentationID$.m4s'].map(isSegmentTemplate)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  const where = `entry entries/${ID}.json (${ID})`;
  it.each<[string, (e: LibraryEntryJson) => void, string]>([
    ['a segment duration over 4 s', (e) => ((e.adaptive as Record<string, unknown>).segmentSeconds = 5), `${where}.adaptive.segmentSeconds: must be a number of seconds in (0, 4]`],
    ['a format segment duration of 0', (e) => (format(e, 1).segmentSeconds = 0), `${where}.adaptive.formats[1].segmentSeconds: must be a number of seconds in (0, 4]`],
    ['no formats', (e) => (e.adaptive.formats = []), `${where}.adaptive.formats: must be a list of at least one video and one audio format`],
    ['a format of no known kind', (e) => (format(e, 0).kind = 'text'), `${where}.adaptive.formats[0]: kind must be video or audio`],
    ['a video format without a quality', (e) => delete format(e, 0).quality, `${where}.adaptive.formats[0].quality: unknown quality undefined`],
    ['a video format of an unknown quality', (e) => (format(e, 0).quality = 'ultra'), 'unknown quality "ultra"'],
    ['a video format without a size', (e) => (format(e, 1).height = 0), `${where}.adaptive.formats[1]: width and height must be positive integers`],
    ['a bitrate of 0', (e) => (format(e, 2).bitrate = 0), `${where}.adaptive.formats[2].bitrate: must be a positive number of bits per second`],
    ['a type without codecs', (e) => (format(e, 0).mimeType = 'video/mp4'), `${where}.adaptive.formats[0].mimeType: must be video/<container>; codecs="…", not "video/mp4"`],
    ['an audio format of a video type', (e) => (format(e, 2).mimeType = 'video/mp4; codecs="mp4a.40.2"'), `${where}.adaptive.formats[2].mimeType: must be audio/`],
    ['a missing init file', (e) => (format(e, 0).init = `videos/${ID}/v1/h264/none.m4s`), `${where}.adaptive.formats[0].init: the file videos/${ID}/v1/h264/none.m4s does not exist (run \`npm run ingest\`)`],
    ['a template without $Number$', (e) => (format(e, 0).segments = `videos/${ID}/v1/h264/seg.m4s`), `${where}.adaptive.formats[0].segments: the template`],
    ['a template with another placeholder', (e) => (format(e, 0).segments = `videos/${ID}/v1/$Time$/seg-0-$Number%05d$.m4s`), 'must hold one $Number$ or $Number%0Nd$ and no other $'],
    ['a negative start number', (e) => (format(e, 0).startNumber = -1), `${where}.adaptive.formats[0].startNumber: must be a whole number ≥ 0`],
    ['a start number past the files', (e) => (format(e, 0).startNumber = 2), `${where}.adaptive.formats[0].segmentBytes[0]: is 100 but videos/${ID}/v1/h264/seg-0-00002.m4s has 101 bytes`],
    ['no segment sizes', (e) => (format(e, 3).segmentBytes = []), `${where}.adaptive.formats[3].segmentBytes: must list the size of every segment`],
    ['a stale segment size', (e) => ((format(e, 1).segmentBytes as number[])[1] = 999), `${where}.adaptive.formats[1].segmentBytes[1]: is 999 but videos/${ID}/v1/h264/seg-1-00002.m4s has 111 bytes`],
    ['one segment more than the files', (e) => (format(e, 4).segmentBytes as number[]).push(1), `${where}.adaptive.formats[4].segmentBytes[3]: the file videos/${ID}/v1/vp9/seg-4-4.webm does not exist`],
    ['a container without audio', (e) => e.adaptive.formats.splice(4, 1), `${where}.adaptive.formats: the webm formats need at least one video and one audio format`],
    ['a container without video', (e) => e.adaptive.formats.splice(0, 2), 'the mp4 formats need at least one video and one audio format'],
    ['a quality twice in one container', (e) => (format(e, 1).quality = 'tiny'), `${where}.adaptive.formats[1]: duplicate quality tiny in mp4`],
    ['no DASH manifest', (e) => ((e.adaptive as Record<string, unknown>).dash = {}), `${where}.adaptive.dash: must name a DASH manifest per codec family`],
    ['a missing DASH manifest', (e) => ((e.adaptive as Record<string, unknown>).dash = { h264: `videos/${ID}/v1/none.mpd` }), `${where}.adaptive.dash.h264: the file videos/${ID}/v1/none.mpd does not exist`],
    ['a missing HLS playlist', (e) => ((e.adaptive as Record<string, unknown>).hls = `videos/${ID}/v1/none.m3u8`), `${where}.adaptive.hls: the file videos/${ID}/v1/none.m3u8 does not exist`],
    ['a ladder that is not an object', (e) => ((e as Record<string, unknown>).adaptive = []), `${where}.adaptive: must be an object`],
    ['a missing storyboard sheet', (e) => ((storyboard(e).sheets as string[])[1] = `videos/${ID}/v1/none.jpg`), `${where}.storyboard.sheets[1]: the file videos/${ID}/v1/none.jpg does not exist`],
    ['no storyboard sheets', (e) => (storyboard(e).sheets = []), `${where}.storyboard.sheets: must list at least one sheet`],
    ['more thumbnails than the sheets hold', (e) => (storyboard(e).count = 5), `${where}.storyboard.count: 5 thumbnails do not fill 2 sheet(s) of 2×1`],
    ['an empty last sheet', (e) => (storyboard(e).count = 2), `${where}.storyboard.count: 2 thumbnails do not fill 2 sheet(s) of 2×1`],
    ['no columns', (e) => (storyboard(e).columns = 0), `${where}.storyboard: columns, rows, thumbWidth, thumbHeight and count must be positive integers`],
    ['no interval', (e) => (storyboard(e).intervalSeconds = -2), `${where}.storyboard.intervalSeconds: must be a positive number of seconds`],
    ['a file outside videos/', (e) => (e.poster = `entries/${ID}.json`), `${where}.poster: the file entries/${ID}.json must be under videos/ in the library`],
    ['a file outside the library', (e) => (e.poster = '../secret.jpg'), `${where}.poster: the file ../secret.jpg is outside the library`],
    ['a stale progressive size', (e) => ((e.renditions as Array<Record<string, unknown>>)[0]!.bytes = 1), 'bytes is 1 but videos/VFlib000001/v1/progressive.mp4 has 300 bytes (run `npm run ingest`)'],
    ['an id that is not the file name', (e) => (e.id = 'VFlib000002'), `entry entries/${ID}.json: the id VFlib000002 is not the file's name (${ID}.json)`],
  ])('%s is refused, naming the library, the entry and the field', (_name, change, message) => {
    expect(() => read(changed(change))).toThrow(message);
    expect(() => read(changed(change))).toThrow(`Library ${dir}, entry entries/${ID}.json`);
  });

  it('refuses an entry that is not JSON, or whose file name is not a video id', () => {
    expect(() => read('{nope')).toThrow(`Library ${dir}, entry entries/${ID}.json: not readable JSON`);
    expect(() => read(entry, 'not-an-id.json')).toThrow('entry entries/not-an-id.json: the file name must be the video id');
  });
});

describe('media/catalog.json', () => {
  it('takes an adaptive ladder and a storyboard too, relative to the media folder, and refuses a bad one the same way', () => {
    const catalog = (e: unknown) => {
      writeFileSync(join(dir, 'catalog.json'), JSON.stringify({ videos: [e] }));
      return loadCatalog(dir);
    };
    const video = catalog(entry).videos[0]!;
    expect(video.root).toBeUndefined();
    expect(video.adaptive!.formats).toHaveLength(5);
    expect(video.storyboard!.count).toBe(3);
    expect(() => catalog(changed((e) => (format(e, 0).segmentSeconds = 4.5)))).toThrow(
      `Catalogue ${join(dir, 'catalog.json')}, entry videos[0] (${ID}).adaptive.formats[0].segmentSeconds: must be a number of seconds in (0, 4]`,
    );
  });
});
