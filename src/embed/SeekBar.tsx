import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useObservable, useObservableEagerState } from 'observable-hooks';
import { distinctUntilChanged, map } from 'rxjs';
import { playbackTime } from '../../streams/player/viewInfo';
import { sameValue } from '../../streams/shared/sameValue';
import type { EmbedPlayer } from './EmbedPlayer';
import { durationInWords, seekSliderKey } from '../../streams/player/shortcutCommand';
import { formatTime } from './formatTime';

/**
 * The seek bar: a slider (role, value, text) over the played part and the buffered ranges; hovering shows the time
 * under the pointer; a click or a drag seeks (`allowSeekAhead` false while dragging, true on release). It follows the
 * WAI-ARIA slider pattern: ←/→/↑/↓ 5 s, PageDown/PageUp 10 s, Home/End the ends, without starting a cued video; its
 * value is whole seconds and its text says the same in words ("1 minute 5 seconds of 2 minutes").
 */
export function SeekBar({ player }: { player: EmbedPlayer }) {
  // The seek bar follows the time on its own subscription: only it re-renders on each `timeupdate`.
  const time$ = useObservable(() => player.info$.pipe(playbackTime()));
  const { currentTime, duration } = useObservableEagerState(time$);
  // The buffered ranges, rendered when they change (not on every media event: progress, volume, …).
  const buffered$ = useObservable(() =>
    player.media$.pipe(
      map((m) => m.buffered),
      distinctUntilChanged<readonly [number, number][]>(sameValue),
    ),
  );
  const buffered = useObservableEagerState(buffered$);
  const bar = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<{ x: number; time: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const known = duration > 0;
  const pct = (t: number) => `${known ? Math.min(100, Math.max(0, (t / duration) * 100)) : 0}%`;

  const timeAt = (clientX: number) => {
    const r = bar.current?.getBoundingClientRect();
    if (!r || r.width <= 0 || !known) return null;
    const x = Math.min(r.width, Math.max(0, clientX - r.left));
    return { x, time: (x / r.width) * duration };
  };
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
      aria-label="Seek"
      aria-valuemin={0}
      aria-valuemax={Math.floor(duration)}
      aria-valuenow={Math.floor(currentTime)}
      aria-valuetext={`${durationInWords(currentTime)} of ${durationInWords(duration)}`}
      data-dragging={dragging || undefined}
      onKeyDown={(e: KeyboardEvent<HTMLDivElement>) => {
        if (e.ctrlKey || e.metaKey || e.altKey || !known) return;
        const command = seekSliderKey(e.key, currentTime, duration);
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
      <div className="vf-seek-track">
        {buffered.map(([s, e]) => (
          <div key={`${s}-${e}`} className="vf-seek-buffered" style={{ left: pct(s), width: `calc(${pct(e)} - ${pct(s)})` }} />
        ))}
        <div className="vf-seek-played" style={{ width: pct(currentTime) }} />
        <div className="vf-seek-thumb" style={{ left: pct(currentTime) }} />
      </div>
      {hover && (
        <div className="vf-seek-hover" style={{ left: hover.x }} aria-hidden="true">
          {formatTime(hover.time)}
        </div>
      )}
    </div>
  );
}
