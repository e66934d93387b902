/**
 * A loopback HTTP proxy that shapes the bytes of every response it forwards, all together, to a bandwidth schedule
 * replayed second by second: the link a viewer's player sees in the adaptive benchmark and in tests of the engine.
 *
 * One token bucket feeds every response in flight, filled every `tickMs` by the schedule's rate over the time since
 * the last tick; tokens are shared round-robin between the responses that have bytes waiting. What an idle link saves
 * is bounded to `burstMs` worth at the current rate, so a response never gets a burst: not after a pause, not when the
 * rate changes (unlike CDP's throttling, which releases what is left of each in-flight response at every change).
 * A rate of 0 is an outage: no byte moves, every connection stays open. Headers pass unshaped; bodies are shaped as
 * they are on the wire (compressed if the origin compressed them). The upstream is read only as fast as the link
 * drains it (paused past a small backlog), and a client that stops reading gets no tokens until it drains.
 *
 * The clock starts at `start()`; until then responses wait, so nothing is delivered before the schedule's second 0.
 * Requests keep their `Host` header (the proxy's), so an origin that writes absolute URLs writes the proxy's.
 *
 * Free of bench-only imports: tests use it too.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** From `atSeconds` (after `start()`) on, the link carries `kbps` (1 kbps = 1000 bit/s) until the next step. */
export interface BandwidthStep {
  atSeconds: number;
  kbps: number;
}

export interface ShapingProxyOptions {
  /** The origin every request is forwarded to, e.g. `http://127.0.0.1:8080`. */
  target: string;
  /** Steps in any order; before the first step, and with no step, the rate is 0. */
  schedule: readonly BandwidthStep[];
  /** The bucket's refill period (ms). */
  tickMs?: number;
  /** What an idle link may save up, in milliseconds at the current rate. */
  burstMs?: number;
  /** The proxy's host name in its origin (it listens on 127.0.0.1). */
  hostName?: string;
}

export interface ShapingProxy {
  /** e.g. `http://127.0.0.1:41234` */
  origin: string;
  /** Starts the schedule's clock (second 0 is now); later calls do nothing. */
  start(): void;
  /** Seconds since `start()` (0 before). */
  elapsedSeconds(): number;
  /** From now on the link carries `kbps`: the schedule's later steps are dropped (a test's link that reacts to the player). */
  setRate(kbps: number): void;
  /** Body bytes written to clients in [from, to) seconds after `start()`. */
  delivered(fromSeconds: number, toSeconds: number): number;
  /** Body bytes written in each whole second since `start()`. */
  deliveredPerSecond(): number[];
  /** The bytes the schedule allows in [from, to) seconds. */
  scheduledBytes(fromSeconds: number, toSeconds: number): number;
  /** Every response's bytes and connections dropped, the server closed. */
  close(): Promise<void>;
}

/** The schedule's bytes per second at `t` seconds. */
function rateAt(steps: readonly BandwidthStep[], t: number): number {
  let kbps = 0;
  for (const s of steps) if (s.atSeconds <= t) kbps = s.kbps;
  return (kbps * 1000) / 8;
}

/** The integral of the schedule over [from, to) in bytes: piecewise constant, exact at every step. */
function integrate(steps: readonly BandwidthStep[], from: number, to: number): number {
  if (to <= from) return 0;
  const cuts = [from, ...steps.map((s) => s.atSeconds).filter((a) => a > from && a < to), to];
  let bytes = 0;
  for (let i = 1; i < cuts.length; i++) bytes += rateAt(steps, cuts[i - 1]!) * (cuts[i]! - cuts[i - 1]!);
  return bytes;
}

/** A response in flight: what the origin sent and the link has not carried yet. */
interface Flow {
  res: ServerResponse;
  upstream?: IncomingMessage;
  chunks: Buffer[];
  pending: number;
  upstreamEnded: boolean;
}

/** The backlog (bytes) per response past which the origin is no longer read. */
const BACKLOG_BYTES = 256 * 1024;

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade'];

function finishIfDone(flow: Flow, flows: Set<Flow>): void {
  if (flow.upstreamEnded && flow.pending === 0) {
    flows.delete(flow);
    flow.res.end();
  }
}

/** Writes up to `bytes` of the flow's backlog; returns how many it wrote. */
function send(flow: Flow, bytes: number, flows: Set<Flow>): number {
  let sent = 0;
  while (sent < bytes && flow.chunks.length > 0) {
    const head = flow.chunks[0]!;
    const n = Math.min(head.length, bytes - sent);
    flow.res.write(n === head.length ? head : head.subarray(0, n));
    if (n === head.length) flow.chunks.shift();
    else flow.chunks[0] = head.subarray(n);
    sent += n;
  }
  flow.pending -= sent;
  if (flow.pending < BACKLOG_BYTES / 2) flow.upstream?.resume();
  finishIfDone(flow, flows);
  return sent;
}

