import { useObservable, useObservableEagerState, useObservableState } from 'observable-hooks';
import { distinctUntilChanged, map, switchMap, type Observable } from 'rxjs';
import { type Chapter, type ChapterSegment, chapterTitle, chaptersOf } from '../../../streams/player/chapters';
import { sameValue } from '../../../streams/shared/sameValue';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import './chapters.css';

/** The loaded video's chapters ([] without), passed on when they change (another video). */
export const chapters$Of = (player: EmbedPlayer): Observable<Chapter[]> =>
  player.model$.pipe(
    map((m) => chaptersOf(m.response)),
    distinctUntilChanged<Chapter[]>(sameValue),
  );

/** The loaded video's chapters, as state ([] without). */
export function useChapters(player: EmbedPlayer): Chapter[] {
  const chapters$ = useObservable(() => chapters$Of(player));
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

/**
 * The title of the chapter playing, after the time ("0:05 / 0:12 · The horizon"): text, not a control. Nothing for a
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
