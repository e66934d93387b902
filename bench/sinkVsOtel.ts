/**
 * The logging sink against OpenTelemetry's `BatchLogRecordProcessor`, on the same events, in the same run.
 *
 * - VidFrame: `createLogSink` with the production batching constants on a virtual clock, stamping each event, cutting
 *   batches of at most `LOG_BATCH_MAX_EVENTS` and building each request (its JSON body serialised), as the page does.
 * - OTel: a `LoggerProvider` with a `BatchLogRecordProcessor` (batches of the same size, a queue large enough that
 *   nothing is dropped), whose exporter serialises each batch with the OTLP-JSON serialiser
 *   (`JsonLogsSerializer` of `@opentelemetry/otlp-transformer`), then `forceFlush()`.
 *
 * Both see the same event objects; rounds alternate between the two; every event must come out (counted), so neither
 * side can win by dropping. `@opentelemetry/*` are dev dependencies used only here.
 *
 * The virtual clock starts at the wall-clock time of the run, not at 0: the page stamps events with `Date.now()`
 * (epoch milliseconds, which V8 writes through its slower double-to-text path), and OTel stamps its records with the
 * real time too; starting at 0 would make every `eventTimeMs` and `requestTimeMs` of our bodies a cheap `0`. And it follows
 * the wall clock: every time the sink asks the time, it reads `Date.now()` ({@link WallClockScheduler}), as the page's
 * sink does (once per event: the time it stamps an event with is the time it queues it at), and as many events share a millisecond as
 * really do at this rate (OTel reads a new time for every record too). A clock standing still for a whole round lets
 * every event reuse the one envelope text the writer keeps per `eventTimeMs`, and read no clock at all: that figure
 * (`vidframeSameMillisecond`) is kept as a diagnostic.
 *
 * The page id is the sink's own random one, of the length the page's has (a shorter one would make every
 * `clientEventId` shorter than the page's).
 *
 * Each request is built the way the page builds it: by the page's API client (`createEmbedApi` of
 * `src/embed/services/api.ts`, whose `buildRequest` the page's telemetry hands to the sink), which reads its settings for every
 * request — the client context from the environment (a desktop Chrome's: user agent, client hints, screen, frame
 * size, connection, visibility, display mode) and the page's facts (visitor id, experiments token, the stored config
 * hashes, the ad status), the anti-forgery field, the API key and the stream token — with the window and identity
 * faked ({@link pageApi}). A context built once and shared by every request would skip what
 * the page does per request and serialise a context smaller than the page's.
 *
 * What changes from one request to the next in the page: nothing by construction (no timestamp or counter is in the
 * context; `requestTimeMs` and the counter are in the payload). The context follows the frame size, visibility,
 * connection, UTC offset, history length and display mode, and the page's facts (visitor id, config hashes,
 * consistency jars, anonymous id, ad status); the page's API client reuses one context, and its text, while all of
 * those are equal by value (`createClientContextCache`) and builds a new one when any changes. None changes between
 * the requests of this run, as none does between the requests of a page playing on: every request here is a reuse
 * (the first request of the page, in the warm-up, builds it), and every request still reads its settings.
 *
 * `serialiseOnly` is a reference, not a contender: `JSON.stringify` alone on the very bodies the sink built (captured
 * in the warm-up), timed in the same rounds — the most any sink that sends these bodies as JSON could reach here.
 */
