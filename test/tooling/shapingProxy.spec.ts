import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startShapingProxy, type ShapingProxy } from '../../bench/abr/shapingProxy';

/**
 * The adaptive benchmark's link (bench/abr/shapingProxy.ts), through a real origin and real HTTP clients: what the
 * clients receive in each second stays within the schedule, a step down slows the responses already in flight without
 * releasing them, and an outage stops the bytes while the connections stay open.
 */

/** An origin that answers every request with `bytes` bytes at once. */
function startOrigin(bytes: number): Promise<{ origin: string; server: Server }> {
  const body = Buffer.alloc(bytes, 7);
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes) }).end(body));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })),
  );
}

interface Download {
  /** [ms since the proxy started, bytes] of every chunk the client received. */
  chunks: [number, number][];
  ended: boolean;
  closed: boolean;
}

function download(url: string, t0: () => number): Download {
  const d: Download = { chunks: [], ended: false, closed: false };
  get(url, (res) => {
    res.on('data', (c: Buffer) => d.chunks.push([performance.now() - t0(), c.length]));
    res.on('end', () => (d.ended = true));
    res.on('close', () => (d.closed = true));
  }).on('error', () => (d.closed = true));
  return d;
}

const received = (downloads: Download[], fromMs: number, toMs: number) =>
  downloads.flatMap((d) => d.chunks).reduce((sum, [t, n]) => (t >= fromMs && t < toMs ? sum + n : sum), 0);

describe('shaping proxy', () => {
  let origin: { origin: string; server: Server };
  let proxy: ShapingProxy;

  afterEach(async () => {
    await proxy?.close();
    await new Promise((done) => origin.server.close(done));
  });

  it('holds every second to the schedule, slows in-flight responses on a step down and stops them in an outage', async () => {
    origin = await startOrigin(4 * 1024 * 1024);
    // 100 kB/s, 25 kB/s from 2 s, nothing from 3 s, 100 kB/s again from 4 s.
    const schedule = [
      { atSeconds: 0, kbps: 800 },
      { atSeconds: 2, kbps: 200 },
      { atSeconds: 3, kbps: 0 },
      { atSeconds: 4, kbps: 800 },
    ];
    proxy = await startShapingProxy({ target: origin.origin, schedule });
    let startedAt = 0;
    const downloads = [0, 1, 2].map((i) => download(`${proxy.origin}/file-${i}`, () => startedAt));
    await new Promise((done) => setTimeout(done, 200));
    // Nothing moves before the clock starts.
    expect(received(downloads, -Infinity, Infinity)).toBe(0);
    proxy.start();
    startedAt = performance.now();
    await new Promise((done) => setTimeout(done, 5_050));

    for (let s = 0; s < 5; s++) {
      const allowed = proxy.scheduledBytes(s, s + 1);
      const got = received(downloads, s * 1000, (s + 1) * 1000);
      expect({ second: s, got: got <= 1.05 * allowed + (s === 3 ? 1024 : 0) }).toEqual({ second: s, got: true });
      if (allowed > 0) expect({ second: s, got: got >= 0.8 * allowed }).toEqual({ second: s, got: true });
      // The proxy's own count agrees with what the clients got.
      expect(Math.abs(proxy.delivered(s, s + 1) - got)).toBeLessThan(0.06 * allowed + 1024);
    }
    // The step down: the first 200 ms after it carry the new rate, not what was left of the responses.
    expect(received(downloads, 2000, 2200)).toBeLessThanOrEqual(1.05 * proxy.scheduledBytes(2, 2.2) + 2048);
    // The outage: nothing after its first tick, and the responses are neither finished nor dropped.
    expect(received(downloads, 3100, 4000)).toBe(0);
    for (const d of downloads) expect(d).toMatchObject({ ended: false, closed: false });
    // They resume when the link comes back, shared between the three.
    for (const d of downloads) expect(d.chunks.some(([t]) => t >= 4000)).toBe(true);
  }, 15_000);

  it('gives a second no more than its share when the timer fires late across its start', async () => {
    origin = await startOrigin(4 * 1024 * 1024);
    proxy = await startShapingProxy({ target: origin.origin, schedule: [{ atSeconds: 0, kbps: 800 }] });
    let startedAt = 0;
    const downloads = [0, 1].map((i) => download(`${proxy.origin}/file-${i}`, () => startedAt));
    proxy.start();
    startedAt = performance.now();
    // The event loop blocked from 0.85 s to 1.2 s: the next tick comes a fifth of a second into second 1.
    setTimeout(() => {
      while (performance.now() - startedAt < 1200) {
        /* busy */
      }
    }, 850);
    await new Promise((done) => setTimeout(done, 2_100));
    const allowed = proxy.scheduledBytes(1, 2);
    expect(proxy.delivered(1, 2)).toBeLessThanOrEqual(1.05 * allowed);
    expect(received(downloads, 1000, 2000)).toBeLessThanOrEqual(1.05 * allowed);
    expect(received(downloads, 1000, 2000)).toBeGreaterThanOrEqual(0.7 * allowed);
  });

  it('forwards status, headers and the whole body at the link rate, an idle link saving up no burst', async () => {
    origin = await startOrigin(30_000);
    proxy = await startShapingProxy({ target: origin.origin, schedule: [{ atSeconds: 0, kbps: 2400 }] });
    proxy.start();
    const startedAt = performance.now();
    await new Promise((done) => setTimeout(done, 500));
    const d = download(`${proxy.origin}/x`, () => startedAt);
    await new Promise((done) => setTimeout(done, 500));
    expect(d.ended).toBe(true);
    expect(received([d], -Infinity, Infinity)).toBe(30_000);
    // 30 kB at 300 kB/s: about 100 ms from its first byte to its last, not at once after half a second of idle link.
    expect(d.chunks.at(-1)![0] - d.chunks[0][0]).toBeGreaterThanOrEqual(70);
    const res = await fetch(`${proxy.origin}/y`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('30000');
    expect((await res.arrayBuffer()).byteLength).toBe(30_000);
  });

  it('changes the rate when told: later scheduled steps are dropped and the new rate holds from then on', async () => {
    origin = await startOrigin(4 * 1024 * 1024);
    proxy = await startShapingProxy({
      target: origin.origin,
      schedule: [
        { atSeconds: 0, kbps: 800 },
        { atSeconds: 1.5, kbps: 4000 },
      ],
    });
    let startedAt = 0;
    const downloads = [download(`${proxy.origin}/file`, () => startedAt)];
    proxy.start();
    startedAt = performance.now();
    await new Promise((done) => setTimeout(done, 1_000));
    proxy.setRate(200);
    const changedAt = proxy.elapsedSeconds();
    await new Promise((done) => setTimeout(done, 1_100));
    // The step at 1.5 s is gone: from the change on, 25 kB/s, not 500 kB/s.
    expect(proxy.scheduledBytes(changedAt, changedAt + 1)).toBeCloseTo(25_000, 0);
    const got = received(downloads, changedAt * 1000 + 50, changedAt * 1000 + 1050);
    expect(got).toBeLessThanOrEqual(1.05 * 25_000 + 2048);
    expect(got).toBeGreaterThanOrEqual(0.7 * 25_000);
  });

  it('answers 502 with the reason when the origin does not answer', async () => {
    origin = await startOrigin(10);
    proxy = await startShapingProxy({ target: 'http://127.0.0.1:1', schedule: [{ atSeconds: 0, kbps: 1000 }] });
    proxy.start();
    const res = await fetch(`${proxy.origin}/x`);
    expect(res.status).toBe(502);
    expect(await res.text()).toMatch(/did not answer/);
  });
});
