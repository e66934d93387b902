import { createStreamTokens } from '../../../server/tokens/streamTokens';
import { apiTokensFor } from '../../helpers/apiTokens';

/** What the chaos suites share: the secrets the server processes are started with, and a client that logs like the embed. */
export const CHAOS_ADMIN_TOKEN = 'chaos-admin-token-0123456789';
export const CHAOS_STREAM_SECRET = 'chaos-stream-secret-0123456789-abcdefghij';
export const chaosTokens = createStreamTokens({ secret: CHAOS_STREAM_SECRET });
/** The anti-forgery token every POST body carries (spec §7), minted with the server's shared secret. */
export const { antiForgeryToken } = apiTokensFor(CHAOS_STREAM_SECRET);

/** One log request as a client builds it: `count` events with ids `{pageId}:{first…}`. */
export function logRequestBody(pageId: string, first: number, count: number): string {
  const events = Array.from({ length: count }, (_, k) => ({
    eventTimeMs: Date.now(),
    clientEventId: `${pageId}:${first + k}`,
    playerStateChange: { videoId: 'VFsunrise01', previousState: 3, state: 1, mediaTimeSec: first + k },
  }));
  return JSON.stringify({
    session_token: antiForgeryToken(),
    context: { client: { clientName: 'WEB_EMBEDDED_PLAYER', clientVersion: '1.0' } },
    events,
    requestTimeMs: Date.now(),
    serializedClientEventId: { serializedEventId: pageId, clientCounter: first },
  });
}

/**
 * POSTs a log request, with `headers` added (a proxy's test header, say); resolves with the status (and Retry-After),
 * or `0` when the connection failed.
 */
export async function postLog(
  origin: string,
  token: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; retryAfter?: string }> {
  try {
    const response = await fetch(`${origin}/youtubei/v1/log_event`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-vidframe-stream-token': token },
      body,
    });
    await response.arrayBuffer();
    return { status: response.status, retryAfter: response.headers.get('retry-after') ?? undefined };
  } catch {
    return { status: 0 };
  }
}

/** Every `stream/clientEventId` the collector lists, with how many times each is listed (walks every page). */
export async function listedIds(origin: string): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ limit: '500', ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${origin}/collector/api/events?${query}`, { headers: { authorization: `Bearer ${CHAOS_ADMIN_TOKEN}` } });
    if (!response.ok) throw new Error(`listing events: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { items: { stream: string; clientEventId: string }[]; nextCursor?: string };
    for (const e of page.items) seen.set(`${e.stream}/${e.clientEventId}`, (seen.get(`${e.stream}/${e.clientEventId}`) ?? 0) + 1);
    cursor = page.nextCursor;
  } while (cursor);
  return seen;
}

export async function adminJson<T>(origin: string, path: string): Promise<T> {
  const response = await fetch(origin + path, { headers: { authorization: `Bearer ${CHAOS_ADMIN_TOKEN}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * One simulated viewer: a stream of its own, and the requests it has sent and had acknowledged. `headers` go with each
 * of its requests (behind a test proxy, the client address it stands for).
 */
export class ChaosClient {
  readonly token: string;
  readonly stream: string;
  /** Bodies by first event number, and whether each was acknowledged (200). */
  readonly requests = new Map<number, { body: string; ids: string[]; acked: boolean }>();
  private next = 0;

  constructor(
    readonly pageId: string,
    readonly eventsPerRequest = 5,
    readonly headers: Record<string, string> = {},
  ) {
    ({ token: this.token, stream: this.stream } = chaosTokens.issue());
  }

  /** Builds the next request (not yet sent). */
  nextRequest(): { first: number; body: string } {
    const first = this.next;
    this.next += this.eventsPerRequest;
    const body = logRequestBody(this.pageId, first, this.eventsPerRequest);
    const ids = Array.from({ length: this.eventsPerRequest }, (_, k) => `${this.stream}/${this.pageId}:${first + k}`);
    this.requests.set(first, { body, ids, acked: false });
    return { first, body };
  }

  async send(origin: string, first: number): Promise<number> {
    const request = this.requests.get(first)!;
    const { status } = await postLog(origin, this.token, request.body, this.headers);
    if (status === 200) request.acked = true;
    return status;
  }

  ackedIds(): string[] {
    return [...this.requests.values()].filter((r) => r.acked).flatMap((r) => r.ids);
  }
  allIds(): string[] {
    return [...this.requests.values()].flatMap((r) => r.ids);
  }
  unacked(): number[] {
    return [...this.requests.entries()].filter(([, r]) => !r.acked).map(([first]) => first);
  }
}