import { performance } from 'node:perf_hooks';
import { of, Subject, VirtualTimeScheduler } from 'rxjs';
import { LoggerProvider, BatchLogRecordProcessor, type LogRecordExporter, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { JsonLogsSerializer } from '@opentelemetry/otlp-transformer';
import { createLogSink } from '../streams/logging/createLogSink';
import { WallClockScheduler } from './wallClockScheduler';
import type { ClientEvent } from '../streams/logging/stampEvent';
import { playerEvents } from '../streams/logging/playerEvents';
import type { ApiRequest } from '../streams/transport/buildApiRequest';
import { createEmbedApi } from '../src/embed/services/api';
import type { Identity } from '../src/embed/services/identity';
import type { EmbedApi } from '../src/embed/services/api';
import { configFor } from '../test/streams/player/fixtures';
import { LOG_BATCH_MAX_EVENTS } from '../streams/timing';
import { spread, type Spread } from './spread';

export interface SinkComparison {
  events: number;
  rounds: number;
  /** The virtual clock following the wall clock event by event (see the header): the figure the target is judged on. */
  vidframe: Spread;
  /** The same with the clock standing still during a round: every event in one millisecond (a diagnostic). */
  vidframeSameMillisecond: Spread;
  otel: Spread;
  /** Events per second of `JSON.stringify` alone on the same request bodies (see the header). */
  serialiseOnly: Spread;
  vidframeRequests: number;
  otelBatches: number;
}

const makeEvents = (n: number): ClientEvent[] =>
  Array.from({ length: n }, (_, i) =>
    i % 3 === 0
      ? playerEvents.stateChange({ videoId: 'VFsunrise01', previousState: 1, state: 2, mediaTimeSec: i })
      : i % 3 === 1
        ? playerEvents.seek({ videoId: 'VFsunrise01', fromSec: i, toSec: i + 1 })
        : playerEvents.volumeChange({ videoId: 'VFsunrise01', volume: i % 100, muted: false }),
  );

/** The bodies (as objects, parsed back) of the requests the sink built, for `serialiseOnly`. */
type Body = Record<string, unknown>;

/** A desktop Chrome's window, as far as the page's API client reads it (`readClientEnvironment`, `navigator.onLine`). */
function desktopWindow(epochMs: number): Window {
  const win = {
    navigator: {
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      language: 'en-US',
      onLine: true,
      connection: { effectiveType: '4g' },
      userAgentData: {
        brands: [
          { brand: 'Google Chrome', version: '131' },
          { brand: 'Chromium', version: '131' },
          { brand: 'Not_A Brand', version: '24' },
        ],
        mobile: false,
        platform: 'Linux',
      },
    },
    screen: { width: 1920, height: 1080, availWidth: 1920, availHeight: 1050, colorDepth: 24 },
    innerWidth: 640,
    innerHeight: 360,
    devicePixelRatio: 1,
    matchMedia: (query: string) => ({ matches: query === '(display-mode: browser)' }),
    history: { length: 2 },
    document: { visibilityState: 'visible' },
    top: {},
    performance: { timeOrigin: epochMs - 5_000.25 },
    fetch: () => Promise.reject(new Error('the benchmark sends nothing')),
  };
  return Object.assign(win, { self: win }) as unknown as Window;
}

/** An anonymous viewer with the visitor id the server handed out. */
const anonymousViewer = (): Identity =>
  ({
    visitorData: () => 'CgtWaWRGcmFtZVYxMiiBp4q7BjIKCgJVUxIEGgAgYQ%3D%3D',
    credentials: () => ({}),
    delegatedSessionId: () => undefined,
    consistencyTokenJars: () => [],
    absorbResponse: () => undefined,
  }) as unknown as Identity;

/**
 * The page's API client on a desktop window (see the header): its configuration as the server writes it (anti-forgery
 * token, API key, stream token) and the facts a page has once its first `log_event` answer came back (the stored
 * config hashes) and the ad-status check ran.
 */
function pageApi(epochMs: number) {
  const base = configFor({ hl: 'en', enablejsapi: '1', origin: 'https://host.example' });
  const config = {
    ...base,
    args: {
      ...base.args,
      xsrf_token: 'v1.k1.QUFFLUhqbTZ4dGVzdHNlc3Npb250b2tlbg.1763950000.c2lnbmF0dXJl',
      innertube_api_key: 'AIzaSyVidFrame-reference-key-0001',
      stream_token: 'v1.k1.c3RyZWFtLTAxSkZWMlE3WDhZOVo.1763950000.c2lnbmF0dXJlLXN0cmVhbQ',
    },
  };
  const api = createEmbedApi(desktopWindow(epochMs), config, anonymousViewer());
  api.followContext({
    configInfo$: of({
      hotHashData: 'q3Vd0m8cJ8b7nBvYj1mN0tQ2kE5rW9xZyA4sL6uP3hG',
      coldHashData: 'Zt7pL2aQ9wE4rT6yU8iO0pA1sD3fG5hJ7kL9zX2cV4b',
      coldConfigData: 'mN8bV6cX4zL2kJ0hG9fD7sA5pO3iU1yT8rE6wQ4eR2t',
    }),
    adStatus$: of(1),
  });
  return api;
}

/** Events per second through the VidFrame sink, and how many events its requests carried. */
function runVidframe(
  events: ClientEvent[],
  epochMs: number,
  api: EmbedApi,
  { clock = 'wall', capture }: { clock?: 'wall' | 'still'; capture?: Body[] } = {},
): { perSecond: number; requests: number; carried: number } {
  const scheduler = clock === 'wall' ? new WallClockScheduler() : new VirtualTimeScheduler();
  scheduler.frame = epochMs; // the page's clock reads epoch milliseconds (see the header)
  const events$ = new Subject<ClientEvent>();
  let requests = 0;
  let carried = 0;
  const sink = createLogSink({
    // The page's telemetry hands the sink `api.buildRequest` itself (src/embed/services/telemetry.ts); the warm-up keeps the bodies.
    buildRequest: capture
      ? (endpoint, payload) => {
          const request: ApiRequest = api.buildRequest(endpoint, payload);
          capture.push(JSON.parse(request.options.body) as Body);
          return request;
        }
      : api.buildRequest,
    send: () => {
      requests++;
      return [];
    },
    store: () => undefined,
    scheduler,
    // No page id given: the sink draws a random one, as the page does (a short fixed one made every id cheaper).
  });
  const t0 = performance.now();
  // What went out is counted from the sink's outcomes, as the page's telemetry counts it: each `sent` outcome names how
  // many events its request carried (the events array handed to `buildRequest`); anything else is a failure here.
  let failed: string | undefined;
  const sub = sink(events$).subscribe((outcome) => {
    if (outcome.type === 'sent') carried += outcome.eventCount;
    else failed ??= outcome.type;
  });
  for (const e of events) events$.next(e);
  events$.complete();
  scheduler.flush();
  const t1 = performance.now();
  sub.unsubscribe();
  if (failed) throw new Error(`a request of the VidFrame sink was ${failed}`);
  return { perSecond: (events.length / (t1 - t0)) * 1000, requests, carried };
}

class SerialisingExporter implements LogRecordExporter {
  batches = 0;
  records = 0;
  bytes = 0;
  export(logs: ReadableLogRecord[], resultCallback: (result: { code: number }) => void): void {
    const body = JsonLogsSerializer.serializeRequest(logs);
    this.bytes += body?.length ?? 0;
    this.batches++;
    this.records += logs.length;
    resultCallback({ code: 0 });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

async function runOtel(events: ClientEvent[]): Promise<{ perSecond: number; batches: number; carried: number }> {
  const exporter = new SerialisingExporter();
  const provider = new LoggerProvider({
    processors: [
      new BatchLogRecordProcessor({
        exporter,
        maxExportBatchSize: LOG_BATCH_MAX_EVENTS,
        maxQueueSize: events.length,
        scheduledDelayMillis: 60_000,
      }),
    ],
  });
  const logger = provider.getLogger('vidframe-bench');
  const t0 = performance.now();
  for (const e of events) {
    logger.emit({ eventName: e.name, body: e.payload as never, attributes: { 'event.name': e.name } });
  }
  await provider.forceFlush();
  const t1 = performance.now();
  await provider.shutdown();
  return { perSecond: (events.length / (t1 - t0)) * 1000, batches: exporter.batches, carried: exporter.records };
}

/** Events per second of `JSON.stringify` alone on `bodies` (which carry `count` events). */
function runSerialiseOnly(bodies: Body[], count: number): number {
  let bytes = 0;
  const t0 = performance.now();
  for (const body of bodies) bytes += JSON.stringify(body).length;
  const t1 = performance.now();
  if (bytes === 0) throw new Error('nothing serialised');
  return (count / (t1 - t0)) * 1000;
}

export async function runSinkComparison({ events: count = 20_000, rounds = 21 } = {}): Promise<SinkComparison> {
  const events = makeEvents(count);
  const epochMs = Date.now();
  // One page: its API client is made once when the page starts, and serves every request of every round, as the
  // page's one client serves all its calls (the environment's stable part is read on its first request, in the
  // warm-up, as the page reads it on its first call, long before logging starts).
  const api = pageApi(epochMs);
  // Warm-up of both (JIT), then alternating rounds.
  const bodies: Body[] = [];
  runVidframe(events, epochMs, api, { capture: bodies });
  runVidframe(events, epochMs, api, { clock: 'still' });
  await runOtel(events);
  runSerialiseOnly(bodies, count);
  const ours: number[] = [];
  const oursSameMillisecond: number[] = [];
  const theirs: number[] = [];
  const serialiseOnly: number[] = [];
  let vidframeRequests = 0;
  let otelBatches = 0;
  for (let i = 0; i < rounds; i++) {
    const a = runVidframe(events, epochMs, api);
    const b = await runOtel(events);
    const c = runVidframe(events, epochMs, api, { clock: 'still' });
    if (a.carried !== count || c.carried !== count) throw new Error(`the VidFrame sink carried ${Math.min(a.carried, c.carried)} of ${count} events`);
    if (b.carried !== count) throw new Error(`OTel exported ${b.carried} of ${count} records`);
    ours.push(a.perSecond);
    oursSameMillisecond.push(c.perSecond);
    theirs.push(b.perSecond);
    serialiseOnly.push(runSerialiseOnly(bodies, count));
    vidframeRequests = a.requests;
    otelBatches = b.batches;
  }
  return {
    events: count,
    rounds,
    vidframe: spread(ours),
    vidframeSameMillisecond: spread(oursSameMillisecond),
    otel: spread(theirs),
    serialiseOnly: spread(serialiseOnly),
    vidframeRequests,
    otelBatches,
  };
}
