import { catchError, concat, concatMap, defer, EMPTY, fromEvent, ignoreElements, map, merge, type Observable, of, Subject, take, throwError } from 'rxjs';

/** What the queue needs of the element: where the playhead is (to keep what is ahead of it when space runs out). */
export interface AppendQueueOptions {
  currentTime: () => number;
  /** Media this far behind the playhead may be removed to make room. */
  backBufferSeconds: number;
}

/** One operation on the buffer, started now (it may throw), over at its `updateend`; an `error` event fails it. */
function operation(buffer: SourceBuffer, start: () => void): Observable<void> {
  return defer(() => {
    start();
    return merge(
      fromEvent(buffer, 'updateend').pipe(map(() => undefined)),
      fromEvent(buffer, 'error').pipe(
        map(() => {
          throw new Error('The media could not be appended (decode error).');
        }),
      ),
    ).pipe(take(1));
  });
}

const isQuotaExceeded = (e: unknown) => (e as { name?: string } | null)?.name === 'QuotaExceededError';

/**
 * The one append queue of a `SourceBuffer`: appends run one after another, so none starts while the buffer updates.
 * When the browser says the buffer is full (`QuotaExceededError`), what lies more than `backBufferSeconds` behind the
 * playhead is removed and the append tried once more; a buffer still full (nothing behind to remove) fails it.
 * A reset runs in its turn too, after the chunks queued before it. Each operation returns an observable that
 * completes once done, or fails with the buffer's error.
 */
export function appendQueue(buffer: SourceBuffer, { currentTime, backBufferSeconds }: AppendQueueOptions): AppendQueue {
  const jobs$ = new Subject<{ data: Job; done: Subject<void> }>();
  const appendOnce = (data: ArrayBuffer) => operation(buffer, () => buffer.appendBuffer(data));
  const evict = () =>
    defer(() => {
      const before = currentTime() - backBufferSeconds;
      const start = buffer.buffered.length > 0 ? buffer.buffered.start(0) : before;
      return before > start ? operation(buffer, () => buffer.remove(start, before)) : throwError(() => new Error('The media buffer is full.'));
    });
  jobs$
    .pipe(
      concatMap(({ data, done }) =>
        (data instanceof ArrayBuffer ? appendOnce(data) : 'removeFrom' in data ? removeFrom(data.removeFrom) : resetParser()).pipe(
          catchError((e: unknown) =>
            isQuotaExceeded(e) && data instanceof ArrayBuffer ? concat(evict().pipe(ignoreElements()), appendOnce(data)) : throwError(() => e),
          ),
          map(() => done.complete()),
          catchError((e: unknown) => {
            done.error(e);
            return EMPTY;
          }),
        ),
      ),
    )
    .subscribe();
  const removeFrom = (start: number) =>
    defer(() => {
      const end = buffer.buffered.length > 0 ? buffer.buffered.end(buffer.buffered.length - 1) : 0;
      return end > start ? operation(buffer, () => buffer.remove(start, end)) : of(undefined);
    });
  // Forgets the bytes of a segment appended in part; a buffer whose source has closed has nothing to forget.
  const resetParser = () =>
    defer(() => {
      if (buffer.updating === false) {
        try {
          buffer.abort();
        } catch {
          // The buffer left its MediaSource (the stream stopped): nothing more is appended to it.
        }
      }
      return of(undefined);
    });
  const queued = (data: Job) =>
    defer(() => {
      const done = new Subject<void>();
      jobs$.next({ data, done });
      return done;
    });
  return { append: (data) => queued(data), removeFrom: (seconds) => queued({ removeFrom: seconds }), reset: () => queued({ reset: true }) };
}

/** The operations of a buffer's queue, each an observable that completes once done. */
export interface AppendQueue {
  append(data: ArrayBuffer): Observable<void>;
  /** Removes what is buffered from `seconds` on (a switch that must show sooner than the buffer would play out). */
  removeFrom(seconds: number): Observable<void>;
  /** Forgets a segment appended in part (`abort()`), so the next append starts a segment afresh. */
  reset(): Observable<void>;
}

type Job = ArrayBuffer | { removeFrom: number } | { reset: true };
