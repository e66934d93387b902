import {
  concat,
  defer,
  EMPTY,
  exhaustMap,
  filter,
  ignoreElements,
  last,
  map,
  merge,
  type Observable,
  of,
  retry,
  type SchedulerLike,
  startWith,
  Subject,
  switchMap,
  take,
  takeWhile,
  tap,
  timer,
} from 'rxjs';
import type { AdaptiveFormat } from '../config/playerConfig';
import { ABR_BUFFER_GOAL_S, STREAM_RETRY_BASE_MS, STREAM_RETRY_MAX_MS } from '../timing';
import { segmentCount, segmentIndexAt, segmentStart, segmentUrl } from './segments';

/** What a segment request says as its bytes come: progress, then the whole body with its timing. */
export type FetchEvent =
  | { type: 'progress'; loaded: number; requestMs: number; firstByteMs: number; atMs: number }
  | { type: 'done'; data: ArrayBuffer; requestMs: number; firstByteMs: number; endMs: number };

/** A finished transfer's size and timing: what a bandwidth sample is made of (time to first byte kept apart). */
export interface Transfer {
  bytes: number;
  requestMs: number;
  firstByteMs: number;
  endMs: number;
}

/** What one track's loader reads and does: the element's playhead and buffer, the network, its `SourceBuffer`. */
export interface TrackPorts {
  currentTime(): number;
  /** Where the buffered range that holds `seconds` ends (`seconds` itself when none holds it). */
  bufferedEnd(seconds: number): number;
  /** GETs a URL; unsubscribing aborts it. Fails on a network error or a status other than 2xx. */
  fetch(url: string): Observable<FetchEvent>;
  /** Appends to the track's `SourceBuffer` through its queue; completes once appended. */
  append(data: ArrayBuffer): Observable<unknown>;
}

export type TrackEvent =
  | { type: 'init'; format: AdaptiveFormat }
  | { type: 'progress'; format: AdaptiveFormat; index: number; loaded: number; requestMs: number; firstByteMs: number; atMs: number }
  | { type: 'segment'; format: AdaptiveFormat; index: number; transfer: Transfer }
  | { type: 'abandoned'; format: AdaptiveFormat; index: number; transfer: Transfer }
  | { type: 'retry'; url: string; attempt: number; error: unknown }
  | { type: 'end' };

export interface TrackLoaderOptions {
  ports: TrackPorts;
  /** The rendition to fetch segment `index` in (the audio track's one format; the video's from the quality decision). */
  formatFor: (index: number) => AdaptiveFormat;
  /** Something changed that may let the loader fetch more (time went on, the decision changed, the network is back). */
  wake$: Observable<unknown>;
  /** A seek: what is in flight is dropped and loading goes on from the new position. */
  restart$: Observable<unknown>;
  /**
   * A time in seconds: what is in flight is dropped and the segments from the one holding that time on are fetched
   * again (each in the rendition `formatFor` then says), each appended over the one buffered, up to the goal. Nothing
   * buffered is removed: until a segment is replaced, the old one still plays.
   */
  replace$?: Observable<number>;
  /** Whether the network is up (the network-status stream): a failed request waits for it before its retry. */
  online$: Observable<boolean>;
  /** Asked at each progress of a request: `true` drops it (it would arrive too late) and the loader plans again. */
  abandon?: (progress: Extract<TrackEvent, { type: 'progress' }>) => boolean;
  goalSeconds?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  scheduler?: SchedulerLike;
}

/** Retries a failed request after a doubling delay, once the network is up, saying each retry on `retries$`. */
function retrying(
  retries$: Subject<TrackEvent>,
  online$: Observable<boolean>,
  { retryBaseMs, retryMaxMs, scheduler }: { retryBaseMs: number; retryMaxMs: number; scheduler?: SchedulerLike },
) {
  return <T>(work: Observable<T>, url: string): Observable<T> =>
    work.pipe(
      retry({
        delay: (error: unknown, attempt: number) => {
          retries$.next({ type: 'retry', url, attempt, error });
          const wait = Math.min(retryBaseMs * 2 ** (attempt - 1), retryMaxMs);
          return online$.pipe(
            filter(Boolean),
            take(1),
            switchMap(() => timer(wait, scheduler)),
          );
        },
      }),
    );
}

/**
 * One track of an adaptive stream: keeps the `SourceBuffer` filled `goalSeconds` ahead of the playhead, one segment
 * at a time, in order. Before the first segment of a rendition it appends that rendition's initialisation segment
 * (a switch is an init segment, then the new rendition's segments). A failed request is retried with a doubling delay
 * (`retryBaseMs` … `retryMaxMs`), once the network is up; a request the `abandon` rule drops is not retried, the
 * loader plans again. A seek (`restart$`) drops what is in flight and plans from the new position; a replacement
 * (`replace$`) goes back to an earlier segment and fetches again over what is buffered. After the last segment is
 * appended the loader says `end` and waits (a seek back starts it again).
 *
 * ```
 * wake$:   a-------b-----------      (a, b: the playhead moved)
 * fetch:   -i-s1-s2|                 (init, segments, until the goal is reached)
 * result:  -I-S--S-----------…       (init, segment events)
 * ```
 */
