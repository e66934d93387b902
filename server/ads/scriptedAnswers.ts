/** One scripted answer of the ads host's test hooks: played instead of the normal one by the next id request. */
export interface ScriptedAnswer {
  /** The status to answer with (default 200). */
  status?: number;
  /** The body, sent verbatim (default: the normal prefixed id body, with its cookie). */
  body?: string;
  /** Wait this long before answering (default 0): longer than the player's 5 s timeout plays a timeout. */
  delayMs?: number;
}

/** What the request log keeps of one id request. */
export interface AdsIdRequest {
  /** When it arrived (ms since the epoch). */
  atMs: number;
  /** Its `Origin` header, `null` when it had none. */
  origin: string | null;
  /** Whether it carried the id cookie. */
  hadCookie: boolean;
}

/** At most this many requests are kept in the log (`count` goes on counting). */
export const ADS_REQUEST_LOG_MAX = 1000;

/**
 * The ads host's test state: a FIFO queue of scripted answers and the log of id requests, both emptied by `reset`.
 * The host keeps one whether or not its test routes are on; without them nothing is ever queued.
 */
export function createScriptedAnswers() {
  let answers: ScriptedAnswer[] = [];
  let requests: AdsIdRequest[] = [];
  let count = 0;
  return {
    queue(more: readonly ScriptedAnswer[]): number {
      answers.push(...more.map((a) => ({ ...a })));
      return answers.length;
    },
    /** The next scripted answer, if any (taken off the queue). */
    take: (): ScriptedAnswer | undefined => answers.shift(),
    record(request: AdsIdRequest) {
      count += 1;
      requests.push(request);
      if (requests.length > ADS_REQUEST_LOG_MAX) requests = requests.slice(-ADS_REQUEST_LOG_MAX);
    },
    requests: () => ({ count, requests: [...requests] }),
    pending: () => answers.length,
    reset() {
      answers = [];
      requests = [];
      count = 0;
    },
  };
}
export type ScriptedAnswers = ReturnType<typeof createScriptedAnswers>;
