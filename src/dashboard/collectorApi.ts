import { map, Observable } from 'rxjs';
import {
  COLLECTOR_ENDPOINTS,
  type CollectorStats,
  type DashboardEvent,
  type EventListQuery,
  type Page,
  type TimeseriesBucket,
  type TimeseriesQuery,
} from './types';

/** Why a call failed: refused (401), another HTTP status, no answer at all, or an answer of an unexpected shape. */
export type CollectorApiFailure = 'unauthorized' | 'http' | 'network' | 'malformed';

/** A failed call to the admin API, with what the dashboard tells the reader. */
export class CollectorApiError extends Error {
  constructor(
    readonly failure: CollectorApiFailure,
    /** The HTTP status, 0 when none came. */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'CollectorApiError';
  }
}

export const isUnauthorized = (error: unknown): boolean => error instanceof CollectorApiError && error.failure === 'unauthorized';

/** One authenticated GET of a root-relative admin API path, answering its parsed JSON body once, then completing. */
export type GetJson = (path: string, token: string) => Observable<unknown>;

/** The message of the server's error body `{error: {code, message}}`, when it has one. */
const serverMessage = (body: unknown): string | undefined => {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === 'string' && message ? message : undefined;
};

/**
 * The real {@link GetJson}: `fetch` with `Authorization: Bearer`, aborted when the subscriber leaves. A 401 is
 * `unauthorized`; another non-2xx status is `http` with the server's message; no answer is `network`.
 */
export function fetchJson(fetchImpl: typeof fetch = (input, init) => fetch(input, init)): GetJson {
  return (path, token) =>
    // Hand-written: the edge to `fetch`, aborted when the subscriber leaves.
    new Observable<unknown>((subscriber) => {
      const controller = new AbortController();
      fetchImpl(path, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        cache: 'no-store',
        signal: controller.signal,
      })
        .then(
          async (response) => {
            const body: unknown = await response.json().catch(() => undefined);
            if (response.status === 401) {
              throw new CollectorApiError('unauthorized', 401, serverMessage(body) ?? 'The collector refused the admin token.');
            }
            if (!response.ok) {
              throw new CollectorApiError(
                'http',
                response.status,
                serverMessage(body) ?? `The collector answered ${response.status} ${response.statusText}.`.trim(),
              );
            }
            if (body === undefined) throw new CollectorApiError('malformed', response.status, 'The collector answered something that is not JSON.');
            subscriber.next(body);
            subscriber.complete();
          },
          (error: unknown) => {
            throw new CollectorApiError(
              'network',
              0,
              `The collector could not be reached${error instanceof Error && error.message ? ` (${error.message})` : ''}.`,
            );
          },
        )
        .catch((error: unknown) => subscriber.error(error));
      return () => controller.abort();
    });
}

/** The query string of `query`, leaving out absent values. */
export function queryString(query: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const malformed = (what: string) => new CollectorApiError('malformed', 200, `The collector's ${what} answer has an unexpected shape.`);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function asStats(body: unknown): CollectorStats {
  if (!isObject(body) || !isCount(body.events) || !isCount(body.requests)) throw malformed('stats');
  const counts = (value: unknown): Record<string, number> =>
    isObject(value) ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, number] => isCount(entry[1]))) : {};
  const byEndpoint = counts(body.byEndpoint);
  return {
    store: typeof body.store === 'string' ? body.store : 'unknown',
    requests: body.requests,
    compressedRequests: isCount(body.compressedRequests) ? body.compressedRequests : 0,
    events: body.events,
    duplicatesDropped: isCount(body.duplicatesDropped) ? body.duplicatesDropped : 0,
    conflicts: isCount(body.conflicts) ? body.conflicts : 0,
    refusedEvents: isCount(body.refusedEvents) ? body.refusedEvents : 0,
    byEndpoint: { log_event: byEndpoint.log_event ?? 0, video_stats: byEndpoint.video_stats ?? 0 },
    byName: counts(body.byName),
    errors: isCount(body.errors) ? body.errors : 0,
  };
}

function asBuckets(body: unknown): TimeseriesBucket[] {
  if (!isObject(body) || !Array.isArray(body.buckets)) throw malformed('timeseries');
  return body.buckets.filter((b): b is TimeseriesBucket => isObject(b) && isCount(b.startMs));
}

function asEventPage(body: unknown, what = 'events'): Page<DashboardEvent> {
  if (!isObject(body) || !Array.isArray(body.items)) throw malformed(what);
  const items = body.items.filter(
    (e): e is DashboardEvent =>
      isObject(e) && typeof e.name === 'string' && typeof e.stream === 'string' && typeof e.dedupeKey === 'string' && isCount(e.receivedAtMs),
  );
  for (const item of items) {
    if (!isObject(item.event)) item.event = {};
    if (!COLLECTOR_ENDPOINTS.includes(item.endpoint)) item.endpoint = 'log_event';
  }
  return typeof body.nextCursor === 'string' && body.nextCursor ? { items, nextCursor: body.nextCursor } : { items };
}

/** The admin API's reads the dashboard makes, each a cold observable of one answer. */
export interface CollectorApi {
  stats(token: string): Observable<CollectorStats>;
  timeseries(token: string, query: TimeseriesQuery): Observable<TimeseriesBucket[]>;
  events(token: string, query: EventListQuery): Observable<Page<DashboardEvent>>;
  /** The conflicting copies of events (an id stored before with another payload), with the events' filters. */
  conflicts(token: string, query: EventListQuery): Observable<Page<DashboardEvent>>;
}

/**
 * The admin API over `getJson` (injected: {@link fetchJson} in the page, `cold()` fakes in marble tests). Every path
 * is root-relative, so the page works behind a proxy under any host name. Answers are checked before use.
 */
export function createCollectorApi(getJson: GetJson): CollectorApi {
  return {
    stats: (token) => getJson('/collector/api/stats', token).pipe(map(asStats)),
    timeseries: (token, query) => getJson(`/collector/api/timeseries${queryString(query)}`, token).pipe(map(asBuckets)),
    events: (token, query) => getJson(`/collector/api/events${queryString(query)}`, token).pipe(map((body) => asEventPage(body))),
    conflicts: (token, query) => getJson(`/collector/api/conflicts${queryString(query)}`, token).pipe(map((body) => asEventPage(body, 'conflicts'))),
  };
}
