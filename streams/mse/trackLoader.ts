import {
  catchError,
  concat,
  concatMap,
  defer,
  EMPTY,
  exhaustMap,
  filter,
  finalize,
  ignoreElements,
  last,
  map,
  merge,
  type Observable,
  of,
  type SchedulerLike,
  share,
  startWith,
  Subject,
  switchMap,
  takeWhile,
  tap,
  throwError,
} from 'rxjs';
import type { AdaptiveFormat } from '../config/playerConfig';
import { ABR_BUFFER_GOAL_S, STREAM_APPEND_UNBUFFERED_S, STREAM_RETRY_BASE_MS, STREAM_RETRY_MAX_MS } from '../timing';
import { failingAppends, retrying } from './loaderRetry';
import { segmentCount, segmentIndexAt, segmentStart, segmentUrl } from './segments';

/** What a segment request says as its bytes come: progress, then the whole body with its timing. */
export type FetchEvent =
  | { type: 'progress'; loaded: number; requestMs: number; firstByteMs: number; atMs: number; chunk?: Uint8Array }
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
  /**
   * Forgets a segment appended in part (`SourceBuffer.abort()` through the queue), so that the next append starts a
   * segment afresh. With it, a segment the playhead waits for (nothing buffered at the playhead, nor where the segment
   * starts) is appended chunk by chunk as its body arrives, when `appendAsItComes` agrees: playback starts before its
   * last byte. Without it, every segment is appended whole.
   */
  reset?(): Observable<unknown>;
  /** Whether a segment the playhead waits for may be appended as it arrives (the link outpaces it); always, unless given. */
  appendAsItComes?(format: AdaptiveFormat, index: number): boolean;
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

type Progress = Extract<TrackEvent, { type: 'progress' }>;

/** A finished transfer's size and timing. */
const transferOf = ({ data, requestMs, firstByteMs, endMs }: Extract<FetchEvent, { type: 'done' }>): Transfer => ({
  bytes: data.byteLength,
  requestMs,
  firstByteMs,
  endMs,
});

/** Joins chunks into one buffer. */
function joined(chunks: readonly Uint8Array[]): ArrayBuffer {
  const data = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    data.set(chunk, at);
    at += chunk.byteLength;
  }
  return data.buffer;
}

/**
 * Appends a body's chunks in order as they arrive, each append taking everything that arrived while the one before
 * it ran (a slow link gives many small chunks: they are not appended one by one). Completes once all are appended.
 */
function appendingAsItComes(chunks$: Observable<Uint8Array>, append: (data: ArrayBuffer) => Observable<unknown>): Observable<never> {
  return defer(() => {
    const waiting: Uint8Array[] = [];
    return chunks$.pipe(
      tap((chunk) => waiting.push(chunk)),
      concatMap(() => (waiting.length === 0 ? EMPTY : append(joined(waiting.splice(0))))),
      ignoreElements(),
    );
  });
}

/**
 * Whether the playhead waits for segment `index` of `format`: nothing is buffered at the playhead, nor where the
 * segment starts (a little into it, to absorb the rounding of range ends). Only then is a segment appended as it
 * arrives: over a buffered range its first frames would remove the old ones before the rest is in, and while the
 * playhead has media ahead a segment appended in part gains nothing and may have to be taken back (an abandon).
 */
const waitedFor = (ports: TrackPorts, format: AdaptiveFormat, index: number): boolean => {
  const t = ports.currentTime();
  const probe = segmentStart(format, index) + STREAM_APPEND_UNBUFFERED_S;
  return ports.bufferedEnd(t) === t && ports.bufferedEnd(probe) === probe;
};

/**
 * Loads one segment: fetched (retried by `withRetry`), appended, then said as a `segment` event once in; or dropped
 * when `abandon` says so (an `abandoned` event with what arrived). A segment the playhead waits for is appended as it
 * arrives when the ports can reset a part-appended segment (on an abandon, a seek, or before a retry sends the body
 * again); any other goes in whole. `appended` runs once the segment is in, before its event.
 */
