import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { logRequestBody } from '../test/server/chaos/chaosClient';
import { cpuSeconds, rssMiB } from './benchProcesses';

/**
 * The load of the collector benchmark: `clients` concurrent keep-alive clients (one connection each), each sending
 * log requests of `eventsPerRequest` events (bodies built by the chaos suite's client) one after the other, until
 * `totalEvents` events are acknowledged or `maxMs` has passed. A request that is not answered 200 is counted and sent
 * again (same body, same event ids) after a short pause, as the embed's retry queue would. Latency is per
 * acknowledged request, measured by the client (send → whole reply read).
 *
 * Requests go through `node:http` with a keep-alive agent rather than the chaos client's `postLog` (fetch): the bench
 * client shares the machine's cores with the server, and fetch costs several times the CPU per request of `node:http`
 * (same headers, same bodies), which would cap what any store can show.
 */
export interface LoadOptions {
  origin: string;
  clients: number;
  eventsPerRequest: number;
  totalEvents: number;
  maxMs: number;
  /** The stream token each client sends (one per client). */
  tokens: string[];
  /** Page ids are `{pagePrefix}{client}`, so event ids are unique within the run. */
  pagePrefix: string;
  /** The server process, whose RSS and CPU are read. */
  serverPid: number;
  /** Another process whose RSS is shown beside the server's (clickhouse-server). */
  sidePid?: number;
  /** RSS is read at these fractions of `totalEvents` (and at the end). */
  checkpoints?: number[];
  /** Progress lines (stderr). */
  progress?: (line: string) => void;
}

export interface Checkpoint {
  events: number;
  elapsedMs: number;
  /** Events per second since the previous checkpoint. */
  segmentEventsPerSec: number;
  /** Latency percentiles of the requests acknowledged since the previous checkpoint. */
  p50Ms: number;
  p99Ms: number;
  rssMiB?: number;
  sideRssMiB?: number;
}

export interface LoadResult {
  events: number;
  requests: number;
  elapsedMs: number;
  eventsPerSec: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers other than 200, by status (0: the connection failed). */
  failures: Map<number, number>;
  checkpoints: Checkpoint[];
  peakRssMiB?: number;
  peakSideRssMiB?: number;
  serverCpuSec?: number;
  sideCpuSec?: number;
  clientCpuSec: number;
  /** Why the load stopped before `totalEvents`, if it did. */
  stoppedEarly?: string;
}

export function percentile(values: ArrayLike<number>, q: number, from = 0, to = values.length): number {
  if (to <= from) return NaN;
  const sorted = Float64Array.from(Array.prototype.slice.call(values, from, to) as number[]).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A request gets this long to be answered before it counts as failed (status 0). */
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * POSTs a JSON body with `headers` added (a log request: the stream token header, as `postLog` sends it), or GETs
 * `url` when there is no body (a ping); resolves with the status, 0 when it failed. The reply's body is read and
 * dropped.
 */
export function sendOnce(agent: Agent, url: URL, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: body === undefined ? 'GET' : 'POST',
        agent,
        timeout: REQUEST_TIMEOUT_MS,
        headers: body === undefined ? headers : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
        response.once('error', () => resolve(0));
      },
    );
    req.once('timeout', () => req.destroy(new Error('timed out')));
    req.once('error', () => resolve(0));
    req.end(body);
  });
}

