import type { IncomingEvent, IncomingRequest, RecordOutcome } from '../../store';
import { payloadHashOf } from '../payloadHash';
import type { PendingWrite } from '../pendingWrite';
import type { ClickHouseConnection } from './connection';
import { quoteString, wellFormed } from './sql';
import { isStr, jsonOrNull, nullable } from './validate';

/** The pre-insert duplicate look-up is split into queries of about this many characters (max_query_size is 256 KiB). */
const LOOKUP_QUERY_CHARS = 64 * 1024;

/** An event of the batch to insert, with its position in its request and the batch's request that carries it. */
interface Placed {
  event: IncomingEvent;
  jsonHash: string;
  seq: number;
  index: number;
  request: IncomingRequest;
}

const keyOf = (stream: string, dedupeKey: string) => JSON.stringify([stream, dedupeKey]);

/**
 * Inserts the events of a batch not stored before (first occurrence in the batch wins) and the conflicting copies
 * (a key stored before, or earlier in the batch, with another payload; each payload once), then the requests' rows.
 * Resolves once ClickHouse has acknowledged the inserts.
 */
export async function writeLogBatch(conn: ClickHouseConnection, batch: readonly PendingWrite[]): Promise<RecordOutcome[]> {
  const placed: Placed[] = batch.flatMap(({ events, request }, index) =>
    events.map((event, seq) => ({ event, jsonHash: payloadHashOf(event.json), seq, index, request })),
  );
  const keys = new Map<string, IncomingEvent>();
  for (const { event } of placed) keys.set(keyOf(wellFormed(event.stream), wellFormed(event.dedupeKey)), event);
  // The payloads stored under each key, then the conflicting copies stored already of the keys that may have some.
  const known = await storedHashes(conn, [...keys.values()]);
  const batchHashes = new Map<string, Set<string>>();
  for (const p of placed) {
    const key = keyOf(wellFormed(p.event.stream), wellFormed(p.event.dedupeKey));
    batchHashes.set(key, (batchHashes.get(key) ?? new Set()).add(p.jsonHash));
  }
  const mayConflict = [...batchHashes].flatMap(([key, hashes]) => {
    const stored = known.get(key);
    const event = keys.get(key);
    return event && (hashes.size > 1 || (stored !== undefined && [...hashes].some((h) => !stored.has(h)))) ? [event] : [];
  });
  const storedConflicts = await storedConflictHashes(conn, mayConflict);

  const fresh: Placed[] = [];
  const conflicting: Placed[] = [];
  const outcomes: RecordOutcome[] = batch.map(() => ({ accepted: 0, duplicates: 0, conflicts: 0 }));
  for (const p of placed) {
    const key = keyOf(wellFormed(p.event.stream), wellFormed(p.event.dedupeKey));
    const hashes = known.get(key);
    const outcome = outcomes[p.index];
    if (outcome === undefined) continue; // never: one outcome per request of the batch
    if (hashes === undefined) {
      known.set(key, new Set([p.jsonHash]));
      fresh.push(p);
      outcome.accepted += 1;
    } else if (hashes.has(p.jsonHash) || storedConflicts.has(keyOf(key, p.jsonHash))) {
      outcome.duplicates += 1;
    } else {
      storedConflicts.add(keyOf(key, p.jsonHash));
      conflicting.push(p);
      outcome.conflicts += 1;
    }
  }
  // The requests' rows are built before anything is written: a field that cannot be serialised fails the batch
  // before its events are in, not after (which would make the one-by-one retry count them as duplicates).
  const requestRows = batch.map(({ request }, index) => requestRow(request, outcomes[index] ?? { accepted: 0, duplicates: 0, conflicts: 0 }));

  if (fresh.length > 0) {
    await conn.client.insert({ table: conn.table('events'), format: 'JSONEachRow', values: fresh.map(eventRow) });
  }
  if (conflicting.length > 0) {
    await conn.client.insert({ table: conn.table('conflicts'), format: 'JSONEachRow', values: conflicting.map(eventRow) });
  }
  await conn.client.insert({ table: conn.table('requests'), format: 'JSONEachRow', values: requestRows });
  return outcomes;
}

const viewerOf = ({ viewer }: IncomingRequest) => ({ account_id: nullable(viewer?.accountId), channel_id: nullable(viewer?.channelId) });

function requestRow(request: IncomingRequest, outcome: RecordOutcome) {
  const serialized = request.serializedClientEventId as { serializedEventId?: unknown } | null | undefined;
  return {
    request_id: wellFormed(request.requestId),
    stream: wellFormed(request.stream),
    endpoint: request.endpoint,
    received_at_ms: request.receivedAtMs,
    compressed: request.compressed ? 1 : 0,
    content_type: wellFormed(request.contentType),
    body_bytes: request.bodyBytes,
    decoded_bytes: request.decodedBytes,
    headers_json: jsonOrNull(request.headers, 'headers') ?? '{}',
    serialized_client_event_id_json: jsonOrNull(request.serializedClientEventId, 'serializedClientEventId'),
    page_id: serialized && typeof serialized === 'object' && isStr(serialized.serializedEventId) ? wellFormed(serialized.serializedEventId) : '',
    request_time_ms_json: jsonOrNull(request.requestTimeMs, 'requestTimeMs'),
    context_json: nullable(request.contextJson),
    event_count: request.eventCount,
    refused: request.refused,
    accepted: outcome.accepted,
    duplicates: outcome.duplicates,
    conflicts: outcome.conflicts,
    ...viewerOf(request),
  };
}

