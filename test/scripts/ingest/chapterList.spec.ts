import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildEntry, formatEntry, type EntryInput } from '../../../scripts/ingest/buildEntry';
import { parseChapterList, readChapterList } from '../../../scripts/ingest/chapterList';
import { parseIngestArgs } from '../../../scripts/ingest/ingestArgs';
import { EXIT } from '../../../scripts/ingest/ingestErrors';

describe('parseChapterList: a chapter a line, as a YouTube description lists them', () => {
  it('reads m:ss, mm:ss and h:mm:ss starts (with a fraction) and the titles after them; skips blank lines', () => {
    expect(parseChapterList('\uFEFF0:00 Intro\r\n\n1:05   The first part \n12:30.5 Middle\n1:02:03 The last part\n')).toEqual([
      { title: 'Intro', startSeconds: 0 },
      { title: 'The first part', startSeconds: 65 },
      { title: 'Middle', startSeconds: 750.5 },
      { title: 'The last part', startSeconds: 3723 },
    ]);
  });

  it('names the first line that is not a chapter', () => {
    expect(parseChapterList('0:00 Intro\nIntro again')).toEqual({ error: 'line 2 is not "<m:ss or h:mm:ss> <title>": "Intro again"' });
    expect(parseChapterList('0:00 Intro\n0:75 Late')).toEqual({ error: 'line 2: the seconds of 0:75 are 60 or more' });
    expect(parseChapterList('0:00 Intro\n1:75:00 Late')).toEqual({ error: 'line 2: the minutes of 1:75:00 are over 59' });
    expect(parseChapterList('0:00')).toEqual({ error: 'line 1 is not "<m:ss or h:mm:ss> <title>": "0:00"' });
  });
});

describe('readChapterList checks the list as the catalogue does', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'vidframe-chapter-list-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const file = (text: string) => {
    const path = join(dir, 'chapters.txt');
    writeFileSync(path, text);
    return path;
  };

  it('returns the chapters of a good list', async () => {
    await expect(readChapterList(file('0:00 Intro\n0:04 Next'), 10)).resolves.toEqual([
      { title: 'Intro', startSeconds: 0 },
      { title: 'Next', startSeconds: 4 },
    ]);
  });

  it.each([
    ['a start past the end', '0:00 Intro\n0:12 Late', 'chapters[1]: startSeconds 12 must be before the end of the video (10)'],
    ['a first chapter after 0:00', '0:01 Intro\n0:04 Next', 'chapters[0]: the first chapter must start at 0'],
    ['starts out of order', '0:00 Intro\n0:06 B\n0:04 C', 'chapters[2]: startSeconds 4 must be after the chapter before it (6)'],
    ['a single chapter', '0:00 All', 'a video has 2 to 100 chapters (got 1)'],
    ['a line that is not a chapter', '0:00 Intro\nhello', 'line 2 is not'],
  ])('refuses %s with exit 2, naming the file', async (_name, text, message) => {
    const path = file(text);
    const refusal = readChapterList(path, 10);
    await expect(refusal).rejects.toMatchObject({ code: EXIT.BAD_ARGUMENTS });
    await expect(readChapterList(path, 10)).rejects.toThrow(`--chapters ${path}: `);
    await expect(readChapterList(path, 10)).rejects.toThrow(message);
  });

  it('refuses a file it cannot read', async () => {
    await expect(readChapterList(join(dir, 'none.txt'), 10)).rejects.toMatchObject({
      code: EXIT.BAD_ARGUMENTS,
      message: expect.stringContaining('cannot be read (ENOENT)'),
    });
  });
});

describe('--chapters on the command line and in the entry', () => {
  it('is an option naming a file', () => {
    expect(parseIngestArgs(['a.mp4', '--chapters', 'c.txt'], {}, false)).toMatchObject({ kind: 'run', options: { chapters: 'c.txt' } });
    expect(parseIngestArgs(['a.mp4', '--chapters= '], {}, false)).toEqual({ kind: 'error', message: '--chapters must name a file' });
    expect(parseIngestArgs(['a.mp4'], {}, false)).toMatchObject({ kind: 'run', options: expect.not.objectContaining({ chapters: expect.anything() }) });
  });

  it('puts the chapters in the entry after embeddable, one line, as media/catalog.json has them; none without', () => {
    const input: EntryInput = {
      id: 'VFtest00001',
      title: 'T',
      author: 'A',
      channelId: 'UCauthorA000000000000000',
      durationSeconds: 10,
      base: 'videos/VFtest00001/v1',
      families: [],
      progressive: { quality: 'small', width: 426, height: 240, file: 'progressive.mp4', codecs: 'avc1.42c01e, mp4a.40.2', bytes: 1 },
      storyboard: { sheets: [], intervalSeconds: 1, columns: 1, rows: 1, thumbWidth: 1, thumbHeight: 1, count: 0 },
      poster: 'poster.jpg',
      hls: 'master.m3u8',
      segmentSeconds: 2,
    };
    const chapters = [
      { title: 'Intro', startSeconds: 0 },
      { title: 'Next', startSeconds: 4 },
    ];
    const text = formatEntry(buildEntry({ ...input, chapters }));
    expect(text).toContain(
      '  "embeddable": true,\n  "chapters": [{ "title": "Intro", "startSeconds": 0 }, { "title": "Next", "startSeconds": 4 }],\n  "poster"',
    );
    expect(buildEntry(input)).not.toHaveProperty('chapters');
  });
});
