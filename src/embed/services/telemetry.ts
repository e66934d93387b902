import {
  animationFrames,
  BehaviorSubject,
  merge,
  ReplaySubject,
  skip,
  catchError,
  defer,
  distinctUntilChanged,
  filter,
  first,
  from,
  map,
  Observable,
  of,
  share,
  shareReplay,
  Subject,
  Subscription,
  switchMap,
  tap,
  EMPTY,
} from 'rxjs';
import type { PlayerConfig } from '../../../streams/config/playerConfig';
import { configInfoFrom, configInfoNamesHashesOf } from '../../../streams/config/configInfo';
import { WEB_EMBEDDED_PLAYER_CLIENT_NAME_ID } from '../../../streams/transport/clientIdentity';
import { createLogSink, type LogSinkOutcome } from '../../../streams/logging/createLogSink';
import { randomPageId } from '../../../streams/logging/encodePageId';
import { sessionEvents, type PlayerStateSnapshot } from '../../../streams/logging/sessionEvents';
import { playbackDebugEvents } from '../../../streams/logging/playbackDebugEvents';
import type { LoggedPlayerState } from '../../../streams/logging/playerEvents';
import { createDatabase } from '../../../streams/storage/createDatabase';
import { createConfigStore, type StoredConfig } from '../../../streams/storage/createConfigStore';
import { configDatabase } from '../../../streams/storage/configDatabase';
import { storageCleanup } from '../../../streams/storage/storageCleanup';
import type { StorageError } from '../../../streams/storage/StorageError';
import { logsDatabase } from '../../../streams/retry/logsDatabase';
import { createRetryQueue } from '../../../streams/retry/createRetryQueue';
import { retryQueueDrain, type RetryQueueEvent } from '../../../streams/retry/retryQueueDrain';
import { networkEvents$ } from '../../../streams/sources/networkEvents';
import { networkStatus } from '../../../streams/network/networkStatus';
import { pageLifecycleEvents$ } from '../../../streams/sources/pageLifecycleEvents';
import { pageLifecycleState, type PageLifecycleState } from '../../../streams/lifecycle/pageLifecycleState';
import { visibilityEvents$ } from '../../../streams/sources/visibilityEvents';
import { visibilityState, type VisibilityState } from '../../../streams/visibility/visibilityState';
import { dispatchAtTier } from '../../../streams/scheduler/dispatchAtTier';
import { DelayedEventTier } from '../../../streams/scheduler/delayedEventTier';
import { idleCallback$ } from '../../../streams/scheduler/idleCallback';
import { latencyReports, type LatencyTick } from '../../../streams/latency/latencyReports';
import type { ClientEvent } from '../../../streams/logging/stampEvent';
import { PlayerState } from '../../../streams/player/playerState';
import { withoutCredentialTransferTokens } from '../../../streams/transport/credentialTransferTokens';
import { navigationState, type NavigationState } from '../../../streams/navigation/navigationState';
import { navigationEvents, videoLoadEvents, visualElementEvents, type VideoLoad } from '../../../streams/logging/navigationEvents';
import { storageLogEvents, storedLogEvents } from '../../../streams/logging/storageLogEvents';
import { visualElementAttachCache, type BoundedCache } from '../../../streams/sampling/visualElementAttachCache';
import { createRequestLog, type RequestLog } from '../../../streams/retry/requestLog';
import type { HostCommandReceipt } from '../../../streams/host/hostCommandReceipts';
import { pageStorage } from './pageStorage';
import type { MediaFacts, PlayerFeed } from '../player/playerFeed';
import type { EmbedApi } from './api';

