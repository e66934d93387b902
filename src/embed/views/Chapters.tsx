import type { CSSProperties, RefObject } from 'react';
import { useLayoutSubscription, useObservable, useObservableEagerState, useObservableState } from 'observable-hooks';
import { distinctUntilChanged, map, switchMap, type Observable } from 'rxjs';
import { type Chapter, type ChapterSegment, type SliderValue, chapterSegments, chapterTitle, chaptersOf, sliderValue } from '../../../streams/player/chapters';
import { sameValue } from '../../../streams/shared/sameValue';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import { useI18n } from '../i18n/I18nContext';
import type { I18n } from '../i18n/translate';
import './chapters.css';

/** The seek slider's value text in the interface's language ("1 minute 5 seconds of 2 minutes, Chapter: Dawn"). */
export const seekValueIn =
  ({ t, duration }: I18n) =>
  (currentTime: number, total: number, chapter: Chapter | null): string => {
    const time = { current: duration(currentTime), total: duration(total) };
    return chapter ? t('seekValueChapter', { ...time, chapter: chapter.title }) : t('seekValue', time);
  };

/** The loaded video's chapters ([] without), passed on when they change (another video). */
export const chapters$Of = (player: EmbedPlayer): Observable<Chapter[]> =>
  player.model$.pipe(
    map((m) => chaptersOf(m.response)),
    distinctUntilChanged<Chapter[]>(sameValue),
  );

/**
 * The slider's value and its text in words in the interface's language ("1 minute 5 seconds of 2 minutes", then the
 * chapter playing when the video has chapters), written when the whole second or the chapter changes.
 */
function writeSliderValue(slider: HTMLElement | null, { now, text }: SliderValue): void {
  if (!slider) return;
  slider.setAttribute('aria-valuenow', String(now));
  slider.setAttribute('aria-valuetext', text);
}

/**
 * The seek bar's chapters, as state ([] without); meanwhile writes the slider's value and text to `slider` by their
 * own subscription, never by a render (the seek bar's comment says why).
 */
export function useSliderChapters(player: EmbedPlayer, slider: RefObject<HTMLElement | null>): Chapter[] {
  const i18n = useI18n();
  const chapters$ = useObservable(() => chapters$Of(player));
  const value$ = useObservable(() => chapters$.pipe(switchMap((list) => player.info$.pipe(sliderValue(list, seekValueIn(i18n))))));
  useLayoutSubscription(value$, (v) => writeSliderValue(slider.current, v));
  return useObservableEagerState(chapters$);
}

/** Half the see-through gap between two chapters' parts of the bar, in CSS pixels. */
const HALF_GAP_PX = 1;

/**
 * The mask that cuts the bar's fill (its track, buffered ranges and played part; not its thumb) into the chapters'
 * parts: opaque along each part, a see-through gap of two pixels at each boundary. Undefined without segments.
 */
export function chapterMask(segments: readonly ChapterSegment[]): string | undefined {
  if (segments.length < 2) return undefined;
  const stops = segments.slice(1).map((s) => {
    const at = `${Math.round(s.from * 100000) / 1000}%`;
    return `#000 calc(${at} - ${HALF_GAP_PX}px), transparent calc(${at} - ${HALF_GAP_PX}px) calc(${at} + ${HALF_GAP_PX}px), #000 calc(${at} + ${HALF_GAP_PX}px)`;
  });
  return `linear-gradient(to right, #000 0, ${stops.join(', ')} 100%)`;
}

/** The seek track's attributes for its chapters: marked, and the mask its fill takes (none without chapters). */
export function chapterTrack(chapters: readonly Chapter[], duration: number): { 'data-chapters'?: ''; style?: CSSProperties } {
  const mask = chapterMask(chapterSegments(chapters, duration));
  return mask ? { 'data-chapters': '', style: { '--vf-chapter-mask': mask } as CSSProperties } : {};
}

/**
 * The title of the chapter playing, after the time ("0:05 / 0:12 • The horizon"): text, not a control. Nothing for a
 * video without chapters. It renders when the chapter changes, not with the time.
 */
export function ChapterTitle({ player }: { player: EmbedPlayer }) {
  const title$ = useObservable(() => chapters$Of(player).pipe(switchMap((chapters) => player.info$.pipe(chapterTitle(chapters)))));
  const title = useObservableState(title$, '');
  if (title === '') return null;
  return (
    <span className="vf-chapter-title" title={title}>
      {title}
    </span>
  );
}
