/**
 * The retry-drain bench's service worker (bundled at bench time): `workbox-background-sync`'s `Queue` needs a
 * service-worker global (`self.registration`). On a message `{ run, template }` with a reply port it makes a
 * `Queue` (`forceSyncFallback`, a no-op `onSync`: nothing replays behind the bench's back), pushes `run.n` requests
 * one after another (`pushRequest`, each awaited), then times `replayRequests()` to the same counting endpoint, and
 * answers with the timings and the queue's size afterwards.
 */
import { Queue } from 'workbox-background-sync';
import { BENCH_ID_HEADER, type RequestTemplate, type RunRequest, type RunResult } from './protocol';

/** The parts of the service-worker global used here (the project's TypeScript lib is DOM, not WebWorker). */
interface WorkerGlobal {
  addEventListener(type: 'install', listener: (event: { waitUntil(p: Promise<unknown>): void }) => void): void;
  addEventListener(type: 'activate', listener: (event: { waitUntil(p: Promise<unknown>): void }) => void): void;
  addEventListener(
    type: 'message',
    listener: (event: { data: { run: RunRequest; template: RequestTemplate }; ports: readonly MessagePort[]; waitUntil(p: Promise<unknown>): void }) => void,
  ): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
}
const worker = self as unknown as WorkerGlobal;

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

async function run({ n, runId }: RunRequest, t: RequestTemplate): Promise<RunResult> {
  const queue = new Queue(`bench-${runId}`, { forceSyncFallback: true, onSync: async () => {} });
  const requests = Array.from(
    { length: n },
    (_, i) => new Request(t.url, { method: 'POST', headers: { ...t.headers, [BENCH_ID_HEADER]: `${runId}:${i}` }, body: t.body }),
  );
  const t0 = performance.now();
  for (const request of requests) await queue.pushRequest({ request });
  const storeMs = performance.now() - t0;
  const before = await queue.size();
  if (before !== n) throw new Error(`workbox holds ${before} requests after ${n} pushes`);
  // The drain's breakdown (diagnostic): the instance's shiftRequest and the global fetch that replayRequests calls,
  // timed around the originals (a few performance.now() per request).
  const phases: Record<string, number> = { shift: 0, fetch: 0 };
  const timed = <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    return work().finally(() => (phases[name] += performance.now() - t));
  };
  const shift = queue.shiftRequest.bind(queue);
  queue.shiftRequest = () => timed('shift', shift);
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => timed('fetch', () => realFetch(input, init));
  const t1 = performance.now();
  try {
    await queue.replayRequests(); // rejects on the first failed fetch (the request is put back)
  } finally {
    globalThis.fetch = realFetch;
  }
  const drainMs = performance.now() - t1;
  const left = await queue.size();
  return { storeMs, drainMs, left, sentByQueue: before - left, phases };
}

worker.addEventListener('message', (event) => {
  const port = event.ports[0];
  const done = run(event.data.run, event.data.template).then(
    (result) => port.postMessage(result),
    (error: unknown) => port.postMessage({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
  );
  event.waitUntil(done);
});