/**
 * The delayed-event tier of each logged event (spec §9), by name; every event not named waits at `DEFAULT` for the
 * main thread to be idle (at most the idle timeout), so the bulk of telemetry never competes with playback for a frame.
 *
 * - `IMMEDIATE`: a player error, at once (the page may be about to go).
 * - `FAST`: what the host or the viewer just did — a host command received, a navigation starting or ending. One
 *   event each, in the next frame ahead of the idle backlog that a load causes, so the cause is in the sink before the
 *   burst of state changes it brings about.
 * - `DISPATCH_TO_EMPTY`: changes of the page's situation — visibility, network, a new video loaded — in the next frame
 *   once no `FAST` event waits: a page turning hidden or losing its network is about to stop giving idle time. The
 *   session's opening `playerLoad` is at this tier too, logged first, so it stays the first event of the session.
 *
 * Every event keeps its `eventTimeMs`; within one tier the order is the order they happened.
 */
const EVENT_TIERS: Readonly<Record<string, DelayedEventTier>> = {
  playerError: DelayedEventTier.IMMEDIATE,
  hostCommandReceived: DelayedEventTier.FAST,
  navigationStateChange: DelayedEventTier.FAST,
  playerLoad: DelayedEventTier.DISPATCH_TO_EMPTY,
  visibilityChange: DelayedEventTier.DISPATCH_TO_EMPTY,
  networkChange: DelayedEventTier.DISPATCH_TO_EMPTY,
  videoLoad: DelayedEventTier.DISPATCH_TO_EMPTY,
};
export const tierOf = (event: ClientEvent): DelayedEventTier => EVENT_TIERS[event.name] ?? DelayedEventTier.DEFAULT;

/** What the page hands to its telemetry besides the player and the API client. */
export interface TelemetryOptions {
  /** Every host command the host bridge received (`hostCommandReceived`). */
  hostCommands$?: Observable<HostCommandReceipt>;
  /**
   * The random source of the sampling draws (stored logs 10 %, storage events 20 %). Default: the frame's
   * `window.vidframeSampleRandom` when a script of the frame set one (the browser tests force a draw in or out with an
   * init script), else `Math.random`, read at each draw.
   */
  random?: () => number;
  /**
   * The page's visibility, when the page recorded it from its start (issue 15: logging starts after ready); by
   * default telemetry reads it from the document from its own start.
   */
  visibility$?: Observable<VisibilityState>;
}

/** An event as the tier dispatcher handed it to the sink, with its tier. */
export interface DispatchedEvent {
  name: string;
  tier: DelayedEventTier;
  payload: unknown;
}

/** What the page's telemetry exposes, for diagnostics and the browser tests. */
export interface Telemetry {
  /** What happened to each log request the sink built (sent, stored in the retry queue, …). */
  readonly outcome$: Observable<LogSinkOutcome>;
  /** What the retry queue's drain did. */
  readonly retry$: Observable<RetryQueueEvent>;
  /** The network status (browser events confirmed by the generate_204 probe). */
  readonly online$: Observable<boolean>;
  /** The page's visibility (spec §4), from the document's visibility and the window's focus and blur. */
  readonly visibility$: Observable<VisibilityState>;
  /** The page lifecycle state (spec §4); a disposal state is followed by `document_active` in the same tick. */
  readonly lifecycle$: Observable<PageLifecycleState>;
  /** The hot and cold configuration stored from `log_event` responses (spec §3), as read at start-up. */
  readonly storedConfig$: Observable<StoredConfig | undefined>;
  /** Random per page: the `serializedEventId` of every request and the prefix of every `clientEventId`. */
  readonly pageId: string;
  /**
   * Counts for diagnostics: events logged, events whose request has an outcome (sent, stored, …), requests sent,
   * stored for retry, resent from the queue. `events - eventsSettled` is what still waits (for an idle slot, in the
   * batch queue) or is in flight.
   */
  readonly counts: { events: number; eventsSettled: number; sent: number; stored: number; resent: number };
  /** Storage reports of this page (`DB_DELETED_BY_MISSING_OBJECT_STORES`, a fallback to memory, …), in order. */
  readonly storageReports: readonly { type: string; message: string }[];
  /** Application navigation (spec §4), replaying the current state. */
  readonly navigation$: Observable<NavigationState>;
  /** Each event as the tier dispatcher hands it to the sink (hot). */
  readonly dispatched$: Observable<DispatchedEvent>;
  /** The tier each event name was last dispatched at. */
  readonly dispatchedTiers: Readonly<Record<string, number>>;
  /** The visual-element attach cache (spec §9, 1000 entries). */
  readonly attachCache: Pick<BoundedCache<string, true>, 'size' | 'limit' | 'has'>;
  /** The request log (spec §9, 1 day): what became of each log request of this origin. */
  readonly requestLog: RequestLog;
  /**
   * Hands every waiting event to the sink and sends the whole queue through keepalive, as a page disposal does: for a
   * page that was hidden (it may be discarded without notice) before its logging could start.
   */
  flush(): void;
  stop(): void;
}