function segmentLoader(
  ports: TrackPorts,
  abandon: (progress: Progress) => boolean,
  withRetry: <T>(work: Observable<T>, url: string) => Observable<T>,
  appended: (format: AdaptiveFormat, index: number) => void,
) {
  return (format: AdaptiveFormat, index: number): Observable<TrackEvent> => {
    const url = segmentUrl(format, index);
    const reset = ports.reset;
    const streamed = reset !== undefined && waitedFor(ports, format, index) && (ports.appendAsItComes?.(format, index) ?? true);
    let dropped: Progress | null = null;
    let done: Transfer | null = null;
    const progressOf = ({ loaded, requestMs, firstByteMs, atMs }: Extract<FetchEvent, { type: 'progress' }>): TrackEvent => ({
      type: 'progress',
      format,
      index,
      loaded,
      requestMs,
      firstByteMs,
      atMs,
    });
    const transfer$ = defer(() => ports.fetch(url)).pipe(
      takeWhile((e) => {
        if (e.type !== 'progress') return true;
        const progress = progressOf(e) as Progress;
        if (!abandon(progress)) return true;
        dropped = progress;
        return false;
      }),
    );
    const whole$ = transfer$.pipe(
      switchMap((e): Observable<TrackEvent> => {
        if (e.type === 'progress') return of(progressOf(e));
        done = transferOf(e);
        return ports.append(e.data).pipe(ignoreElements());
      }),
    );
    // Streamed: what was appended of a failed transfer is forgotten before the retry appends the body again.
    const streamed$ = defer(() => {
      const events$ = transfer$.pipe(share());
      return merge(
        appendingAsItComes(
          events$.pipe(
            map((e) => (e.type === 'progress' ? e.chunk : undefined)),
            filter((c): c is Uint8Array => c !== undefined),
          ),
          (data) => ports.append(data),
        ),
        events$.pipe(
          map((e): TrackEvent | null => {
            if (e.type === 'progress') return progressOf(e);
            done = transferOf(e);
            return null;
          }),
          filter((e): e is TrackEvent => e !== null),
        ),
      ).pipe(
        // The failure is what the loader reports; a reset that fails too (a buffer the failure closed) does not hide it.
        catchError((error: unknown) =>
          concat(
            (reset as () => Observable<unknown>)().pipe(
              ignoreElements(),
              catchError(() => EMPTY),
            ),
            throwError(() => error),
          ),
        ),
      );
    });
    // A streamed segment dropped part way (abandoned, or a seek unsubscribed it) is forgotten before anything else is
    // appended: the queue runs the reset after the chunks already given to it.
    let complete = false;
    const loaded$ = concat(
      withRetry(streamed ? streamed$ : whole$, url),
      defer((): Observable<TrackEvent> => {
        const d = dropped as Progress | null;
        if (d) {
          const transfer: Transfer = { bytes: d.loaded, requestMs: d.requestMs, firstByteMs: d.firstByteMs, endMs: d.atMs };
          return of<TrackEvent>({ type: 'abandoned', format, index, transfer });
        }
        const transfer = done as Transfer | null;
        if (!transfer) return EMPTY;
        complete = true;
        appended(format, index);
        return of<TrackEvent>({ type: 'segment', format, index, transfer });
      }),
    );
    return streamed ? loaded$.pipe(finalize(() => complete || (reset as () => Observable<unknown>)().subscribe())) : loaded$;
  };
}

/**
 * One track of an adaptive stream: keeps the `SourceBuffer` filled `goalSeconds` ahead of the playhead, one segment
 * at a time, in order. Before the first segment of a rendition it appends that rendition's initialisation segment
 * (a switch is an init segment, then the new rendition's segments). A failed request is retried with a doubling delay
 * (`retryBaseMs` … `retryMaxMs`), once the network is up; a request the `abandon` rule drops is not retried, the
 * loader plans again; an append the buffer refuses (other than for want of room) fails the loader with an
 * `AppendFailure`. A seek (`restart$`) drops what is in flight and plans from the new position; a replacement
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
  const { formatFor, wake$, restart$, online$, abandon = () => false, replace$ = EMPTY } = options;
  const ports = failingAppends(options.ports);
  const { goalSeconds = ABR_BUFFER_GOAL_S, retryBaseMs = STREAM_RETRY_BASE_MS, retryMaxMs = STREAM_RETRY_MAX_MS, scheduler } = options;
  return defer(() => {
    let initialised: AdaptiveFormat | null = null;
    let next: number | null = null;
    let ended = false;
    const retries$ = new Subject<TrackEvent>();
    /** The rendition each segment was last appended in. */
    const appendedIn = new Map<number, AdaptiveFormat>();
    /**
     * Whether segment `index` is still buffered (from just past its start to just before its end, the slack of
     * `STREAM_APPEND_UNBUFFERED_S` at each edge) in the rendition it would be fetched in now.
     */
    const inPlace = (index: number): boolean => {
      const format = formatFor(index);
      if (appendedIn.get(index) !== format) return false;
      const from = segmentStart(format, index) + STREAM_APPEND_UNBUFFERED_S;
      const to = index + 1 < segmentCount(format) ? segmentStart(format, index + 1) - STREAM_APPEND_UNBUFFERED_S : from;
      const end = ports.bufferedEnd(from);
      return end > from && end >= to;
    };

    /** The segment to fetch now, or null when the buffer is full enough or every segment is in. */
    const plan = (): { format: AdaptiveFormat; index: number } | null => {
      const t = ports.currentTime();
      const probe = formatFor(next ?? 0);
      // The segment after the last appended one, unless the playhead left it behind (then: where the buffer ends).
      let index = next !== null && segmentStart(probe, next + 1) > t ? next : segmentIndexAt(probe, ports.bufferedEnd(t));
      // A replacement passes over the segments already buffered in the rendition it fetches.
      while (index < segmentCount(probe) && inPlace(index)) index++;
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

    const loadSegment = segmentLoader(ports, abandon, withRetry, (format, index) => {
      appendedIn.set(index, format);
      next = index + 1;
    });

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
