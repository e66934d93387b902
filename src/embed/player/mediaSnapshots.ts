import { EMPTY, fromEvent, map, merge, Observable, scan, shareReplay, type BehaviorSubject } from 'rxjs';
import { EMPTY_MEDIA_SNAPSHOT, type MediaSnapshot } from '../../../streams/player/playerInfo';

/** The element's box on the page (`videoContentRect`). */
export const readBox = (el: HTMLVideoElement): MediaSnapshot['box'] => {
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
};

/**
 * The buffered ranges as `[start, end]` pairs; the previous array itself when they are the same, so that a playback
 * tick compares them with one `===` (the seek bar and the snapshot diff read them on every tick).
 */
function readBuffered(ranges: TimeRanges, previous: MediaSnapshot['buffered'] | undefined): MediaSnapshot['buffered'] {
  const same =
    previous !== undefined && previous.length === ranges.length && previous.every(([start, end], i) => start === ranges.start(i) && end === ranges.end(i));
  if (same) return previous;
  const buffered: [number, number][] = [];
  for (let i = 0; i < ranges.length; i++) buffered.push([ranges.start(i), ranges.end(i)]);
  return buffered;
}

/**
 * Reads the element into plain data for `buildPlayerInfo`. The box is read when the layout changes (`box`), not on
 * every media event: `getBoundingClientRect` forces a layout, several times a second while playing.
 */
export function readMediaSnapshot(el: HTMLVideoElement, box: MediaSnapshot['box'] = readBox(el), previous?: MediaSnapshot): MediaSnapshot {
  return {
    currentTime: el.currentTime,
    duration: el.duration,
    volume: el.volume,
    muted: el.muted,
    playbackRate: el.playbackRate,
    buffered: readBuffered(el.buffered, previous?.buffered),
    videoWidth: el.videoWidth,
    videoHeight: el.videoHeight,
    box,
  };
}

/** Each change of the element's layout (its size, or the window's where `ResizeObserver` is missing). */
export function layoutChanges$(el: HTMLVideoElement): Observable<void> {
  const win = el.ownerDocument.defaultView;
  if (!win) return EMPTY;
  if (typeof win.ResizeObserver === 'function') {
    // Hand-written: the edge to `ResizeObserver`, disconnected on unsubscription.
    return new Observable<void>((sub) => {
      const ro = new win.ResizeObserver(() => sub.next());
      ro.observe(el);
      return () => ro.disconnect();
    });
  }
  return fromEvent(win, 'resize').pipe(map(() => undefined));
}

export interface MediaSnapshotSources {
  /** The mounted element (null: none, the empty snapshot). A new element is a layout change. */
  element$: BehaviorSubject<HTMLVideoElement | null>;
  /** What may have changed what the element says: its events, a seek target that came or went. */
  changes$: Observable<unknown>;
  /** The layout changes of the mounted element. */
  layout$: Observable<unknown>;
  /** The target of a seek the element cannot take yet (the model's `seek.target`), or null. */
  seekTarget: () => number | null;
}

/**
 * What the element says, hot, replaying the latest: read again at each change, its box only at a layout change or a
 * new element. While a seek waits for the element's metadata, its target is the time, so that a host hears of its
 * seek at once.
 */
export function mediaSnapshots$({ element$, changes$, layout$, seekTarget }: MediaSnapshotSources): Observable<MediaSnapshot> {
  return merge(changes$.pipe(map(() => false)), layout$.pipe(map(() => true)), element$.pipe(map(() => true))).pipe(
    scan<boolean, MediaSnapshot, undefined>((last, layoutChanged) => {
      const el = element$.value;
      if (!el) return EMPTY_MEDIA_SNAPSHOT;
      const snapshot = readMediaSnapshot(el, layoutChanged || last === undefined ? readBox(el) : last.box, last);
      const target = seekTarget();
      return target !== null && el.readyState < 1 ? { ...snapshot, currentTime: target } : snapshot;
    }, undefined),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
}
