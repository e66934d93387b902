import type { IncomingEvent, IncomingRequest, RecordOutcome } from '../../store';
import type { PendingWrite } from '../pendingWrite';
import type { ClickHouseConnection } from './connection';
import { quoteString, wellFormed } from './sql';
import { isStr, jsonOrNull, nullable } from './validate';

/** The pre-insert duplicate look-up is split into queries of about this many characters (max_query_size is 256 KiB). */
const LOOKUP_QUERY_CHARS = 64 * 1024;

/**
 * Inserts the events of a batch not stored before (first occurrence in the batch wins), then the requests' rows.
 * Resolves once ClickHouse has acknowledged both inserts.
 */
export async function writeLogBatch(conn: ClickHouseConnection, batch: readonly PendingWrite[]): Promise<RecordOutcome[]> {
  const firsts = new Map<string, { event: IncomingEvent; seq: number; index: number; request: IncomingRequest }>();
  batch.forEach(({ events, request }, index) =>
    events.forEach((event, seq) => {
      const key = JSON.stringify([wellFormed(event.stream), wellFormed(event.dedupeKey)]);
      if (!firsts.has(key)) firsts.set(key, { event, seq, index, request });
    }),
  );
  const existing = await existingKeys(
    conn,
    [...firsts.values()].map(({ event }) => event),
  );
  const fresh = [...firsts.entries()].filter(([key]) => !existing.has(key)).map(([, entry]) => entry);
  const acceptedBy = new Map<number, number>();
  for (const { index } of fresh) acceptedBy.set(index, (acceptedBy.get(index) ?? 0) + 1);
  // The requests' rows are built before anything is written: a field that cannot be serialised fails the batch
  // before its events are in, not after (which would make the one-by-one retry count them as duplicates).
  const answers = batch.map(({ events, request }, index) => {
    const accepted = acceptedBy.get(index) ?? 0;
    const outcome: RecordOutcome = { accepted, duplicates: events.length - accepted };
    return { outcome, row: requestRow(request, outcome) };
  });

  if (fresh.length > 0) {
    await conn.client.insert({
      table: conn.table('events'),
      format: 'JSONEachRow',
      values: fresh.map(({ event, seq, request }) => eventRow(event, seq, request)),
    });
  }
  await conn.client.insert({ table: conn.table('requests'), format: 'JSONEachRow', values: answers.map(({ row }) => row) });
  return answers.map(({ outcome }) => outcome);
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
    ...viewerOf(request),
  };
}

/** An event's row; `seq` is its position in the request that stores it first. */
function eventRow(event: IncomingEvent, seq: number, request: IncomingRequest) {
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
    // Who sent it: that of the request that stores it first (the surviving row of the key).
    ...viewerOf(request),
  };
}

/**
 * Which of these events are stored already (keys as `JSON.stringify([stream, dedupeKey])`). Best effort, for the
 * `duplicates` count only: any stored version of a key counts, so no FINAL is needed. Split into queries of
 * bounded length, grouped by stream so that each condition uses the table's sorting key.
 */
async function existingKeys(conn: ClickHouseConnection, events: IncomingEvent[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const query of lookupQueries(conn.table('events'), events)) {
    // A single huge key can exceed the default max_query_size (256 KiB): allow what the query needs.
    const settings = query.length > 200_000 ? { max_query_size: String(query.length + 1024) } : undefined;
    const result = await conn.client.query({ query, format: 'JSONEachRow', clickhouse_settings: settings });
    for (const row of await result.json<{ stream: string; dedupe_key: string }>()) found.add(JSON.stringify([row.stream, row.dedupe_key]));
  }
  return found;
}

/** The look-up's SELECTs, each of about {@link LOOKUP_QUERY_CHARS} at most (one key longer than that is a query of its own). */
function lookupQueries(table: string, events: IncomingEvent[]): string[] {
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
    queries.push(`SELECT DISTINCT stream, dedupe_key FROM ${table} WHERE ${conditions.join(' OR ')}`);
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
