import { animationFrames, filter, first, map, type Observable, type Subscription, switchMap, tap } from 'rxjs';
import type { ContextFacts } from './contextFacts';
import { randomPageId } from '../../../streams/logging/encodePageId';
import { logEventTier } from '../../../streams/logging/logEventTier';
import { pageLogEvents } from '../../../streams/logging/pageLogEvents';
import type { ClientEvent } from '../../../streams/logging/stampEvent';
import { dispatchAtTier } from '../../../streams/scheduler/dispatchAtTier';
import { idleCallback$ } from '../../../streams/scheduler/idleCallback';
import { storageCleanup, type StorageCleanupOptions } from '../../../streams/storage/storageCleanup';
import type { HostCommandReceipt } from '../../../streams/host/hostCommandReceipts';
import type { VisibilityState } from '../../../streams/visibility/visibilityState';
import type { PlayerFeed } from '../player/playerFeed';
import type { EmbedApi } from './api';
import { startBrowserState } from './browserState';
import { startConfigStore } from './configStore';
import { startLogDelivery } from './logDelivery';
import { pageSourcesOf } from './pageSources';
import { createStorageReports } from './storageReports';
import { createTelemetryDiagnostics, type TelemetryDiagnostics, type TelemetryProbe } from './telemetryDiagnostics';

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
   * The page's visibility, when the page recorded it from its start (logging starts after ready); by default telemetry
   * reads it from the document from its own start.
   */
  visibility$?: Observable<VisibilityState>;
}

/** The page's client logging, as the page uses it. */
export interface Telemetry {
  /** Random per page: the `serializedEventId` of every request and the prefix of every `clientEventId`. */
  readonly pageId: string;
  /** The context's `configInfo` (spec §3) from the stored hot and cold config, replaying the current value. */
  readonly configInfo$: Observable<ContextFacts['configInfo']>;
  /**
   * Hands every waiting event to the sink and sends the whole queue through keepalive, as a page disposal does: for a
   * page that was hidden (it may be discarded without notice) before its logging could start.
   */
  flush(): void;
  stop(): void;
}

/** The telemetry as started: the page's interface, and its diagnostics beside it. */
export type StartedTelemetry = Telemetry & { readonly diagnostics: TelemetryDiagnostics };

/** The sampling draws' source: the frame's `vidframeSampleRandom` when a script set one, else `Math.random`. */
const sampleRandomOf = (win: Window) => (): number => {
  const override = (win as Window & { vidframeSampleRandom?: unknown }).vidframeSampleRandom;
  return typeof override === 'function' ? Number(override()) : Math.random();
};

/** Hands each event to the sink at its delayed-event tier (spec §9), all at once at each `flush$`. */
function dispatchByTier(events$: Observable<ClientEvent>, win: Window, flush$: Observable<unknown>, probe: TelemetryProbe): Observable<ClientEvent> {
  return events$.pipe(
    tap((event) => probe.logged(event)),
    map((event) => ({ tier: logEventTier(event), event })),
    dispatchAtTier<ClientEvent>({ frames$: animationFrames(), idle$: idleCallback$(win as never), flush$, now: () => win.performance.now() }),
    tap((event) => probe.dispatched(event, logEventTier(event))),
  );
}

/** Old databases and expired records go once the player is ready, off the start-up path. */
function startStorageCleanup(readiness$: Observable<string>, expiring: StorageCleanupOptions['expiring']): Subscription {
  return readiness$
    .pipe(
      filter((r) => r === 'ready'),
      first(),
      switchMap(() => storageCleanup({ expiring })),
    )
    .subscribe();
}

/**
 * Starts the page's client logging (spec §1, §3, §7, §9): the viewing session's events, dispatched by tier and batched
 * into `log_event` requests with the client context; flushed through keepalive when the page is disposed; a failed
 * request stored in the IndexedDB retry queue and resent when the network is back; the config of `log_event` answers
 * stored, and its hashes the state {@link Telemetry.configInfo$}. The rules live in `streams/`; this is their wiring.
 */
export function startTelemetry(feed: PlayerFeed, api: EmbedApi, win: Window = window, options: TelemetryOptions = {}): StartedTelemetry {
  const pageId = randomPageId(win.crypto);
  const diagnosticsRecorder = createTelemetryDiagnostics();
  const storage = createStorageReports();
  const browser = startBrowserState(win, { visibility$: options.visibility$ });
  const delivery = startLogDelivery({ api, pageId, online$: browser.online$, reportStorage: storage.report, observer: diagnosticsRecorder.probe }, win);
  const config = startConfigStore(delivery.logAnswer$, storage.report);
  const page = pageSourcesOf(feed, win, {
    online$: browser.online$,
    visibility$: browser.visibility$,
    hostCommands$: options.hostCommands$,
    storageReport$: storage.reports$,
    retryOutcome$: delivery.retry$,
    random: options.random ?? sampleRandomOf(win),
  });
  const events$ = dispatchByTier(pageLogEvents(page.sources, feed.scheduler), win, browser.dispatcherFlush$, diagnosticsRecorder.probe);
  const outcome$ = delivery.deliver(events$, browser.sinkFlush$);
  const cleanup = startStorageCleanup(feed.readiness$, [delivery.queue, delivery.requestLog]);
  const diagnostics = diagnosticsRecorder.publish({
    pageId,
    outcome$,
    retry$: delivery.retry$,
    online$: browser.online$,
    visibility$: browser.visibility$,
    lifecycle$: browser.lifecycle$,
    storedConfig$: config.storedAtStart$,
    navigation$: page.navigation$,
    storageReport$: storage.reports$,
    attachCache: page.attachCache,
    requestLog: delivery.requestLog,
  });
  return {
    pageId,
    configInfo$: config.configInfo$,
    diagnostics,
    flush: () => browser.flush(),
    stop: () => {
      cleanup.unsubscribe();
      for (const part of [delivery, config, page, browser, diagnosticsRecorder]) part.stop();
    },
  };
}