/** Forwards each request to `target` and hands its response's body to the link (`flows`). */
function forwarder(target: string, agent: Agent, flows: Set<Flow>) {
  const targetUrl = new URL(target);
  return (req: IncomingMessage, res: ServerResponse): void => {
    const flow: Flow = { res, chunks: [], pending: 0, upstreamEnded: false };
    const outgoing = httpRequest(
      { protocol: targetUrl.protocol, hostname: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers: req.headers, agent },
      (upstream) => {
        flow.upstream = upstream;
        const headers = { ...upstream.headers };
        for (const h of HOP_BY_HOP) delete headers[h];
        res.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, headers);
        flows.add(flow);
        upstream.on('data', (chunk: Buffer) => {
          flow.chunks.push(chunk);
          flow.pending += chunk.length;
          if (flow.pending > BACKLOG_BYTES) upstream.pause();
        });
        upstream.on('end', () => {
          flow.upstreamEnded = true;
          finishIfDone(flow, flows);
        });
        upstream.on('error', () => res.destroy());
      },
    );
    outgoing.on('error', (error) => {
      if (!res.headersSent)
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(`shaping proxy: ${target} did not answer (${error.message})\n`);
      else res.destroy();
    });
    res.on('close', () => {
      flows.delete(flow);
      flow.upstream?.destroy();
      outgoing.destroy();
    });
    req.pipe(outgoing);
  };
}

export async function startShapingProxy({ target, schedule, tickMs = 10, burstMs = 20, hostName = '127.0.0.1' }: ShapingProxyOptions): Promise<ShapingProxy> {
  const steps = [...schedule].sort((a, b) => a.atSeconds - b.atSeconds);
  const agent = new Agent({ keepAlive: true });
  const flows = new Set<Flow>();
  /** [seconds since start, bytes] of every tick that carried bytes. */
  const log: [number, number][] = [];
  let startedAt: number | undefined;
  let lastTick = 0;
  let budget = 0;
  let ticker: ReturnType<typeof setInterval> | undefined;

  const elapsed = () => (startedAt === undefined ? 0 : (performance.now() - startedAt) / 1000);

  function tick(): void {
    const t = elapsed();
    // What an idle link saved is bounded, and a tick late across a whole second adds only the new second's share
    // (the previous second's rest is lost): no second ever carries more than the schedule gives it, plus the small
    // saved amount, however late the timer fires.
    const from = Math.floor(t) > Math.floor(lastTick) ? Math.floor(t) : lastTick;
    budget = Math.min(budget, (rateAt(steps, t) * burstMs) / 1000) + integrate(steps, from, t);
    lastTick = t;
    let carried = 0;
    for (;;) {
      const ready = [...flows].filter((f) => f.pending > 0 && !f.res.writableNeedDrain);
      if (ready.length === 0 || budget < 1) break;
      const share = Math.max(1, Math.floor(budget / ready.length));
      for (const flow of ready) {
        if (budget < 1) break;
        const n = send(flow, Math.min(share, Math.floor(budget)), flows);
        budget -= n;
        carried += n;
      }
    }
    if (carried > 0) log.push([t, carried]);
  }

  const server = createServer(forwarder(target, agent, flows));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://${hostName}:${port}`,
    start() {
      if (startedAt !== undefined) return;
      startedAt = performance.now();
      ticker = setInterval(tick, tickMs);
    },
    elapsedSeconds: elapsed,
    setRate(kbps) {
      const t = elapsed();
      tick();
      while (steps.length > 0 && steps[steps.length - 1]!.atSeconds >= t) steps.pop();
      steps.push({ atSeconds: t, kbps });
    },
    delivered(from, to) {
      let bytes = 0;
      for (const [t, n] of log) if (t >= from && t < to) bytes += n;
      return bytes;
    },
    deliveredPerSecond() {
      const out: number[] = Array.from({ length: Math.floor(elapsed()) }, () => 0);
      for (const [t, n] of log) {
        const s = Math.floor(t);
        if (s < out.length) out[s] = (out[s] ?? 0) + n;
      }
      return out;
    },
    scheduledBytes: (from, to) => integrate(steps, from, to),
    async close() {
      if (ticker) clearInterval(ticker);
      for (const flow of flows) flow.res.destroy();
      flows.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
