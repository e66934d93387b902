/**
 * The logging sink against OpenTelemetry's `BatchLogRecordProcessor` (issue 15), on the same events, in the same run.
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
 * real time too. Starting at 0 made every `eventTimeMs` and `requestTimeMs` of our bodies a cheap `0`. And it follows
 * the wall clock: every time the sink asks the time, it reads `Date.now()` ({@link WallClockScheduler}), as the page's
 * sink does (twice per event: when it stamps it and when it queues it), and as many events share a millisecond as
 * really do at this rate (OTel reads a new time for every record too). A clock standing still for a whole round let
 * every event reuse the one envelope text the writer keeps per `eventTimeMs`, and read no clock at all: that figure
 * (`vidframeSameMillisecond`) is kept as a diagnostic.
 *
 * The page id is the sink's own random one, of the length the page's has (a 5-character one made every
 * `clientEventId` shorter than the page's).
 *
 * `serialiseOnly` is a reference, not a contender: `JSON.stringify` alone on the very bodies the sink built (captured
 * in the warm-up), timed in the same rounds — the most any sink that sends these bodies as JSON could reach here.
 */
import { performance } from 'node:perf_hooks';
import { Subject, VirtualTimeScheduler } from 'rxjs';
import { LoggerProvider, BatchLogRecordProcessor, type LogRecordExporter, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { JsonLogsSerializer } from '@opentelemetry/otlp-transformer';
import { createLogSink } from '../streams/logging/createLogSink';
import { WallClockScheduler } from './wallClockScheduler';
import type { ClientEvent } from '../streams/logging/stampEvent';
import { playerEvents } from '../streams/logging/playerEvents';
import { buildClientContext } from '../streams/transport/buildClientContext';
import { buildApiRequest } from '../streams/transport/buildApiRequest';
import { LOG_BATCH_MAX_EVENTS } from '../streams/timing';
import { spread, type Spread } from './embedPage';

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

/** The bodies (as objects, before serialisation) of the requests the sink built, for `serialiseOnly`. */
type Body = Record<string, unknown>;

/** Events per second through the VidFrame sink, and how many events its requests carried. */
function runVidframe(
  events: ClientEvent[],
  epochMs: number,
  { clock = 'wall', capture }: { clock?: 'wall' | 'still'; capture?: Body[] } = {},
): { perSecond: number; requests: number; carried: number } {
  const context = buildClientContext({});
  const scheduler = clock === 'wall' ? new WallClockScheduler() : new VirtualTimeScheduler();
  scheduler.frame = epochMs; // the page's clock reads epoch milliseconds (see the header)
  const events$ = new Subject<ClientEvent>();
  let requests = 0;
  let carried = 0;
  // How many events each built request holds, to count what really went out without parsing the bodies again.
  const sizes = new WeakMap<object, number>();
  const sink = createLogSink({
    buildRequest: (endpoint, payload) => {
      const request = buildApiRequest(endpoint, payload as unknown as Record<string, unknown>, { context });
      sizes.set(request, (payload as { events: unknown[] }).events.length);
      capture?.push({ context, ...payload });
      return request;
    },
    send: (request) => {
      requests++;
      carried += sizes.get(request) ?? 0;
      return [];
    },
    store: () => undefined,
    scheduler,
    // No page id given: the sink draws a random one, as the page does (a short fixed one made every id cheaper).
  });
  const t0 = performance.now();
  const sub = sink(events$).subscribe();
  for (const e of events) events$.next(e);
  events$.complete();
  scheduler.flush();
  const t1 = performance.now();
  sub.unsubscribe();
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
  // Warm-up of both (JIT), then alternating rounds.
  const bodies: Body[] = [];
  runVidframe(events, epochMs, { capture: bodies });
  runVidframe(events, epochMs, { clock: 'still' });
  await runOtel(events);
  runSerialiseOnly(bodies, count);
  const ours: number[] = [];
  const oursSameMillisecond: number[] = [];
  const theirs: number[] = [];
  const serialiseOnly: number[] = [];
  let vidframeRequests = 0;
  let otelBatches = 0;
  for (let i = 0; i < rounds; i++) {
    const a = runVidframe(events, epochMs);
    const b = await runOtel(events);
    const c = runVidframe(events, epochMs, { clock: 'still' });
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
