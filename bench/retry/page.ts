/**
 * The retry-drain bench page (bundled at bench time by `bench/retryDrain.ts`, served by its local server). Runs in
 * real Chromium, on the page's real IndexedDB:
 *
 * - `runOurs`: our retry queue as the page wires it (`createDatabase(logsDatabase())` + `createRetryQueue`), 1,000
 *   log requests enqueued one after another, then drained by the real `retryQueueDrain` with its throttle and delays
 *   at 0 (the machinery's own cost) to the server's counting endpoint.
 * - `runWorkbox`: registers the bench service worker (`bench/retry/serviceWorker.ts`), which does the same with
 *   `workbox-background-sync`'s `Queue`, and returns its timings over a `MessageChannel`.
 *
 * Both send the same request (URL, headers, body) with a plain `fetch` that looks at nothing but the outcome (ours
 * also rejects a non-2xx answer, as the drain needs to know); each request carries its id in `X-Bench-Id`, which the
 * server records, so "none lost, none sent twice" is checked at the receiver, not here.
 */
import { concat, from, lastValueFrom, NEVER, of, type Subscription } from 'rxjs';
import { createDatabase } from '../../streams/storage/createDatabase';
import { logsDatabase } from '../../streams/retry/logsDatabase';
import { createRetryQueue } from '../../streams/retry/createRetryQueue';
import { retryQueueDrain, type RetryQueueEffects } from '../../streams/retry/retryQueueDrain';
import type { LogRequest } from '../../streams/retry/QueuedLogRequest';
import { buildApiRequest } from '../../streams/transport/buildApiRequest';
import { buildClientContext } from '../../streams/transport/buildClientContext';
import { readClientEnvironment, type EnvironmentWindow } from '../../streams/transport/readClientEnvironment';
import { WEB_EMBEDDED_PLAYER_CLIENT_NAME_ID } from '../../streams/transport/clientIdentity';
import { playerEvents } from '../../streams/logging/playerEvents';
import { stampEvent } from '../../streams/logging/stampEvent';
import { BENCH_ID_HEADER, type RunRequest, type RunResult, type RequestTemplate } from './protocol';

/** One realistic `log_event` request as the sink builds it: the page's context and a batch of 10 events. */
function template(): RequestTemplate {
  const context = buildClientContext(readClientEnvironment(window as unknown as EnvironmentWindow, { hl: 'en', gl: 'US', visitorData: 'bench-visitor' }));
  const events = Array.from(
    { length: 10 },
    (_, i) =>
      stampEvent(playerEvents.stateChange({ videoId: 'VFsunrise01', previousState: 1, state: i % 2 ? 1 : 2, mediaTimeSec: i * 3.5 }), {
        eventTimeMs: Date.now(),
        clientEventId: `bench:${i + 1}`,
      }).event,
  );
  const request = buildApiRequest('log_event', { events }, { context, streamToken: 'bench-stream-token' });
  return { url: request.url, headers: request.options.headers, body: request.options.body };
}

const requestsOf = ({ n, runId }: RunRequest, t: RequestTemplate): LogRequest[] =>
  Array.from({ length: n }, (_, i) => ({
    url: t.url,
    options: { method: 'POST', headers: { ...t.headers, [BENCH_ID_HEADER]: `${runId}:${i}` }, body: t.body },
  }));

/** Adds the time `work` takes to `phases[name]` (the drain's breakdown; a few `performance.now()` per request). */
function timed<T>(phases: Record<string, number>, name: string, work: () => Promise<T>): Promise<T> {
  const t = performance.now();
  return work().finally(() => (phases[name] = (phases[name] ?? 0) + performance.now() - t));
}

/** Resends one request: a plain fetch; a non-2xx answer is an error carrying its status (what the drain expects). */
const send = (request: LogRequest) =>
  from(
    fetch(request.url, { method: 'POST', headers: request.options.headers, body: request.options.body, credentials: 'same-origin' }).then((response) => {
      if (!response.ok) throw Object.assign(new Error(`HTTP ${response.status}`), { status: response.status });
    }),
  );

async function runOurs(run: RunRequest): Promise<RunResult & { body: string }> {
  const t = template();
  const requests = requestsOf(run, t);
  const db = createDatabase(logsDatabase());
  const queue = createRetryQueue(db, { interfaceNumber: WEB_EMBEDDED_PLAYER_CLIENT_NAME_ID });
  try {
    // Store: one `enqueue` (one readwrite transaction) per request, each awaited, as the sink's `store` is called.
    const t0 = performance.now();
    for (const request of requests) await queue.enqueue(request);
    const storeMs = performance.now() - t0;
    if ((await db.backend()) !== 'indexeddb') throw new Error('the logs database fell back to memory: not an IndexedDB figure');

    // Drain: the real stream, throttle and delays at 0. It ends when a claim finds nothing due (the cycle's own end,
    // as workbox's replayRequests ends on its empty shift); every other event than `sent` is a failure of the bench.
    let sent = 0;
    const phases: Record<string, number> = { claim: 0, send: 0, markSent: 0 };
    let subscription: Subscription | undefined;
    const t1 = performance.now();
    const drainMs = await new Promise<number>((resolve, reject) => {
      const effects: RetryQueueEffects = {
        claimNext: (now) =>
          timed(phases, 'claim', () => queue.claimNext(now)).then((request) => {
            if (request === undefined) {
              if (sent === run.n) resolve(performance.now() - t1);
              else reject(new Error(`the drain stopped after ${sent} of ${run.n} sends`));
            }
            return request;
          }),
        markSent: (request) => timed(phases, 'markSent', () => queue.markSent(request)),
        markFailed: (request, failure) => queue.markFailed(request, failure),
      };
      const timedSend = (request: LogRequest) => from(timed(phases, 'send', () => lastValueFrom(send(request), { defaultValue: undefined })));
      subscription = retryQueueDrain({ queue: effects, send: timedSend, online$: concat(of(true), NEVER), throttleMs: 0, retryDelayMs: 0 }).subscribe({
        next: (event) => {
          if (event.type === 'sent') sent++;
          else reject(new Error(`drain event ${event.type}: ${String('error' in event ? event.error : '')}`));
        },
        error: reject,
      });
    });
    subscription?.unsubscribe();
    const left = (await queue.list()).length;
    return { storeMs, drainMs, left, sentByQueue: sent, phases, body: t.body };
  } finally {
    db.close();
  }
}

async function runWorkbox(run: RunRequest): Promise<RunResult & { body: string }> {
  const t = template();
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const worker = registration.active;
  if (!worker) throw new Error('the bench service worker is not active');
  const channel = new MessageChannel();
  const answer = new Promise<RunResult | { error: string }>((resolve) => (channel.port1.onmessage = (e) => resolve(e.data)));
  worker.postMessage({ run, template: t }, [channel.port2]);
  const result = await answer;
  if ('error' in result) throw new Error(`service worker: ${result.error}`);
  // The whole workbox store, every queue name, read from the page: nothing may be left (the worker's own
  // `queue.size()` counts only its queue name).
  return { ...result, left: Math.max(result.left, await countWorkboxStore()), body: t.body };
}

/** Records in workbox's `requests` store (0 when its database does not exist). */
function countWorkboxStore(): Promise<number> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('workbox-background-sync');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('requests')) {
        db.close();
        resolve(0);
        return;
      }
      const count = db.transaction('requests').objectStore('requests').count();
      count.onsuccess = () => {
        db.close();
        resolve(count.result);
      };
      count.onerror = () => reject(count.error);
    };
  });
}

(window as unknown as { retryBench: unknown }).retryBench = { runOurs, runWorkbox };
