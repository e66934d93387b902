import { createTestScheduler } from '../../helpers/testScheduler';
import { chapterAt, chapterSegments, chapterTitle, chaptersOf, seekValueText, sliderValue, type Chapter } from '../../../streams/player/chapters';

const A: Chapter = { title: 'Before dawn', start: 0 };
const B: Chapter = { title: 'The horizon', start: 4 };
const C: Chapter = { title: 'Full light', start: 8 };
const chapters = [A, B, C];
const fromResponse = (list: [string, number][]) => ({ chapters: list.map(([title, timeRangeStartMillis]) => ({ title, timeRangeStartMillis })) });

describe('chaptersOf', () => {
  it('reads a response’s chapters in seconds, titles trimmed', () => {
    expect(
      chaptersOf(
        fromResponse([
          [' Before dawn ', 0],
          ['The horizon', 4000],
          ['Full light', 8000],
        ]),
      ),
    ).toEqual(chapters);
    expect(
      chaptersOf(
        fromResponse([
          ['a', 0],
          ['b', 1500],
        ]),
      ),
    ).toEqual([
      { title: 'a', start: 0 },
      { title: 'b', start: 1.5 },
    ]);
  });

  it('has none without chapters, with one, or with chapters it cannot show (no title, not from 0, out of order)', () => {
    expect(chaptersOf(null)).toEqual([]);
    expect(chaptersOf({})).toEqual([]);
    expect(chaptersOf(fromResponse([['all', 0]]))).toEqual([]);
    expect(
      chaptersOf(
        fromResponse([
          ['a', 0],
          [' ', 4000],
        ]),
      ),
    ).toEqual([]);
    expect(
      chaptersOf(
        fromResponse([
          ['a', 1000],
          ['b', 4000],
        ]),
      ),
    ).toEqual([]);
    expect(
      chaptersOf(
        fromResponse([
          ['a', 0],
          ['b', 4000],
          ['c', 4000],
        ]),
      ),
    ).toEqual([]);
    expect(
      chaptersOf(
        fromResponse([
          ['a', 0],
          ['b', NaN],
        ]),
      ),
    ).toEqual([]);
  });
});

describe('chapterAt', () => {
  it('is the last chapter starting at or before the time; the first before it; null without chapters', () => {
    expect([0, 3.99, 4, 7.5, 8, 100].map((t) => chapterAt(chapters, t)?.title)).toEqual([
      'Before dawn',
      'Before dawn',
      'The horizon',
      'The horizon',
      'Full light',
      'Full light',
    ]);
    expect(chapterAt(chapters, -1)).toBe(A);
    expect(chapterAt([], 3)).toBeNull();
    expect(chapterAt(chapters, NaN)).toBeNull();
  });
});

describe('chapterSegments', () => {
  it('gives each chapter its fraction of the duration, up to the next one’s start (the last to the end)', () => {
    expect(chapterSegments(chapters, 12).map(({ from, to }) => [from, to])).toEqual([
      [0, 4 / 12],
      [4 / 12, 8 / 12],
      [8 / 12, 1],
    ]);
  });

  it('leaves out chapters at or past the end; none while the duration is unknown or with one chapter left', () => {
    expect(chapterSegments(chapters, 8.5).map((s) => s.title)).toEqual(['Before dawn', 'The horizon', 'Full light']);
    expect(chapterSegments(chapters, 8).map((s) => s.title)).toEqual(['Before dawn', 'The horizon']);
    expect(chapterSegments(chapters, 4)).toEqual([]);
    expect(chapterSegments(chapters, 0)).toEqual([]);
    expect(chapterSegments(chapters, NaN)).toEqual([]);
    expect(chapterSegments(chapters, Infinity)).toEqual([]);
  });
});

describe('seekValueText', () => {
  it('says the time and the duration in words, then the chapter when there is one', () => {
    expect(seekValueText(4.6, 12, B)).toBe('4 seconds of 12 seconds, Chapter: The horizon');
    expect(seekValueText(65, 130, null)).toBe('1 minute 5 seconds of 2 minutes 10 seconds');
  });
});

describe('the chapter streams', () => {
  it('chapterTitle passes the chapter playing on when it changes, not with every tick', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const ticks$ = cold('a-b-c-d-e-f-g|', {
        a: { currentTime: 0 },
        b: { currentTime: 1 },
        c: { currentTime: 3.9 },
        d: { currentTime: 4 },
        e: { currentTime: 5 },
        f: { currentTime: 2 },
        g: { currentTime: 9 },
      });
      expectObservable(ticks$.pipe(chapterTitle(chapters))).toBe('a-----d---f-g|', { a: 'Before dawn', d: 'The horizon', f: 'Before dawn', g: 'Full light' });
      expectObservable(ticks$.pipe(chapterTitle([]))).toBe('a------------|', { a: '' });
    });
  });

  it('sliderValue passes the value and its text on when the whole second, the duration or the chapter changes', () => {
    const halfway = [A, { title: 'Mid', start: 4.5 }];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const ticks$ = cold('a-b-c-d-e-f|', {
        a: { currentTime: 0.2, duration: 12 },
        b: { currentTime: 0.7, duration: 12 },
        c: { currentTime: 1.1, duration: 12 },
        d: { currentTime: 4.2, duration: 12 },
        e: { currentTime: 4.6, duration: 12 },
        f: { currentTime: 4.8, duration: 12 },
      });
      expectObservable(ticks$.pipe(sliderValue(halfway))).toBe('a---c-d-e--|', {
        a: { now: 0, text: '0 seconds of 12 seconds, Chapter: Before dawn' },
        c: { now: 1, text: '1 second of 12 seconds, Chapter: Before dawn' },
        d: { now: 4, text: '4 seconds of 12 seconds, Chapter: Before dawn' },
        e: { now: 4, text: '4 seconds of 12 seconds, Chapter: Mid' },
      });
      expectObservable(ticks$.pipe(sliderValue([]))).toBe('a---c-d----|', {
        a: { now: 0, text: '0 seconds of 12 seconds' },
        c: { now: 1, text: '1 second of 12 seconds' },
        d: { now: 4, text: '4 seconds of 12 seconds' },
      });
    });
  });
});