/** An event's row (in `events` or `conflicts`); `seq` is its position in the request that stores it. */
function eventRow({ event, jsonHash, seq, request }: Placed) {
  return {
    stream: wellFormed(event.stream),
    dedupe_key: wellFormed(event.dedupeKey),
    client_event_id: nullable(event.clientEventId),
    name: wellFormed(event.name),
    endpoint: event.endpoint,
    event_time_ms: event.eventTimeMs ?? null,
    received_at_ms: request.receivedAtMs,
    request_id: wellFormed(request.requestId),
    seq,
    value: event.value ?? null,
    json: wellFormed(event.json),
    json_hash: jsonHash,
    // Who sent it: that of the request that stores it first (the surviving row of the key).
    ...viewerOf(request),
  };
}

/**
 * The payload hashes stored under each of these events' keys (keys as `JSON.stringify([stream, dedupeKey])`); a row
 * stored before hashes were kept is hashed from its JSON here. Best effort, for the outcome's counts: any stored
 * version of a key counts, so no FINAL is needed. Split into queries of bounded length, grouped by stream so that
 * each condition uses the table's sorting key.
 */
async function storedHashes(conn: ClickHouseConnection, events: IncomingEvent[]): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  const columns = "stream, dedupe_key, ifNull(json_hash, '') AS hash, if(isNull(json_hash), json, '') AS old_json";
  for (const row of await lookUp<{ stream: string; dedupe_key: string; hash: string; old_json: string }>(conn, 'events', columns, events)) {
    const key = keyOf(row.stream, row.dedupe_key);
    found.set(key, (found.get(key) ?? new Set()).add(row.hash === '' ? payloadHashOf(row.old_json) : row.hash));
  }
  return found;
}

/** The conflicting copies stored already of these events' keys, as `JSON.stringify([key, jsonHash])`. */
async function storedConflictHashes(conn: ClickHouseConnection, events: IncomingEvent[]): Promise<Set<string>> {
  const found = new Set<string>();
  if (events.length === 0) return found;
  for (const row of await lookUp<{ stream: string; dedupe_key: string; json_hash: string }>(conn, 'conflicts', 'stream, dedupe_key, json_hash', events)) {
    found.add(keyOf(keyOf(row.stream, row.dedupe_key), row.json_hash));
  }
  return found;
}

/** Runs the look-up of these events' keys in `table`, selecting `columns` (constant text, never a value from outside). */
async function lookUp<R>(conn: ClickHouseConnection, table: 'events' | 'conflicts', columns: string, events: IncomingEvent[]): Promise<R[]> {
  const rows: R[] = [];
  for (const query of lookupQueries(conn.table(table), columns, events)) {
    // A single huge key can exceed the default max_query_size (256 KiB): allow what the query needs.
    const settings = query.length > 200_000 ? { max_query_size: String(query.length + 1024) } : undefined;
    const result = await conn.client.query({ query, format: 'JSONEachRow', clickhouse_settings: settings });
    rows.push(...(await result.json<R>()));
  }
  return rows;
}

/** The look-up's SELECTs, each of about {@link LOOKUP_QUERY_CHARS} at most (one key longer than that is a query of its own). */
function lookupQueries(table: string, columns: string, events: IncomingEvent[]): string[] {
  const byStream = new Map<string, string[]>();
  for (const e of events) {
    const stream = wellFormed(e.stream);
    const keys = byStream.get(stream) ?? [];
    keys.push(wellFormed(e.dedupeKey));
    byStream.set(stream, keys);
  }
  const queries: string[] = [];
  let conditions: string[] = [];
  let length = 0;
  const flush = () => {
    if (conditions.length === 0) return;
    queries.push(`SELECT DISTINCT ${columns} FROM ${table} WHERE ${conditions.join(' OR ')}`);
    conditions = [];
    length = 0;
  };
  for (const [stream, keys] of byStream) {
    let quoted: string[] = [];
    let size = 0;
    const push = () => {
      if (quoted.length === 0) return;
      const condition = `(stream = ${quoteString(stream)} AND dedupe_key IN (${quoted.join(', ')}))`;
      if (length + condition.length > LOOKUP_QUERY_CHARS) flush();
      conditions.push(condition);
      length += condition.length;
      quoted = [];
      size = 0;
    };
    for (const key of keys) {
      const q = quoteString(key);
      if (size + q.length > LOOKUP_QUERY_CHARS) push();
      quoted.push(q);
      size += q.length + 2;
    }
    push();
  }
  flush();
  return queries;
}
