import {
  asyncScheduler,
  catchError,
  defer,
  EMPTY,
  endWith,
  from,
  ignoreElements,
  mergeMap,
  Observable,
  type ObservableInput,
  of,
  type SchedulerLike,
} from 'rxjs';
import type { ApiRequest, LogEndpoint } from '../transport/buildApiRequest';
import { batchEvents, type BatchEventsOptions, type EventFlush } from './batchEvents';
import { buildLogRequestPayload, type LogRequestPayload } from './buildLogRequestPayload';
import { randomPageId } from './encodePageId';
import { nextClientCounter } from './nextClientCounter';
import { type ClientEvent, type LogEvent, stampLogEvent } from './stampEvent';
import { flat, isPlainClientEventIdPrefix, markPlainClientEventIds } from '../transport/stringifyLogEvents';
import { KEEPALIVE_BUDGET_BYTES } from '../timing';
import { decimalCounter } from '../shared/numberText';

export interface LogSinkOptions {
  /** Builds the HTTP request for a log payload; `transport.buildRequest` (adds context, headers, key). */
  buildRequest: (endpoint: LogEndpoint, payload: LogRequestPayload) => ApiRequest;
  /** Sends a request and completes on success, errors on failure; `transport.send`. */
  send: (request: ApiRequest) => ObservableInput<unknown>;
  /** The unload path (keepalive, uncompressed, no waiting); `transport.sendKeepalive`. Defaults to `send`. */
  sendKeepalive?: (request: ApiRequest) => ObservableInput<unknown>;
  /** Hands a request that could not be delivered to the retry queue (it stores `url` and `options` as given). */
  store: (request: ApiRequest) => ObservableInput<unknown> | void;
  /** Random per page; the prefix of every `clientEventId` and the `serializedEventId` of every request. */
  pageId?: string;
  /** Keepalive bodies in flight may not add up to more than this (the browser's 64 KiB budget). */
  keepaliveBudgetBytes?: number;
  /** Overrides of the batching constants (tests, experiments). */
  batching?: Omit<BatchEventsOptions, 'flush$' | 'scheduler' | 'arrivedAt'>;
  /** The counter wraps after this value (spec §9 65535). */
  counterMax?: number;
  scheduler?: SchedulerLike;
}

/** What happened to each request the sink built. */
export type LogSinkOutcome =
  | { type: 'sent'; request: ApiRequest; keepalive: boolean; eventCount: number }
  /** The send failed; the request was handed to `store` (the retry queue). */
  | { type: 'stored'; request: ApiRequest; eventCount: number; error: unknown }
  /** Lifecycle flush beyond the keepalive budget: handed to `store` without a send, to go out on a later page. */
  | { type: 'deferred'; request: ApiRequest; eventCount: number }
  /** Even `store` failed: the only case where a request can be lost; surfaced so the page can report it. */
  | { type: 'storeFailed'; request: ApiRequest; eventCount: number; error: unknown }
  /** `buildRequest` threw (a broken settings source); the events are attached so they are not silently gone. */
  | { type: 'buildFailed'; events: LogEvent[]; error: unknown };

const utf8Length = (text: string) => new TextEncoder().encode(text).byteLength;

interface Draft {
  endpoint: LogEndpoint;
  events: LogEvent[];
}

/**
 * A debug event (for `video_stats`) in the batching queue. Log events are queued as they are: one object per event
 * instead of a `{ event, debug }` wrapper around each (debug events are the rare ones).
 */
class DebugEvent {
  constructor(readonly event: LogEvent) {}
}
type QueuedEvent = LogEvent | DebugEvent;

/** The outcome once `start()`'s work completes, or `failed(error)` when it (or `start` itself) fails. */
function settle(start: () => Observable<unknown>, outcome: LogSinkOutcome, failed: (error: unknown) => Observable<LogSinkOutcome>): Observable<LogSinkOutcome> {
  return defer(start).pipe(ignoreElements(), endWith(outcome), catchError(failed));
}

/** Counts the debug events handed to batching and not yet found in a batch, so that most batches are not scanned. */
interface DebugCount {
  queued: number;
}