/** The probe that tells a live network from a captive or dead one: the reference server answers 204. */
const generate204Probe = (win: Window) => () =>
  defer(() => from(win.fetch('/generate_204', { cache: 'no-store' }).then((r) => r.status === 204))).pipe(catchError(() => of(false)));

/** Where the embedding page lives: the `origin` player variable, else the loader URL's origin. */
function hostOriginOf(config: PlayerConfig): string | undefined {
  if (config.args.playerVars.origin) return config.args.playerVars.origin;
  try {
    return config.args.loaderUrl ? new URL(config.args.loaderUrl).origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts the page's client logging (spec §1, §3, §7, §9): the viewing session's events, batched into `log_event`
 * requests with the client context; flushed through keepalive when the page is disposed; a failed request stored in
 * the IndexedDB retry queue and resent when the network is back; the config of `log_event` responses stored.
 * This is the page's one sink layer: the pure parts live in `streams/`.
 */
export function startTelemetry(feed: PlayerFeed, api: EmbedApi, win: Window = window, options: TelemetryOptions = {}): Telemetry {
  const { config } = feed;
  const random =
    options.random ??
    (() => {
      const override = (win as Window & { vidframeSampleRandom?: unknown }).vidframeSampleRandom;
      return typeof override === 'function' ? Number(override()) : Math.random();
    });
  const subscriptions = new Subscription();
  const counts = { events: 0, eventsSettled: 0, sent: 0, stored: 0, resent: 0 };
  const pageId = randomPageId(win.crypto);
  const storageReports: { type: string; message: string }[] = [];
  // Replayed: the databases may report before the event pipeline below subscribes.
  const storageReport$ = new ReplaySubject<{ type: string; message: string }>();
  const reportStorage = (error: StorageError) => {
    storageReports.push({ type: error.type, message: error.message });
    storageReport$.next({ type: error.type, message: error.message });
    console.warn('[vidframe] storage:', error.type, error.message);
  };

  // ── Browser state ────────────────────────────────────────────────────────────────────────────────────────────
  const online$ = networkStatus(networkEvents$(win), { readOnLine: () => win.navigator.onLine, probe: generate204Probe(win) }).pipe(
    map((s) => s === 'online'),
    distinctUntilChanged(),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
  const onlineNow = new BehaviorSubject<boolean>(win.navigator.onLine);
  subscriptions.add(online$.subscribe(onlineNow));

  const lifecycle$ = pageLifecycleState(pageLifecycleEvents$(win)).pipe(share());
  // On disposal, two flushes in this order: first the tier dispatcher hands over every event it still holds, then
  // the log sink sends its whole queue through keepalive. One subscriber fans out, so the order cannot change.
  const dispatcherFlush$ = new Subject<PageLifecycleState>();
  const sinkFlush$ = new Subject<PageLifecycleState>();
  subscriptions.add(
    lifecycle$.pipe(filter((s) => s !== 'document_active')).subscribe((s) => {
      dispatcherFlush$.next(s);
      sinkFlush$.next(s);
    }),
  );
  const readVisibility = () => win.document.visibilityState;
  const visibility$ = options.visibility$ ?? visibilityState(visibilityEvents$({ document: win.document, window: win }, readVisibility), { readVisibility });

  // ── Transport, retry queue, config store ─────────────────────────────────────────────────────────────────────
  // The page's one API client (`api.ts`) carries the viewer's identity and the stream token (issue 12) on every log
  // request; the token is part of the request the retry queue stores, so a resend days later carries it too, while
  // the credentials are the ones current at the resend.
  const transport = api;
  const logsDb = createDatabase(logsDatabase(), { report: reportStorage });
  const queue = createRetryQueue(logsDb, { interfaceNumber: WEB_EMBEDDED_PLAYER_CLIENT_NAME_ID });
  const configStore = createConfigStore(createDatabase(configDatabase(), { report: reportStorage }));
  const storedConfig$ = from(configStore.read().catch(() => undefined)).pipe(shareReplay({ bufferSize: 1, refCount: false }));
  // The stored hot/cold config hashes go into every later request's context (spec §3 configInfo).
  subscriptions.add(storedConfig$.subscribe((stored) => (api.facts.configInfo = configInfoFrom(stored))));

  /** Sends a request; a `log_event` answer may carry the hot and cold config (spec §7), which is stored. */
  const send = (request: Parameters<typeof transport.send>[0]) =>
    transport.send(request).pipe(
      tap((response) => {
        if (request.url.includes('/log_event')) {
          // Read back when the store changed, or when the facts do not name the answer's hashes yet (a read that
          // failed): a response repeating the config the facts already name costs no transaction at all.
          void configStore
            .writeFromResponse(response.body)
            .then((written) => (written.hot || written.cold || !configInfoNamesHashesOf(api.facts.configInfo, response.body) ? configStore.read() : undefined))
            .then((stored) => {
              if (stored) api.facts.configInfo = configInfoFrom(stored) ?? api.facts.configInfo;
            })
            .catch(() => undefined);
        }
      }),
    );

  // The request log (spec §9): one line per log request, kept 1 day in the frame's storage.
  const requestLog = createRequestLog(pageStorage(win));
  const logRequest = (endpoint: string, outcome: string, eventCount: number) => {
    try {
      requestLog.append({ timeMs: Date.now(), endpoint: endpoint.includes('video_stats') ? 'video_stats' : 'log_event', outcome, eventCount });
    } catch {
      /* a full or refused storage loses the log line, never the request */
    }
  };
  /** How many events a stored request carries (its body is the JSON the sink built). */
  const eventCountOf = (request: { options: { body: string } }) => {
    try {
      const events = (JSON.parse(request.options.body) as { events?: unknown }).events;
      return Array.isArray(events) ? events.length : 0;
    } catch {
      return 0;
    }
  };
  /** What the retry queue's drain did, for the stored-log events (the drain is built after the event pipeline). */
  const retryOutcome$ = new Subject<RetryQueueEvent>();

  /** One emission per request the sink stored, with the error of its send: a `Retry-After` on it holds the drain back. */
  const stored$ = new Subject<unknown>();
  const sink = createLogSink({
    pageId,
    buildRequest: transport.buildRequest,
    send,
    sendKeepalive: transport.sendKeepalive,
    // A credential is not kept on disk for the queue's 30 days: a stored request is resent without its transfer tokens.
    store: (request) => from(queue.enqueue(withoutCredentialTransferTokens(request))),
  });

  // ── The viewing session ──────────────────────────────────────────────────────────────────────────────────────
  // Everything about the player comes from its feed: recorded from the page's start when the logging starts late
  // (issue 15), with the element's facts as they were and `feed.now()` telling when each thing happened.
  const clock = feed.scheduler;
  const media$ = feed.media$.pipe(share());
  // A seek goes from the last time played to where the element is seeking: the feed says where it started (it passes
  // no time updates, issue 15).
  const seek$ = media$.pipe(
    filter((e) => e.type === 'seeking'),
    map((e) => ({ fromSec: e.fromSec ?? 0, toSec: e.target.currentTime })),
  );
  const volume$ = media$.pipe(
    filter((e) => e.type === 'attached' || e.type === 'volumechange'),
    map((e) => ({ volume: Math.round(e.target.volume * 100), muted: e.target.muted })),
  );
  const playbackRate$ = media$.pipe(
    filter((e) => e.type === 'attached' || e.type === 'ratechange'),
    map((e) => e.target.playbackRate),
  );
  const snapshotOf = ({ state, media }: { state: number; media: MediaFacts | undefined }): PlayerStateSnapshot => ({
    state: state as LoggedPlayerState,
    mediaTimeSec: media?.currentTime ?? 0,
    playbackRate: media?.playbackRate ?? 1,
    muted: media?.muted ?? false,
    volume: Math.round((media?.volume ?? 1) * 100),
  });

  // Latency (spec §9): ticks of the embed's start-up, reported as spans through logging.
  const ticks$ = merge(
    of<LatencyTick>({ action: 'embed', name: 'navigationStart', time: win.performance.timeOrigin }),
    feed.readiness$.pipe(
      filter((r) => r === 'ready'),
      first(),
      map((): LatencyTick => ({ action: 'embed', name: 'playerReady', time: feed.now() })),
    ),
    feed.state$.pipe(
      filter(({ state }) => state === PlayerState.PLAYING),
      first(),
      map((): LatencyTick => ({ action: 'embed', name: 'firstPlaying', time: feed.now() })),
    ),
  );
  const latency$ = latencyReports(ticks$, {
    spans: [
      { action: 'embed', from: 'navigationStart', to: 'playerReady' },
      { action: 'embed', from: 'navigationStart', to: 'firstPlaying' },
    ],
    scheduler: clock,
  });

  // Debugging events (`video_stats`, spec §7): stalls, media errors with their MediaError code, rendition switches.
  const currentVideoId = new BehaviorSubject<string>(config.args.video_id);
  subscriptions.add(
    feed.videoData$
      .pipe(
        filter((d): d is NonNullable<typeof d> => d !== null),
        map((d) => d.videoId),
      )
      .subscribe((id) => currentVideoId.next(id)),
  );
  const videoIdNow = () => currentVideoId.value;
  const debug$ = playbackDebugEvents({
    state$: feed.state$.pipe(map(({ state, media }) => ({ videoId: videoIdNow(), state: state as LoggedPlayerState, mediaTimeSec: media?.currentTime ?? 0 }))),
    mediaError$: media$.pipe(
      // An element without a source fires error too (the player clears it): only a failing source is a media error.
      filter((e) => e.type === 'error' && e.target.error !== null && e.target.hasSource),
      map((e) => ({ videoId: videoIdNow(), code: e.target.error!.code, message: e.target.error!.message, mediaTimeSec: e.target.currentTime })),
    ),
    quality$: feed.quality$.pipe(map((quality) => ({ videoId: videoIdNow(), quality }))),
    scheduler: clock,
  });

  // Video loads (spec §3 load options, with rct / rctn) and application navigation (spec §4): every load after the
  // player is ready — a host load or cue, a playlist move — starts a navigation.
  const loads$: Observable<VideoLoad> = feed.model$.pipe(
    distinctUntilChanged((a, b) => a.loadSeq === b.loadSeq),
    map((m) => ({ videoId: m.videoId, referral: m.referral ?? null })),
  );
  const navigationLoads$ = feed.readiness$.pipe(
    filter((r) => r === 'ready'),
    first(),
    switchMap(() => loads$.pipe(skip(1))),
    share(),
  );
  const navigation$ = navigationState(navigationLoads$).pipe(shareReplay({ bufferSize: 1, refCount: false }));
  subscriptions.add(navigation$.subscribe());
  const attachCache = visualElementAttachCache<string, true>();
  const shownVideoIds$ = feed.videoData$.pipe(
    filter((d): d is NonNullable<typeof d> => d !== null),
    map((d) => d.videoId),
  );

  const dispatched$ = new Subject<DispatchedEvent>();
  const dispatchedTiers: Record<string, number> = {};

  const events$ = merge(
    sessionEvents({
      videoId: config.args.video_id,
      autoplay: config.args.autoplay !== '0',
      hostOrigin: hostOriginOf(config),
      playerStyle: config.args.ps,
      state$: feed.state$.pipe(map(snapshotOf)),
      readyLatencyMs$: feed.readiness$.pipe(
        filter((r) => r === 'ready'),
        map(() => feed.now() - win.performance.timeOrigin) /* ms since navigation start */,
      ),
      error$: feed.error$.pipe(
        filter((e): e is NonNullable<typeof e> => e !== null),
        distinctUntilChanged(),
      ),
      seek$,
      volume$,
      playbackRate$,
      quality$: feed.format ? of(feed.format.quality) : EMPTY,
      visibility$,
      online$,
      latency$,
      hostCommand$: options.hostCommands$,
    }),
    debug$,
    // navigation$ replays its current state (`none` at start-up), which navigationEvents does not log.
    navigationEvents(navigation$),
    videoLoadEvents(navigationLoads$),
    visualElementEvents(shownVideoIds$, attachCache),
    storageLogEvents(storageReport$, { random }),
    storedLogEvents(retryOutcome$, { random }),
  ).pipe(
    // Timed when it happened, not when the idle slot hands it to the sink.
    map((event): ClientEvent => ({ ...event, eventTimeMs: feed.now() })),
    tap(() => counts.events++),
    map((event) => ({ tier: tierOf(event), event })),
    dispatchAtTier<ClientEvent>({
      frames$: animationFrames(),
      idle$: idleCallback$(win as never),
      flush$: dispatcherFlush$,
      now: () => win.performance.now(),
    }),
    tap((event) => {
      const tier = tierOf(event);
      dispatchedTiers[event.name] = tier;
      dispatched$.next({ name: event.name, tier, payload: event.payload });
    }),
  );

  const outcome$ = sink(events$, sinkFlush$).pipe(
    tap((o) => {
      counts.eventsSettled += o.type === 'buildFailed' ? o.events.length : o.eventCount;
      if (o.type === 'sent') counts.sent++;
      if (o.type === 'buildFailed') logRequest('log_event', o.type, o.events.length);
      else logRequest(o.request.url, o.type, o.eventCount);
      if (o.type === 'stored' || o.type === 'deferred') {
        counts.stored++;
        stored$.next(o.type === 'stored' ? o.error : undefined);
      }
    }),
    share(),
  );
  subscriptions.add(outcome$.subscribe());

  const retry$ = retryQueueDrain({ queue, send, online$, stored$ }).pipe(
    tap((e) => {
      if (e.type === 'sent') counts.resent++;
      if (e.type === 'sent') logRequest(e.request.url, 'resent', eventCountOf(e.request));
      if (e.type === 'failed' && e.outcome === 'dropped') logRequest(e.request.url, 'dropped', eventCountOf(e.request));
      retryOutcome$.next(e);
    }),
    share(),
  );
  subscriptions.add(retry$.subscribe());

  // Old databases and expired records go once the player is ready, off the start-up path.
  subscriptions.add(
    feed.readiness$
      .pipe(
        filter((r) => r === 'ready'),
        first(),
        switchMap(() => storageCleanup({ expiring: [queue, requestLog] })),
      )
      .subscribe(),
  );

  return {
    outcome$,
    retry$,
    online$,
    visibility$,
    lifecycle$,
    storedConfig$,
    pageId,
    counts,
    storageReports,
    navigation$,
    dispatched$: dispatched$.asObservable(),
    dispatchedTiers,
    attachCache,
    requestLog,
    flush: () => {
      dispatcherFlush$.next('document_disposed_preventable');
      sinkFlush$.next('document_disposed_preventable');
    },
    stop: () => subscriptions.unsubscribe(),
  };
}