/** Give up when this many requests in a row (across clients) were not acknowledged. */
const MAX_CONSECUTIVE_FAILURES = 500;

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const { origin, clients, eventsPerRequest, totalEvents, maxMs, tokens, pagePrefix, serverPid, sidePid, progress } = opts;
  const fractions = opts.checkpoints ?? [0.25, 0.5, 0.75, 1];
  const latencies: number[] = [];
  const failures = new Map<number, number>();
  const checkpoints: Checkpoint[] = [];
  let claimed = 0;
  let acked = 0;
  let consecutiveFailures = 0;
  let stoppedEarly: string | undefined;
  let nextCheckpoint = 0;
  let lastMark = { events: 0, ms: 0, latencyIndex: 0 };
  let peakRss: number | undefined;
  let peakSide: number | undefined;

  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const url = new URL('/youtubei/v1/log_event', origin);
  const cpuBefore = cpuSeconds(serverPid);
  const sideCpuBefore = cpuSeconds(sidePid);
  const clientCpuBefore = process.cpuUsage();
  const started = performance.now();
  const elapsed = () => performance.now() - started;

  const sample = () => {
    const rss = rssMiB(serverPid);
    const side = rssMiB(sidePid);
    if (rss !== undefined) peakRss = Math.max(peakRss ?? 0, rss);
    if (side !== undefined) peakSide = Math.max(peakSide ?? 0, side);
    return { rss, side };
  };
  const sampler = setInterval(sample, 250);

  const mark = () => {
    const ms = elapsed();
    const { rss, side } = sample();
    const segment = latencies.length;
    checkpoints.push({
      events: acked,
      elapsedMs: ms,
      segmentEventsPerSec: ((acked - lastMark.events) / Math.max(1, ms - lastMark.ms)) * 1000,
      p50Ms: percentile(latencies, 0.5, lastMark.latencyIndex, segment),
      p99Ms: percentile(latencies, 0.99, lastMark.latencyIndex, segment),
      rssMiB: rss,
      sideRssMiB: side,
    });
    lastMark = { events: acked, ms, latencyIndex: segment };
    progress?.(`${acked.toLocaleString('en-US')} events in ${(ms / 1000).toFixed(1)} s, RSS ${rss?.toFixed(0) ?? '?'} MiB`);
  };

  const client = async (index: number) => {
    const pageId = `${pagePrefix}${index}`;
    const token = tokens[index];
    let counter = 0;
    while (stoppedEarly === undefined && claimed < totalEvents) {
      const count = Math.min(eventsPerRequest, totalEvents - claimed);
      claimed += count;
      const body = logRequestBody(pageId, counter, count);
      counter += count;
      for (;;) {
        const t0 = performance.now();
        const status = await sendOnce(agent, url, { 'x-vidframe-stream-token': token }, body);
        const ms = performance.now() - t0;
        if (status === 200) {
          latencies.push(ms);
          acked += count;
          consecutiveFailures = 0;
          while (nextCheckpoint < fractions.length && acked >= Math.ceil(fractions[nextCheckpoint] * totalEvents)) {
            nextCheckpoint++;
            mark();
          }
          break;
        }
        failures.set(status, (failures.get(status) ?? 0) + 1);
        if (++consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) stoppedEarly ??= `${MAX_CONSECUTIVE_FAILURES} requests in a row were not acknowledged`;
        if (stoppedEarly !== undefined) break;
        await sleep(50);
      }
      if (stoppedEarly === undefined && elapsed() > maxMs) stoppedEarly = `time cap of ${maxMs / 1000} s reached`;
    }
  };

  try {
    await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  } finally {
    clearInterval(sampler);
    agent.destroy();
  }
  const elapsedMs = elapsed();
  if (checkpoints.at(-1)?.events !== acked) mark();
  const cpuAfter = cpuSeconds(serverPid);
  const sideCpuAfter = cpuSeconds(sidePid);
  const clientCpu = process.cpuUsage(clientCpuBefore);
  return {
    events: acked,
    requests: latencies.length,
    elapsedMs,
    eventsPerSec: (acked / elapsedMs) * 1000,
    p50Ms: percentile(latencies, 0.5),
    p90Ms: percentile(latencies, 0.9),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.reduce((a, b) => Math.max(a, b), 0),
    failures,
    checkpoints,
    peakRssMiB: peakRss,
    peakSideRssMiB: peakSide,
    serverCpuSec: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
    sideCpuSec: sideCpuBefore !== undefined && sideCpuAfter !== undefined ? sideCpuAfter - sideCpuBefore : undefined,
    clientCpuSec: (clientCpu.user + clientCpu.system) / 1e6,
    stoppedEarly,
  };
}
