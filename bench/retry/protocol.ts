/** What the retry-drain bench's page, service worker and Node driver say to each other. */

/** The header carrying each request's id (`<runId>:<index>`), recorded by the server's counting endpoint. */
export const BENCH_ID_HEADER = 'X-Bench-Id';

/** One run: store `n` requests, then drain them; ids are `<runId>:0` … `<runId>:<n-1>`. */
export interface RunRequest {
  n: number;
  runId: string;
}

/** The request every run sends (a realistic `log_event` request), the id header added per request. */
export interface RequestTemplate {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface RunResult {
  /** Storing the n requests, one after another (ms, page or worker clock). */
  storeMs: number;
  /** From the start of the drain to its end: every request sent and the queue found empty (ms). */
  drainMs: number;
  /** Records left in the store after the drain (must be 0). */
  left: number;
  /** Sends the queue itself counted as successful. */
  sentByQueue: number;
  /**
   * Where the drain's time went (total ms per step, diagnostic): ours `claim` (claimNext, the final empty one
   * included), `send` (the fetch), `markSent`; workbox `shift` (read the first entry + delete it), `fetch`. The rest of
   * `drainMs` is scheduling between the steps.
   */
  phases: Record<string, number>;
}
