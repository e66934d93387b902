import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useLayoutObservable, useLayoutSubscription, useObservable, useObservableEagerState } from 'observable-hooks';
import { distinctUntilChanged, map, switchMap } from 'rxjs';
import { chapterAt, type Chapter } from '../../../streams/player/chapters';
import { playbackTime, whileShown, type PlaybackTime } from '../../../streams/player/viewInfo';
import { sameValue } from '../../../streams/shared/sameValue';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import { seekSliderKey } from '../../../streams/player/shortcutCommand';
import { storyboardFrame } from '../../../streams/player/storyboardFrame';
import { chapterTrack, useSliderChapters } from './Chapters';
import { formatTime } from '../../../streams/shared/formatTime';
import { useI18n } from '../i18n/I18nContext';

/** Where `t` is along the bar, as a CSS percentage (0% while the duration is unknown); 3 decimals: finer than a pixel. */
const playedPct = (t: number, duration: number) => `${duration > 0 ? Math.round(Math.min(100, Math.max(0, (t / duration) * 100)) * 1000) / 1000 : 0}%`;

/**
 * The time under the pointer at `clientX` on `bar` (null before it has a width), and where that is: `x` from the bar's
 * left edge (the preview's place). The time counts from the bar's start: its right edge in a right-to-left interface.
 */
function pointerTime(bar: HTMLElement | null, clientX: number, duration: number, dir: 'ltr' | 'rtl') {
  const r = bar?.getBoundingClientRect();
  if (!r || r.width <= 0) return null;
  const x = Math.min(r.width, Math.max(0, clientX - r.left));
  return { x, time: ((dir === 'rtl' ? r.width - x : x) / r.width) * duration, width: r.width };
}

/**
 * The seek bar: a slider (role, value, text) over the played part and the buffered ranges; hovering shows the time
 * under the pointer; a click or a drag seeks (`allowSeekAhead` false while dragging, true on release). It follows the
 * WAI-ARIA slider pattern: ←/→/↑/↓ 5 s, PageDown/PageUp 10 s, Home/End the ends, without starting a cued video; its
 * value is whole seconds and its text says the same in words ("1 minute 5 seconds of 2 minutes"), in the interface's
 * language. A video with chapters has its bar cut into the chapters' parts, its text names the chapter playing, and
 * hovering names the one under the pointer. In a right-to-left interface the bar runs from the right (its track is
 * mirrored by rtl.css, the pointer's time read from the right edge) and ← moves forward, → back: the arrows follow
 * the direction the bar fills, as a native range input's do.
 */