export function trackLoader(options: TrackLoaderOptions): Observable<TrackEvent> {
  const { ports, formatFor, wake$, restart$, online$, abandon = () => false, replace$ = EMPTY } = options;
  const { goalSeconds = ABR_BUFFER_GOAL_S, retryBaseMs = STREAM_RETRY_BASE_MS, retryMaxMs = STREAM_RETRY_MAX_MS, scheduler } = options;
  return defer(() => {
    let initialised: AdaptiveFormat | null = null;
    let next: number | null = null;
    let ended = false;
    const retries$ = new Subject<TrackEvent>();

    /** The segment to fetch now, or null when the buffer is full enough or every segment is in. */
    const plan = (): { format: AdaptiveFormat; index: number } | null => {
      const t = ports.currentTime();
      const probe = formatFor(next ?? 0);
      // The segment after the last appended one, unless the playhead left it behind (then: where the buffer ends).
      const index = next !== null && segmentStart(probe, next + 1) > t ? next : segmentIndexAt(probe, ports.bufferedEnd(t));
      if (index >= segmentCount(probe)) {
        ended = true;
        return null;
      }
      if (segmentStart(probe, index) - t >= goalSeconds) return null;
      return { format: formatFor(index), index };
    };

    const withRetry = retrying(retries$, online$, { retryBaseMs, retryMaxMs, scheduler });

    const loadInit = (format: AdaptiveFormat): Observable<TrackEvent> =>
      initialised === format
        ? EMPTY
        : withRetry(
            defer(() => ports.fetch(format.initUrl)).pipe(
              filter((e): e is Extract<FetchEvent, { type: 'done' }> => e.type === 'done'),
              switchMap((e) => ports.append(e.data).pipe(ignoreElements(), startWith(null), last())),
            ),
            format.initUrl,
          ).pipe(
            tap(() => (initialised = format)),
            map((): TrackEvent => ({ type: 'init', format })),
          );

    const loadSegment = (format: AdaptiveFormat, index: number): Observable<TrackEvent> => {
      const url = segmentUrl(format, index);
      let dropped: Extract<TrackEvent, { type: 'progress' }> | null = null;
      const transfer$ = defer(() => ports.fetch(url)).pipe(
        map((e): TrackEvent | FetchEvent => (e.type === 'progress' ? { ...e, format, index } : e)),
        takeWhile((e) => {
          if (e.type !== 'progress' || !abandon(e as Extract<TrackEvent, { type: 'progress' }>)) return true;
          dropped = e as Extract<TrackEvent, { type: 'progress' }>;
          return false;
        }),
      );
      const loaded$ = withRetry(transfer$, url).pipe(
        switchMap((e): Observable<TrackEvent> => {
          if (e.type !== 'done') return of(e as TrackEvent);
          const transfer: Transfer = { bytes: e.data.byteLength, requestMs: e.requestMs, firstByteMs: e.firstByteMs, endMs: e.endMs };
          return concat(
            ports.append(e.data).pipe(ignoreElements()),
            defer(() => {
              next = index + 1;
              return of<TrackEvent>({ type: 'segment', format, index, transfer });
            }),
          );
        }),
      );
      return concat(
        loaded$,
        defer(() => {
          const d = dropped as Extract<TrackEvent, { type: 'progress' }> | null;
          if (!d) return EMPTY;
          const transfer: Transfer = { bytes: d.loaded, requestMs: d.requestMs, firstByteMs: d.firstByteMs, endMs: d.atMs };
          return of<TrackEvent>({ type: 'abandoned', format, index, transfer });
        }),
      );
    };

    /** Fetches and appends segments until the goal is reached or every segment is in. */
    const fill = (): Observable<TrackEvent> =>
      defer(() => {
        const step = plan();
        if (!step) return ended ? of<TrackEvent>({ type: 'end' }) : EMPTY;
        return concat(loadInit(step.format), loadSegment(step.format, step.index), fill());
      });

    // A replacement goes back only to a segment still ahead of the playhead and before the next one to fetch.
    const replaceFrom = (seconds: number): boolean => {
      const index = segmentIndexAt(formatFor(next ?? 0), seconds);
      if (next === null || index >= next || segmentStart(formatFor(index), index) <= ports.currentTime()) return false;
      next = index;
      ended = false;
      return true;
    };
    const run$ = merge(
      restart$.pipe(
        startWith(null),
        tap(() => {
          next = null;
          ended = false;
        }),
      ),
      replace$.pipe(filter(replaceFrom)),
    ).pipe(
      switchMap(() =>
        wake$.pipe(
          startWith(null),
          filter(() => !ended),
          exhaustMap(() => fill()),
        ),
      ),
    );
    return merge(run$, retries$);
  });
}
