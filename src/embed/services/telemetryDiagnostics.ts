import { type Observable, Subject, Subscription } from 'rxjs';
import type { PageLifecycleState } from '../../../streams/lifecycle/pageLifecycleState';
import type { LogSinkOutcome } from '../../../streams/logging/createLogSink';
import type { ClientEvent } from '../../../streams/logging/stampEvent';
import type { NavigationState } from '../../../streams/navigation/navigationState';
import type { RequestLog } from '../../../streams/retry/requestLog';
import type { RetryQueueEvent } from '../../../streams/retry/retryQueueDrain';
import type { BoundedCache } from '../../../streams/sampling/visualElementAttachCache';
import type { DelayedEventTier } from '../../../streams/scheduler/delayedEventTier';
import type { StoredConfig } from '../../../streams/storage/createConfigStore';
import type { VisibilityState } from '../../../streams/visibility/visibilityState';
import type { DeliveryObserver } from './logDelivery';

declare global {
  interface Window {
    /** What the page's logging did, for diagnostics and the browser tests (not read by the page itself). */
    vidframeTelemetryDiagnostics?: TelemetryDiagnostics;
  }
}

/** An event as the tier dispatcher handed it to the sink, with its tier. */
export interface DispatchedEvent {
  name: string;
  tier: DelayedEventTier;
  payload: unknown;
}

/** Counts of what the logging did. */
export interface TelemetryCounts {
  /** Events logged. */
  events: number;
  /** Events whose request has an outcome (sent, stored, …): `events - eventsSettled` still wait or are in flight. */
  eventsSettled: number;
  /** Requests sent. */
  sent: number;
  /** Requests stored for retry (after a failed send, or beyond the keepalive budget). */
  stored: number;
  /** Requests resent from the queue. */
  resent: number;
}

/** What the page's logging did and holds, for diagnostics and the browser tests. */
export interface TelemetryDiagnostics {
  /** Random per page: the `serializedEventId` of every request and the prefix of every `clientEventId`. */
  readonly pageId: string;
  /** What happened to each log request the sink built (sent, stored in the retry queue, …). */
  readonly outcome$: Observable<LogSinkOutcome>;
  /** What the retry queue's drain did. */
  readonly retry$: Observable<RetryQueueEvent>;
  /** The network status (browser events confirmed by the generate_204 probe). */
  readonly online$: Observable<boolean>;
  /** The page's visibility (spec §4). */
  readonly visibility$: Observable<VisibilityState>;
  /** The page lifecycle state (spec §4); a disposal state is followed by `document_active` in the same tick. */
  readonly lifecycle$: Observable<PageLifecycleState>;
  /** The hot and cold configuration stored from `log_event` responses (spec §3), as read at start-up. */
  readonly storedConfig$: Observable<StoredConfig | undefined>;
  /** Application navigation (spec §4), replaying the current state. */
  readonly navigation$: Observable<NavigationState>;
  /** Each event as the tier dispatcher hands it to the sink (hot). */
  readonly dispatched$: Observable<DispatchedEvent>;
  /** The tier each event name was last dispatched at. */
  readonly dispatchedTiers: Readonly<Record<string, number>>;
  readonly counts: Readonly<TelemetryCounts>;
  /** Storage reports of this page (`DB_DELETED_BY_MISSING_OBJECT_STORES`, a fallback to memory, …), in order. */
  readonly storageReports: readonly { type: string; message: string }[];
  /** The visual-element attach cache (spec §9, 1000 entries). */
  readonly attachCache: Pick<BoundedCache<string, true>, 'size' | 'limit' | 'has'>;
  /** The request log (spec §9, 1 day): what became of each log request of this origin. */
  readonly requestLog: RequestLog;
}

/** Told of each event as it is logged and as it is dispatched, and of every settled request and resend. */
export interface TelemetryProbe extends DeliveryObserver {
  logged(event: ClientEvent): void;
  dispatched(event: ClientEvent, tier: DelayedEventTier): void;
}

/** The streams and state of the logging the diagnostics show as they are. */
export type DiagnosedParts = Omit<TelemetryDiagnostics, 'dispatched$' | 'dispatchedTiers' | 'counts' | 'storageReports'> & {
  storageReport$: Observable<{ type: string; message: string }>;
};

/** The page's telemetry diagnostics: the probe the logging tells, and the view over it once the logging is built. */
export interface TelemetryDiagnosticsRecorder {
  readonly probe: TelemetryProbe;
  /** The diagnostics over `parts`; the storage reports are followed until {@link stop}. */
  publish(parts: DiagnosedParts): TelemetryDiagnostics;
  stop(): void;
}

/** Counts and keeps what the logging does, outside the logging's own interface. */
export function createTelemetryDiagnostics(): TelemetryDiagnosticsRecorder {
  const counts: TelemetryCounts = { events: 0, eventsSettled: 0, sent: 0, stored: 0, resent: 0 };
  const dispatched$ = new Subject<DispatchedEvent>();
  const dispatchedTiers: Record<string, number> = {};
  const storageReports: { type: string; message: string }[] = [];
  const subscriptions = new Subscription();
  const probe: TelemetryProbe = {
    logged: () => void counts.events++,
    dispatched(event, tier) {
      dispatchedTiers[event.name] = tier;
      dispatched$.next({ name: event.name, tier, payload: event.payload });
    },
    settled(o) {
      counts.eventsSettled += o.type === 'buildFailed' ? o.events.length : o.eventCount;
      if (o.type === 'sent') counts.sent++;
      if (o.type === 'stored' || o.type === 'deferred') counts.stored++;
    },
    retried(e) {
      if (e.type === 'sent') counts.resent++;
    },
  };
  return {
    probe,
    publish({ storageReport$, ...parts }) {
      subscriptions.add(storageReport$.subscribe((report) => storageReports.push(report)));
      return { ...parts, dispatched$: dispatched$.asObservable(), dispatchedTiers, counts, storageReports };
    },
    stop: () => subscriptions.unsubscribe(),
  };
}