/** The batch's requests (it runs for every event): log events and debug events, each in arrival order. */
function draftsOf(batch: QueuedEvent[], debug: DebugCount): Draft[] {
  // No debug event queued and not yet taken out (the usual case: the batch is not scanned), or none in this batch:
  // the batch is the request's events as it is, not copied.
  if (debug.queued === 0 || !batch.some((queued) => queued instanceof DebugEvent)) {
    return batch.length > 0 ? [{ endpoint: 'log_event', events: batch as LogEvent[] }] : [];
  }
  const logs: LogEvent[] = [];
  let debugEvents: LogEvent[] | undefined;
  for (const queued of batch) {
    if (queued instanceof DebugEvent) {
      debug.queued--;
      (debugEvents ??= []).push(queued.event);
    } else logs.push(queued);
  }
  const drafts: Draft[] = [];
  if (logs.length > 0) drafts.push({ endpoint: 'log_event', events: logs });
  if (debugEvents) drafts.push({ endpoint: 'video_stats', events: debugEvents });
  return drafts;
}

/** The drafts halved until each body fits `budgetBytes` (a single event stays whole); a draft that cannot be measured stays whole. */
function keepaliveParts(drafts: Draft[], measure: (draft: Draft) => number, budgetBytes: number): Draft[] {
  const parts: Draft[] = [];
  const split = (draft: Draft) => {
    let size: number;
    try {
      size = measure(draft);
    } catch {
      size = 0; // building it again reports the failure
    }
    if (size > budgetBytes && draft.events.length > 1) {
      const half = Math.ceil(draft.events.length / 2);
      split({ endpoint: draft.endpoint, events: draft.events.slice(0, half) });
      split({ endpoint: draft.endpoint, events: draft.events.slice(half) });
    } else parts.push(draft);
  };
  drafts.forEach(split);
  return parts;
}

/**
 * `events$.pipe(catchError(() => EMPTY), map(stamp))`: an error of `events$` ends it, a throwing stamp is its error.
 */
function stampedEvents(events$: Observable<ClientEvent>, stamp: (event: ClientEvent) => QueuedEvent): Observable<QueuedEvent> {
  // Hand-written: it runs for every event, and the two operators it stands for slow the sink's benchmark (docs/performance.md).
  return new Observable<QueuedEvent>((subscriber) =>
    events$.subscribe({
      next(event) {
        let stamped: QueuedEvent;
        try {
          stamped = stamp(event);
        } catch (error) {
          subscriber.error(error);
          return;
        }
        subscriber.next(stamped);
      },
      error: () => subscriber.complete(),
      complete: () => subscriber.complete(),
    }),
  );
}

/**
 * The log sink (redux-observable style: effects injected, returns an epic the page subscribes to once).
 *
 * `(events$, flush$) => outcome$`: stamps each {@link ClientEvent} with `eventTimeMs` and a client-unique
 * `clientEventId`, batches them with {@link batchEvents} (spec §9), splits each batch by endpoint (`debug` events go to
 * `video_stats`, the rest to `log_event`) and builds one request per part with `requestTimeMs` and
 * `serializedClientEventId {serializedEventId: pageId, clientCounter}` (1…65535, wrapping).
 *
 * - Normal flushes go through `send`, all in parallel. A failed send hands the same request to `store` — never dropped.
 * - A `flush$` emission (page lifecycle `document_disposed_preventable` / `document_disposed`) sends everything queued
 *   at once through `sendKeepalive`. Requests are halved until each body fits `keepaliveBudgetBytes`, and sent while
 *   their sum stays within it; what does not fit is handed to `store` (outcome `deferred`). Then batching goes on.
 * - An error of `events$` is treated as its end: the queue is drained and sent first.
 */
