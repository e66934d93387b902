import { distinctUntilChanged, map, type OperatorFunction } from 'rxjs';
import type { ChapterInfo, PlayerResponse } from '../config/playerConfig';
import { durationInWords } from './shortcutCommand';

/** A chapter as the player uses it: its title and where it starts, in seconds. */
export interface Chapter {
  title: string;
  start: number;
}

/** A chapter's part of the seek bar: `from` and `to` are fractions of the duration (0…1), `to` the next one's `from`. */
export interface ChapterSegment extends Chapter {
  from: number;
  to: number;
}

/**
 * The chapters of a response, in seconds: only those that can be shown — a title, a finite start, each after the one
 * before it; the first at 0. A response whose chapters break that (another server, a hand-written fixture) has none
 * rather than a bar that lies. Fewer than two chapters are none: one section is the whole video.
 */
export function chaptersOf(response: Pick<PlayerResponse, 'chapters'> | null | undefined): Chapter[] {
  const raw: readonly ChapterInfo[] = response?.chapters ?? [];
  const chapters = raw.map((c) => ({ title: c.title.trim(), start: c.timeRangeStartMillis / 1000 }));
  const valid = chapters.every((c, i) => c.title !== '' && Number.isFinite(c.start) && (i === 0 ? c.start === 0 : c.start > chapters[i - 1]!.start));
  return valid && chapters.length >= 2 ? chapters : [];
}

/**
 * The chapter playing at `t` seconds: the last one that starts at or before it (the first before the first start);
 * null without chapters or for a time that is not a number.
 */
export function chapterAt(chapters: readonly Chapter[], t: number): Chapter | null {
  if (chapters.length === 0 || Number.isNaN(t)) return null;
  let found = chapters[0]!;
  for (const c of chapters) {
    if (c.start > t) break;
    found = c;
  }
  return found;
}

/**
 * The chapters' parts of a bar for a video `duration` seconds long, left to right: each from its start to the next
 * one's (the last to the end). Chapters that start at or past the end are left out (the media may be shorter than the
 * catalogue said). None while the duration is unknown (0 or not finite): the bar is one piece then.
 */
export function chapterSegments(chapters: readonly Chapter[], duration: number): ChapterSegment[] {
  if (!(duration > 0) || !Number.isFinite(duration)) return [];
  const inside = chapters.filter((c) => c.start < duration);
  if (inside.length < 2) return [];
  return inside.map((c, i) => ({ ...c, from: c.start / duration, to: i + 1 < inside.length ? inside[i + 1]!.start / duration : 1 }));
}

/**
 * The seek slider's value text: the time and the duration in words, then the chapter playing when the video has
 * chapters ("4 seconds of 12 seconds, Chapter: The horizon"). The English words of the chapter views live here, in
 * one place, for their translation.
 */
export function seekValueText(currentTime: number, duration: number, chapter: Chapter | null): string {
  const time = `${durationInWords(currentTime)} of ${durationInWords(duration)}`;
  return chapter ? `${time}, Chapter: ${chapter.title}` : time;
}

/** What the seek slider says: its value (whole seconds) and its text. */
export interface SliderValue {
  now: number;
  text: string;
}

/**
 * The seek slider's value and text from the playback times: passed on when the whole second, the duration or the
 * chapter playing changes (a chapter may start within a second), not on every tick. `text` says it (English by
 * default; the views pass the interface language's).
 *
 * ```
 * chapters: [0 s A, 4.5 s B], duration 12
 * time:     -0.2-0.7-1.1-4.2-4.6-
 * result:   -a-------b---c---d---   a: 0 "0 seconds of 12 seconds, Chapter: A", b: 1, c: 4, d: 4 "…, Chapter: B"
 * ```
 */
export const sliderValue =
  (chapters: readonly Chapter[], text: typeof seekValueText = seekValueText): OperatorFunction<{ currentTime: number; duration: number }, SliderValue> =>
  (time$) =>
    time$.pipe(
      distinctUntilChanged(
        (a, b) =>
          Math.floor(a.currentTime) === Math.floor(b.currentTime) &&
          a.duration === b.duration &&
          chapterAt(chapters, a.currentTime) === chapterAt(chapters, b.currentTime),
      ),
      map(({ currentTime, duration }) => ({
        now: Math.floor(currentTime),
        text: text(currentTime, duration, chapterAt(chapters, currentTime)),
      })),
    );

/**
 * The title of the chapter playing, from the playback times: passed on only when it changes (a chapter lasts seconds
 * or minutes; the time ticks several times a second). `''` without chapters.
 *
 * ```
 * chapters: [0 s A, 4 s B]
 * time:     -0-1-3-4-5-2-
 * result:   -A-----B---A-
 * ```
 */
export const chapterTitle =
  (chapters: readonly Chapter[]): OperatorFunction<{ currentTime: number }, string> =>
  (time$) =>
    time$.pipe(
      map(({ currentTime }) => chapterAt(chapters, currentTime)?.title ?? ''),
      distinctUntilChanged(),
    );
