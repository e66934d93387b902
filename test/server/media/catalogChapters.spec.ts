import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findVideo, loadCatalog } from '../../../server/media/catalog';
import { MAX_CHAPTER_TITLE_CHARS, MAX_CHAPTERS } from '../../../server/media/catalogChecks';
import { playerResponseFor } from '../../../server/media/playerResponse';

const mediaDir = resolve(__dirname, '../../../media');

describe('chapters in the sample catalogue and the player response', () => {
  const catalog = loadCatalog(mediaDir);

  it('VFsunrise01 has three chapters; the player response carries them as chapterRenderer does (title, start in ms)', () => {
    expect(findVideo(catalog, 'VFsunrise01')!.chapters).toEqual([
      { title: 'Before dawn', startSeconds: 0 },
      { title: 'The horizon', startSeconds: 4 },
      { title: 'Full light', startSeconds: 8 },
    ]);
    expect(playerResponseFor(catalog, 'VFsunrise01').chapters).toEqual([
      { title: 'Before dawn', timeRangeStartMillis: 0 },
      { title: 'The horizon', timeRangeStartMillis: 4000 },
      { title: 'Full light', timeRangeStartMillis: 8000 },
    ]);
  });

  it('a video without chapters has none in its entry or its response', () => {
    expect(findVideo(catalog, 'VFcitylight')).not.toHaveProperty('chapters');
    expect(playerResponseFor(catalog, 'VFcitylight')).not.toHaveProperty('chapters');
  });
});

describe('loadCatalog checks chapters and refuses bad ones with a clear error', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vidframe-chapters-'));
    mkdirSync(join(dir, 'videos'));
    writeFileSync(join(dir, 'videos/a.webm'), 'x');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (chapters: unknown) =>
    writeFileSync(
      join(dir, 'catalog.json'),
      JSON.stringify({
        videos: [
          {
            id: 'VFtest00001',
            title: 'T',
            author: 'A',
            channelId: 'UCauthorA000000000000000',
            durationSeconds: 12,
            renditions: [{ quality: 'small', width: 1, height: 1, file: 'videos/a.webm', mimeType: 'video/webm', bytes: 1 }],
            chapters,
          },
        ],
      }),
    );
  const chapter = (title: unknown, startSeconds: unknown) => ({ title, startSeconds });

  it('keeps good chapters, titles trimmed and only their two fields', () => {
    write([{ ...chapter(' Intro ', 0), extra: 1 }, chapter('Middle', 4.5), chapter('End', 11.9)]);
    expect(loadCatalog(dir).videos[0]!.chapters).toEqual([chapter('Intro', 0), chapter('Middle', 4.5), chapter('End', 11.9)]);
  });

  it.each([
    ['not a list', { title: 'x' }, 'chapters: chapters must be a list'],
    ['one chapter', [chapter('All', 0)], 'a video has 2 to 100 chapters (got 1)'],
    ['too many', Array.from({ length: MAX_CHAPTERS + 1 }, (_, i) => chapter(`C${i}`, i / 10)), `2 to ${MAX_CHAPTERS} chapters`],
    ['a chapter that is not an object', [chapter('A', 0), 'B'], 'chapters[1]: a chapter must be an object'],
    ['an empty title', [chapter('A', 0), chapter('  ', 4)], 'chapters[1]: the title must be 1 to'],
    ['a title too long', [chapter('A', 0), chapter('x'.repeat(MAX_CHAPTER_TITLE_CHARS + 1), 4)], `1 to ${MAX_CHAPTER_TITLE_CHARS} characters`],
    ['a title with a line break', [chapter('A', 0), chapter('B\nC', 4)], 'without control characters'],
    ['a start that is not a number', [chapter('A', 0), chapter('B', '4')], 'chapters[1]: startSeconds must be a number'],
    ['a first chapter after 0', [chapter('A', 1), chapter('B', 4)], 'chapters[0]: the first chapter must start at 0'],
    ['starts out of order', [chapter('A', 0), chapter('B', 6), chapter('C', 4)], 'chapters[2]: startSeconds 4 must be after the chapter before it (6)'],
    ['two chapters at one time', [chapter('A', 0), chapter('B', 4), chapter('C', 4)], 'must be after the chapter before it'],
    ['a start at the end', [chapter('A', 0), chapter('B', 12)], 'chapters[1]: startSeconds 12 must be before the end of the video (12)'],
  ])('%s', (_name, chapters, message) => {
    write(chapters);
    expect(() => loadCatalog(dir)).toThrow(message);
    expect(() => loadCatalog(dir)).toThrow('videos[0] (VFtest00001).chapters');
  });
});