export function SeekBar({ player, shown = true }: { player: EmbedPlayer; shown?: boolean }) {
  // While the bar can be seen: the snapshots as they come. While it is auto-hidden, the latest one only: its played
  // part does not move, nobody would see it; it catches up before the paint that shows it again.
  const info$ = useLayoutObservable((inputs$) => inputs$.pipe(switchMap(([on]) => whileShown(player.info$, on))), [shown]);
  // What the slider says (its value, its text) is whole seconds: it changes about once a second while playing — also
  // while the bar is hidden, which is only transparent: a screen reader still reads it (in browse mode without moving
  // focus), and it must not read a time long past. Like the played part and the thumb, it is written straight to the
  // slider by its own subscription, not by a render of the bar (no render of the seek bar once a second for two
  // attributes); React never sets them, so no render puts an old value back. The bar renders when the duration
  // changes (its maximum, the pointer's time).
  const bar = useRef<HTMLDivElement>(null);
  const i18n = useI18n();
  const chapters = useSliderChapters(player, bar);
  const duration$ = useObservable(() =>
    player.info$.pipe(
      map((i) => i.duration),
      distinctUntilChanged(Object.is),
    ),
  );
  const duration = useObservableEagerState(duration$);
  const time$ = useObservable(() => info$.pipe(playbackTime()));
  // The exact time, for the keys (5 s from now, not from the whole second shown) and for the next style write.
  const exact = useRef<PlaybackTime>({ currentTime: 0, duration: 0 });
  const played = useRef<HTMLDivElement>(null);
  const thumb = useRef<HTMLDivElement>(null);
  const shownPct = useRef('');
  // A style write costs a style invalidation of the page: none while the bar is hidden (the ticks stop then, above).
  const movePlayed = () => {
    const at = playedPct(exact.current.currentTime, exact.current.duration);
    if (at === shownPct.current) return;
    shownPct.current = at;
    if (played.current) played.current.style.width = at;
    if (thumb.current) thumb.current.style.left = at;
  };
  useLayoutSubscription(time$, (t) => {
    exact.current = t;
    movePlayed();
  });
  // After every render: the control bar may have just been shown.
  useLayoutEffect(movePlayed);
  // The buffered ranges, rendered when they change (not on every media event: progress, volume, …).
  const media$ = useLayoutObservable((inputs$) => inputs$.pipe(switchMap(([on]) => whileShown(player.media$, on))), [shown]);
  const buffered$ = useObservable(() =>
    media$.pipe(
      map((m) => m.buffered),
      distinctUntilChanged<readonly [number, number][]>(sameValue),
    ),
  );
  const buffered = useObservableEagerState(buffered$);
  // The video's seek-preview sheets (none for a video without a storyboard).
  const storyboard$ = useObservable(() =>
    player.model$.pipe(
      map((m) => m.response?.storyboard ?? null),
      distinctUntilChanged(),
    ),
  );
  const storyboard = useObservableEagerState(storyboard$);
  const [hover, setHover] = useState<{ x: number; time: number; width: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const known = duration > 0;
  const pct = (t: number) => playedPct(t, duration);

  const timeAt = (clientX: number) => (known ? pointerTime(bar.current, clientX, duration, i18n.dir) : null);
  const seek = (clientX: number, allowSeekAhead: boolean) => {
    const at = timeAt(clientX);
    if (at) player.command({ type: 'seek', seconds: at.time, allowSeekAhead });
  };

  return (
    <div
      ref={bar}
      className="vf-seek"
      role="slider"
      tabIndex={0}
      aria-label={i18n.t('seek')}
      aria-valuemin={0}
      aria-valuemax={Math.floor(duration)}
      data-dragging={dragging || undefined}
      onKeyDown={(e: KeyboardEvent<HTMLDivElement>) => {
        if (e.ctrlKey || e.metaKey || e.altKey || !known) return;
        const command = seekSliderKey(e.key, exact.current.currentTime, duration, i18n.dir);
        if (!command) return;
        e.preventDefault();
        e.stopPropagation();
        player.command(command);
      }}
      onPointerDown={(e: PointerEvent<HTMLDivElement>) => {
        e.currentTarget.setPointerCapture?.(e.pointerId);
        setDragging(true);
        seek(e.clientX, false);
      }}
      onPointerMove={(e: PointerEvent<HTMLDivElement>) => {
        setHover(timeAt(e.clientX));
        if (dragging) seek(e.clientX, false);
      }}
      onPointerUp={(e: PointerEvent<HTMLDivElement>) => {
        if (dragging) seek(e.clientX, true);
        setDragging(false);
      }}
      onPointerLeave={() => setHover(null)}
    >
      <div className="vf-seek-track" {...chapterTrack(chapters, duration)}>
        <div className="vf-seek-fill">
          {/* Keyed by position: a range that grows (each `progress` while loading) updates its bar, not a new one. */}
          {buffered.map(([s, e], i) => (
            <div key={i} className="vf-seek-buffered" style={{ left: pct(s), width: `calc(${pct(e)} - ${pct(s)})` }} />
          ))}
          {/* Its position is written by the time subscription above; React never sets it, so no render moves it back. */}
          <div ref={played} className="vf-seek-played" />
        </div>
        <div ref={thumb} className="vf-seek-thumb" />
      </div>
      {hover && <SeekPreview hover={hover} frame={storyboardFrame(storyboard, hover.time)} chapter={chapterAt(chapters, hover.time)} />}
    </div>
  );
}

/**
 * What hovering shows above the pointer: the storyboard thumbnail of that time (when the video has one), the chapter
 * there (when the video has chapters) and the time. A thumbnail stays whole inside the bar: near an end it stops
 * following the pointer.
 */
function SeekPreview({
  hover,
  frame,
  chapter,
}: {
  hover: { x: number; time: number; width: number };
  frame: ReturnType<typeof storyboardFrame>;
  chapter: Chapter | null;
}) {
  const half = frame ? frame.w / 2 : 0;
  const left = frame && hover.width > frame.w ? Math.min(hover.width - half, Math.max(half, hover.x)) : hover.x;
  return (
    <div className="vf-seek-hover" style={{ left }} aria-hidden="true">
      <StoryboardThumb frame={frame} />
      {chapter && <div className="vf-seek-chapter">{chapter.title}</div>}
      {formatTime(hover.time)}
    </div>
  );
}

/** The seek preview's picture: the sheet as a background, shifted so that the one thumbnail shows. */
function StoryboardThumb({ frame }: { frame: ReturnType<typeof storyboardFrame> }) {
  if (!frame) return null;
  return (
    <div
      className="vf-seek-thumbnail"
      style={{
        width: frame.w,
        height: frame.h,
        backgroundImage: `url(${JSON.stringify(frame.sheetUrl)})`,
        backgroundPosition: `${-frame.x}px ${-frame.y}px`,
      }}
    />
  );
}
