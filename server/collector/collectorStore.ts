import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The log endpoints the collector takes. */
export type CollectorEndpoint = 'log_event' | 'video_stats';

/** One event as the collector keeps it. */
export interface StoredEvent {
  /** Arrival order across restarts, from 1. */
  seq: number;
  /** The client-unique id (`clientEventId`), or a content hash for events that carry none. */
  dedupeKey: string;
  clientEventId?: string;
  /** The payload key of the event (`playerStateChange`, …). */
  name: string;
  endpoint: CollectorEndpoint;
  eventTimeMs?: number;
  receivedAtMs: number;
  requestId: string;
  event: Record<string, unknown>;
}

/** Raw metadata of one accepted log request. */
export interface StoredRequest {
  requestId: string;
  endpoint: CollectorEndpoint;
  receivedAtMs: number;
  compressed: boolean;
  contentType: string;
  /** Bytes on the wire, and after gunzip. */
  bodyBytes: number;
  decodedBytes: number;
  /** The request headers that matter (visitor id, client name/version, time zone, …). */
  headers: Record<string, string>;
  serializedClientEventId?: unknown;
  requestTimeMs?: unknown;
  context?: unknown;
  eventCount: number;
  accepted: number;
  duplicates: number;
}

/** One report of the error-reporting endpoint. */
export interface StoredErrorReport {
  seq: number;
  receivedAtMs: number;
  message: string;
  messageTruncated: boolean;
  url?: string;
  file?: string;
  line?: string;
  stack?: string;
  type?: string;
  /** Everything else the client sent, kept as strings. */
  extra: Record<string, string>;
}

export interface EventQuery {
  name?: string;
  endpoint?: CollectorEndpoint;
  /** Received at or after this time (ms since the epoch). */
  since?: number;
  /** Only events with a larger `seq` (for polling). */
  afterSeq?: number;
  limit?: number;
}

export interface CollectorStats {
  requests: number;
  compressedRequests: number;
  events: number;
  duplicatesDropped: number;
  byEndpoint: Record<CollectorEndpoint, number>;
  byName: Record<string, number>;
  errors: number;
}

export interface CollectorStore {
  readonly dir: string;
  /** Keeps the request's metadata and every event not seen before; returns what was accepted. */
  recordLogRequest(
    meta: Omit<StoredRequest, 'eventCount' | 'accepted' | 'duplicates'>,
    events: Record<string, unknown>[],
  ): { accepted: number; duplicates: number };
  recordError(report: Omit<StoredErrorReport, 'seq'>): StoredErrorReport;
  listEvents(query?: EventQuery): StoredEvent[];
  listRequests(): StoredRequest[];
  listErrors(): StoredErrorReport[];
  stats(): CollectorStats;
  /** Forgets everything, on disk too. */
  clear(): void;
}

/** Keys of a wire event that are not its payload. */
const ENVELOPE_KEYS = new Set(['eventTimeMs', 'clientEventId', 'context']);

/** The payload key of a wire event (`{eventTimeMs, clientEventId, playerReady: {…}}` → `playerReady`). */
export const eventNameOf = (event: Record<string, unknown>): string => Object.keys(event).find((k) => !ENVELOPE_KEYS.has(k)) ?? 'unknown';

/** Stable JSON (sorted keys) so that the same content always hashes the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Reads a JSONL file, skipping lines that do not parse (a crash mid-append leaves at most one such line). */
function readJsonl<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  const out: T[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      /* a torn last line: skipped, the rest stays readable */
    }
  }
  return out;
}

/**
 * The collector's embedded store: three append-only JSONL files under `{dataDir}/collector/` (requests, events,
 * error reports), created on first start and read back on the next, plus an in-memory index. Events are
 * de-duplicated by their `clientEventId` (or a content hash when they have none), so a resent request never counts
 * an event twice — also across restarts.
 */
export function createCollectorStore(dataDir: string): CollectorStore {
  const dir = join(dataDir, 'collector');
  mkdirSync(dir, { recursive: true });
  const files = { requests: join(dir, 'requests.jsonl'), events: join(dir, 'events.jsonl'), errors: join(dir, 'errors.jsonl') };

  let requests = readJsonl<StoredRequest>(files.requests);
  let events = readJsonl<StoredEvent>(files.events);
  let errors = readJsonl<StoredErrorReport>(files.errors);
  let seen = new Set(events.map((e) => e.dedupeKey));
  let lastSeq = events.reduce((max, e) => Math.max(max, e.seq ?? 0), 0);
  let lastErrorSeq = errors.reduce((max, e) => Math.max(max, e.seq ?? 0), 0);

  const append = (file: string, records: unknown[]) => {
    if (records.length > 0) appendFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  };

  return {
    dir,
    recordLogRequest(meta, incoming) {
      const fresh: StoredEvent[] = [];
      let duplicates = 0;
      for (const event of incoming) {
        const clientEventId = typeof event.clientEventId === 'string' && event.clientEventId ? event.clientEventId : undefined;
        const dedupeKey = clientEventId ?? `sha256:${createHash('sha256').update(`${meta.endpoint}:${stableJson(event)}`).digest('base64url')}`;
        if (seen.has(dedupeKey)) {
          duplicates++;
          continue;
        }
        seen.add(dedupeKey);
        fresh.push({
          seq: ++lastSeq,
          dedupeKey,
          ...(clientEventId ? { clientEventId } : {}),
          name: eventNameOf(event),
          endpoint: meta.endpoint,
          ...(typeof event.eventTimeMs === 'number' ? { eventTimeMs: event.eventTimeMs } : {}),
          receivedAtMs: meta.receivedAtMs,
          requestId: meta.requestId,
          event,
        });
      }
      const request: StoredRequest = { ...meta, eventCount: incoming.length, accepted: fresh.length, duplicates };
      // Events first: if the process dies in between, the request line is what is missing, not the data.
      append(files.events, fresh);
      append(files.requests, [request]);
      events.push(...fresh);
      requests.push(request);
      return { accepted: fresh.length, duplicates };
    },
    recordError(report) {
      const stored: StoredErrorReport = { seq: ++lastErrorSeq, ...report };
      append(files.errors, [stored]);
      errors.push(stored);
      return stored;
    },
    listEvents({ name, endpoint, since, afterSeq, limit } = {}) {
      const matching = events.filter(
        (e) =>
          (name === undefined || e.name === name) &&
          (endpoint === undefined || e.endpoint === endpoint) &&
          (since === undefined || e.receivedAtMs >= since) &&
          (afterSeq === undefined || e.seq > afterSeq),
      );
      return limit === undefined ? matching : matching.slice(0, limit);
    },
    listRequests: () => requests.slice(),
    listErrors: () => errors.slice(),
    stats() {
      const byName: Record<string, number> = {};
      for (const e of events) byName[e.name] = (byName[e.name] ?? 0) + 1;
      return {
        requests: requests.length,
        compressedRequests: requests.filter((r) => r.compressed).length,
        events: events.length,
        duplicatesDropped: requests.reduce((n, r) => n + (r.duplicates ?? 0), 0),
        byEndpoint: {
          log_event: events.filter((e) => e.endpoint === 'log_event').length,
          video_stats: events.filter((e) => e.endpoint === 'video_stats').length,
        },
        byName,
        errors: errors.length,
      };
    },
    clear() {
      for (const file of Object.values(files)) writeFileSync(file, '');
      requests = [];
      events = [];
      errors = [];
      seen = new Set();
      lastSeq = 0;
      lastErrorSeq = 0;
    },
  };
}
