import { filter, from, map, type Observable, share, Subject, Subscription, tap } from 'rxjs';
import { createLogSink, type LogSinkOutcome } from '../../../streams/logging/createLogSink';
import type { ClientEvent } from '../../../streams/logging/stampEvent';
import { createRetryQueue, type RetryQueue } from '../../../streams/retry/createRetryQueue';
import { logsDatabase } from '../../../streams/retry/logsDatabase';
import { createRequestLog, type RequestLog } from '../../../streams/retry/requestLog';
import { retryQueueDrain, type RetryQueueEvent } from '../../../streams/retry/retryQueueDrain';
import { createDatabase } from '../../../streams/storage/createDatabase';
import type { StorageError } from '../../../streams/storage/StorageError';
import type { ApiRequest } from '../../../streams/transport/buildApiRequest';
import { WEB_EMBEDDED_PLAYER_CLIENT_NAME_ID } from '../../../streams/transport/clientIdentity';
import { withoutCredentialTransferTokens } from '../../../streams/transport/credentialTransferTokens';
import type { EmbedApi } from './api';
import { pageStorage } from './pageStorage';

/** Told of every request the sink settled and of every resend of the queue (the page's diagnostics). */
export interface DeliveryObserver {
  settled(outcome: LogSinkOutcome): void;
  retried(event: RetryQueueEvent): void;
}

export interface LogDeliveryOptions {
  /** The page's one API client: it carries the identity and the stream token on every log request. */
  api: Pick<EmbedApi, 'buildRequest' | 'send' | 'sendKeepalive'>;
  /** Random per page: the `serializedEventId` of every request and the prefix of every `clientEventId`. */
  pageId: string;
  /** The network status; the drain resends while online. */
  online$: Observable<boolean>;
  /** Where the logs database reports what went wrong with it. */
  reportStorage: (error: StorageError) => void;
  observer?: DeliveryObserver;
}

/** How log requests reach `log_event`: the sink, the retry queue and its drain, and the request log. */
export interface LogDelivery {
  /** What the retry queue's drain did (hot, from {@link deliver} on). */
  readonly retry$: Observable<RetryQueueEvent>;
  /** The body of every `log_event` answer (hot). */
  readonly logAnswer$: Observable<unknown>;
  /** The request log (spec §9, 1 day): what became of each log request of this origin. */
  readonly requestLog: RequestLog;
  readonly queue: RetryQueue;
  /**
   * Sends `events$` through the sink, flushing through keepalive at each `flush$`, and starts the drain; returns what
   * happened to each request (hot, shared). Called once.
   */
  deliver(events$: Observable<ClientEvent>, flush$: Observable<unknown>): Observable<LogSinkOutcome>;
  stop(): void;
}

/** How many events a stored request carries (its body is the JSON the sink built). */
function eventCountOf(request: { options: { body: string } }): number {
  try {
    const events = (JSON.parse(request.options.body) as { events?: unknown }).events;
    return Array.isArray(events) ? events.length : 0;
  } catch {
    return 0;
  }
}

/** Writes one line per log request into the request log: what the sink did with it, then what the drain did. */
function requestLogWriter(requestLog: RequestLog) {
  const append = (endpoint: string, outcome: string, eventCount: number) => {
    try {
      requestLog.append({ timeMs: Date.now(), endpoint: endpoint.includes('video_stats') ? 'video_stats' : 'log_event', outcome, eventCount });
    } catch {
      /* a full or refused storage loses the log line, never the request */
    }
  };
  return {
    settled(o: LogSinkOutcome) {
      if (o.type === 'buildFailed') append('log_event', o.type, o.events.length);
      else append(o.request.url, o.type, o.eventCount);
    },
    retried(e: RetryQueueEvent) {
      if (e.type === 'sent') append(e.request.url, 'resent', eventCountOf(e.request));
      if (e.type === 'failed' && e.outcome === 'dropped') append(e.request.url, 'dropped', eventCountOf(e.request));
    },
  };
}

/**
 * The delivery of the page's log requests (spec §7, §9): batched by the sink into `log_event` / `video_stats`
 * requests; a failed request stored in the IndexedDB retry queue — without its credential transfer tokens, which are
 * not kept on disk for the queue's 30 days — and resent by the drain when the network is back; the stream token is
 * part of the stored request, so a resend days later carries it, with the credentials current at the resend.
 */
export function startLogDelivery({ api, pageId, online$, reportStorage, observer }: LogDeliveryOptions, win: Window = window): LogDelivery {
  const subscriptions = new Subscription();
  const queue = createRetryQueue(createDatabase(logsDatabase(), { report: reportStorage }), { interfaceNumber: WEB_EMBEDDED_PLAYER_CLIENT_NAME_ID });
  const requestLog = createRequestLog(pageStorage(win));
  const logLine = requestLogWriter(requestLog);
  // The drain's events are logged (stored-log events), and logged events reach the sink, whose stores wake the drain:
  // this subject closes that loop.
  const retry$ = new Subject<RetryQueueEvent>();
  const logAnswer$ = new Subject<unknown>();
  const send = (request: ApiRequest) =>
    api.send(request).pipe(
      tap((response) => {
        if (request.url.includes('/log_event')) logAnswer$.next(response.body);
      }),
    );
  const sink = createLogSink({
    pageId,
    buildRequest: api.buildRequest,
    send,
    sendKeepalive: api.sendKeepalive,
    store: (request) => from(queue.enqueue(withoutCredentialTransferTokens(request))),
  });

  const deliver = (events$: Observable<ClientEvent>, flush$: Observable<unknown>) => {
    const outcome$ = sink(events$, flush$).pipe(share());
    subscriptions.add(
      outcome$.subscribe((outcome) => {
        logLine.settled(outcome);
        observer?.settled(outcome);
      }),
    );
    // One emission per request the sink stored, with the error of its send: a `Retry-After` on it holds the drain back.
    const stored$ = outcome$.pipe(
      filter((o) => o.type === 'stored' || o.type === 'deferred'),
      map((o) => (o.type === 'stored' ? o.error : undefined)),
    );
    subscriptions.add(
      retryQueueDrain({ queue, send, online$, stored$ }).subscribe((event) => {
        logLine.retried(event);
        observer?.retried(event);
        retry$.next(event);
      }),
    );
    return outcome$;
  };

  return { retry$: retry$.asObservable(), logAnswer$: logAnswer$.asObservable(), requestLog, queue, deliver, stop: () => subscriptions.unsubscribe() };
}
