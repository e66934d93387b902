import { asyncScheduler, type Observable, shareReplay, Subject, type SchedulerLike } from 'rxjs';
import { RECORDER_MAX_ENTRIES } from '../timing';

/**
 * Keeps what streams say from the moment they are recorded until their consumer has arrived (the page's logging is
 * started after the player is ready, and must not lose a single event of the time before).
 *
 * ```
 * source a:  --1----3------5--
 * source b:  ----2-----4------
 * release:   ----------R------
 * a out:     ----------(1 3)--5--   (each delivered with now() = its recorded time: 1 at t1, 3 at t3)
 * b out:     ----------(2 4)-----   (one timeline: 1 2 3 4, in the order they happened)
 * ```
 */
export interface Recorder {
  /**
   * Subscribes to `source$` now and records what it emits (values, its end). The returned stream delivers, to whoever
   * subscribed before {@link release}, everything recorded, then what comes later, live. Subscribe after the release
   * and only the live values come.
   */
  record<T>(source$: Observable<T>): Observable<T>;
  /**
   * {@link record} for a state (the player's state, the page's visibility…): a subscriber also gets the value of the
   * moment when it subscribes — during the replay, the value as it was then (a subscription made inside a replayed
   * emission sees the state of that time). Connected at once, so nothing recorded is missed.
   */
  recordState<T>(source$: Observable<T>): Observable<T>;
  /**
   * Replays every recorded emission of every recorded stream in the order they happened (each with {@link now} at
   * its recorded time), then lets later ones through as they come. Once.
   */
  release(): void;
  /**
   * The time of what is being delivered: during the replay, the recorded time of the emission; after it, the clock's;
   * before the release (a consumer subscribing, saying what it says at its start), the time the recorder was created.
   */
  now(): number;
  /** A scheduler that schedules as `base` does and tells {@link now} as its time (for operators that stamp times). */
  readonly scheduler: SchedulerLike;
  /** Emissions not kept because {@link RECORDER_MAX_ENTRIES} were waiting (a consumer that never came). */
  readonly dropped: number;
}

type Entry =
  | { out: Subject<unknown>; kind: 'next'; value: unknown; at: number }
  | { out: Subject<unknown>; kind: 'error'; error: unknown; at: number }
  | { out: Subject<unknown>; kind: 'complete'; at: number };

export function createRecorder({
  now = () => base.now(),
  base = asyncScheduler,
  maxEntries = RECORDER_MAX_ENTRIES,
}: { now?: () => number; base?: SchedulerLike; maxEntries?: number } = {}): Recorder {
  const timeline: Entry[] = [];
  let released = false;
  let replayingAt: number | undefined;
  let dropped = 0;

  const keep = (entry: Entry) => {
    if (timeline.length < maxEntries) timeline.push(entry);
    else dropped++;
  };
  const deliver = (entry: Entry) => {
    if (entry.kind === 'next') entry.out.next(entry.value);
    else if (entry.kind === 'error') entry.out.error(entry.error);
    else entry.out.complete();
  };
  // Before the release the consumer counts as started when the recorder was: what it says on subscribing (a session's
  // opening event) happened then, as it would have had it started with the page.
  const startedAt = now();
  const recorderNow = () => replayingAt ?? (released ? now() : startedAt);

  return {
    record<T>(source$: Observable<T>): Observable<T> {
      const out = new Subject<unknown>();
      source$.subscribe({
        next: (value) => (released ? out.next(value) : keep({ out, kind: 'next', value, at: now() })),
        error: (error: unknown) => (released ? out.error(error) : keep({ out, kind: 'error', error, at: now() })),
        complete: () => (released ? out.complete() : keep({ out, kind: 'complete', at: now() })),
      });
      return out.asObservable() as Observable<T>;
    },
    recordState<T>(source$: Observable<T>): Observable<T> {
      const state$ = this.record(source$).pipe(shareReplay({ bufferSize: 1, refCount: false }));
      state$.subscribe();
      return state$;
    },
    release() {
      if (released) return;
      // What a delivery causes to be recorded meanwhile joins the end of the timeline, in order.
      // An array's iterator reads its length at every step, so it reaches those too.
      for (const entry of timeline) {
        replayingAt = entry.at;
        deliver(entry);
      }
      replayingAt = undefined;
      timeline.length = 0;
      released = true;
    },
    now: recorderNow,
    // Schedules on `base` itself (its actions, its clock for delays); only the time it tells is the recorder's.
    scheduler: { now: recorderNow, schedule: base.schedule.bind(base) } as SchedulerLike,
    get dropped() {
      return dropped;
    },
  };
}