export function createLogSink({
  buildRequest,
  send,
  sendKeepalive = send,
  store,
  pageId = randomPageId(),
  keepaliveBudgetBytes = KEEPALIVE_BUDGET_BYTES,
  batching = {},
  counterMax,
  scheduler = asyncScheduler,
}: LogSinkOptions): (events$: Observable<ClientEvent>, flush$?: Observable<unknown>) => Observable<LogSinkOutcome> {
  return (events$, flush$ = EMPTY) =>
    defer(() => {
      /** The next `{sequence}` of a `clientEventId`, as text (1, 2, …). */
      const nextSequence = decimalCounter();
      let counter = 0;
      const debug: DebugCount = { queued: 0 };

      // Every id is `{pageId}:{sequence}`: when the page id needs no escaping, neither does any id (not scanned again).
      const plainIds = isPlainClientEventIdPrefix(pageId);
      const payloadFor = (events: LogEvent[], clientCounter: number) => {
        if (plainIds) markPlainClientEventIds(events);
        return buildLogRequestPayload(events, { requestTimeMs: scheduler.now(), serializedEventId: pageId, clientCounter });
      };
      const build = (draft: Draft): ApiRequest => {
        counter = nextClientCounter(counter, counterMax);
        return buildRequest(draft.endpoint, payloadFor(draft.events, counter));
      };
      // Measured with the widest counter so the real request is never larger than measured.
      const measure = (draft: Draft) => utf8Length(buildRequest(draft.endpoint, payloadFor(draft.events, counterMax ?? 65_535)).options.body);

      const storeOne = (request: ApiRequest, eventCount: number, outcome: LogSinkOutcome): Observable<LogSinkOutcome> =>
        settle(
          () => {
            const stored = store(request);
            return stored ? from(stored) : EMPTY;
          },
          outcome,
          (error) => of<LogSinkOutcome>({ type: 'storeFailed', request, eventCount, error }),
        );

      const sendOne = (request: ApiRequest, eventCount: number, keepalive: boolean): Observable<LogSinkOutcome> =>
        settle(
          () => from((keepalive ? sendKeepalive : send)(request)),
          { type: 'sent', request, keepalive, eventCount },
          (error) => storeOne(request, eventCount, { type: 'stored', request, eventCount, error }),
        );

      const guarded = (draft: Draft, use: (request: ApiRequest) => Observable<LogSinkOutcome>) => {
        let request: ApiRequest;
        try {
          request = build(draft);
        } catch (error) {
          return of<LogSinkOutcome>({ type: 'buildFailed', events: draft.events, error });
        }
        return use(request);
      };

      const sendFlush = (flush: EventFlush<QueuedEvent>): Observable<LogSinkOutcome> => {
        const drafts = flush.batches.flatMap((batch) => draftsOf(batch, debug));
        // A normal flush: its requests all in parallel.
        if (flush.reason !== 'lifecycle')
          return from(drafts).pipe(mergeMap((draft) => guarded(draft, (request) => sendOne(request, draft.events.length, false))));
        // Unload: halve what is too big for one keepalive body, then spend the budget in order.
        let budget = keepaliveBudgetBytes;
        const work = keepaliveParts(drafts, measure, keepaliveBudgetBytes).map((draft) =>
          guarded(draft, (request) => {
            const size = utf8Length(request.options.body);
            if (size <= budget) {
              budget -= size;
              return sendOne(request, draft.events.length, true);
            }
            return storeOne(request, draft.events.length, { type: 'deferred', request, eventCount: draft.events.length });
          }),
        );
        return from(work).pipe(mergeMap((outcome$) => outcome$));
      };

      // Flat: it is part of every id, which the request's body copies.
      const idPrefix = flat(`${pageId}:`);
      // The time read to stamp an event is also when it is queued: one clock read per event (`Date.now()` in the page).
      let stampedAt = 0;
      const stamp = (event: ClientEvent): QueuedEvent => {
        stampedAt = scheduler.now();
        const stamped = stampLogEvent(event, stampedAt, idPrefix + nextSequence());
        if (event?.debug !== true) return stamped;
        debug.queued++;
        return new DebugEvent(stamped);
      };
      // An error of `events$` ends it (the queue is drained); a throwing stamp is the sink's error.
      return stampedEvents(events$, stamp).pipe(batchEvents<QueuedEvent>({ ...batching, flush$, scheduler, arrivedAt: () => stampedAt }), mergeMap(sendFlush));
    });
}
