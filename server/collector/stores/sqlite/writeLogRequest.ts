import type { SqliteDatabase } from '../../../db/openDatabase';
import type { IncomingEvent, IncomingRequest, RecordOutcome } from '../../store';
import { payloadHashOf } from '../payloadHash';
import type { RunningTotals } from './totals';

/** Writes one request, its events and their totals; the caller runs it inside a transaction. */
export type WriteLogRequest = (write: { request: IncomingRequest; events: readonly IncomingEvent[] }) => RecordOutcome;

/**
 * De-duplication is the unique key (stream, dedupe_key): `INSERT … ON CONFLICT DO NOTHING`, counted per row. An event
 * whose key is stored already is a duplicate when its payload is the stored one (same hash, or same JSON for a row
 * stored before hashes were kept), and a conflict otherwise: stored in `collector_conflicts` (unique on the key and
 * the hash, so a resent conflicting copy is a duplicate too).
 */
export function prepareWriteLogRequest(db: SqliteDatabase, { bump, bumpName, rollUpEventsFrom }: RunningTotals): WriteLogRequest {
  const insertEvent = db.prepare(
    `INSERT INTO collector_events (stream, dedupe_key, client_event_id, name, endpoint, event_time_ms, received_at_ms, request_id, value, json,
       json_hash, account_id, channel_id)
     VALUES (@stream, @dedupeKey, @clientEventId, @name, @endpoint, @eventTimeMs, @receivedAtMs, @requestId, @value, @json,
       @jsonHash, @accountId, @channelId)
     ON CONFLICT (stream, dedupe_key) DO NOTHING`,
  );
  // Whether the event stored under the key has this payload: compared in SQL (through the unique key), so only the
  // answer comes out; a row stored before hashes were kept compares by its JSON.
  const samePayload = db
    .prepare(
      `SELECT 1 FROM collector_events WHERE stream = @stream AND dedupe_key = @dedupeKey
         AND CASE WHEN json_hash IS NULL THEN json = @json ELSE json_hash = @jsonHash END`,
    )
    .pluck();
  const insertConflict = db.prepare(
    `INSERT INTO collector_conflicts (stream, dedupe_key, client_event_id, name, endpoint, event_time_ms, received_at_ms, request_id, value, json,
       json_hash, account_id, channel_id)
     VALUES (@stream, @dedupeKey, @clientEventId, @name, @endpoint, @eventTimeMs, @receivedAtMs, @requestId, @value, @json,
       @jsonHash, @accountId, @channelId)
     ON CONFLICT (stream, dedupe_key, json_hash) DO NOTHING`,
  );
  const insertRequest = db.prepare(
    `INSERT INTO collector_requests (request_id, stream, endpoint, received_at_ms, compressed, content_type, body_bytes, decoded_bytes,
       headers_json, serialized_client_event_id_json, page_id, request_time_ms_json, context_json, event_count, refused, accepted, duplicates,
       conflicts, account_id, channel_id)
     VALUES (@requestId, @stream, @endpoint, @receivedAtMs, @compressed, @contentType, @bodyBytes, @decodedBytes,
       @headersJson, @serializedJson, @pageId, @requestTimeJson, @contextJson, @eventCount, @refused, @accepted, @duplicates,
       @conflicts, @accountId, @channelId)`,
  );

  return ({ request, events }) => {
    let accepted = 0;
    let duplicates = 0;
    let conflicts = 0;
    let firstSeq: number | undefined;
    const byName = new Map<string, number>();
    // Who sent it, on the request and on each event it stores first (a resend keeps the first arrival's).
    const viewer = { accountId: request.viewer?.accountId ?? null, channelId: request.viewer?.channelId ?? null };
    for (const e of events) {
      const jsonHash = payloadHashOf(e.json);
      const row = {
        stream: e.stream,
        dedupeKey: e.dedupeKey,
        clientEventId: e.clientEventId ?? null,
        name: e.name,
        endpoint: e.endpoint,
        eventTimeMs: e.eventTimeMs === undefined ? null : Math.trunc(e.eventTimeMs),
        receivedAtMs: request.receivedAtMs,
        requestId: request.requestId,
        value: e.value ?? null,
        json: e.json,
        jsonHash,
        ...viewer,
      };
      const inserted = insertEvent.run(row);
      if (inserted.changes > 0) {
        firstSeq ??= Number(inserted.lastInsertRowid);
        accepted += 1;
        byName.set(e.name, (byName.get(e.name) ?? 0) + 1);
      } else if (samePayload.get(row) === undefined && insertConflict.run(row).changes > 0) {
        conflicts += 1;
      } else {
        duplicates += 1;
      }
    }
    const serialized = request.serializedClientEventId as { serializedEventId?: unknown } | undefined;
    insertRequest.run({
      requestId: request.requestId,
      stream: request.stream,
      endpoint: request.endpoint,
      receivedAtMs: request.receivedAtMs,
      compressed: request.compressed ? 1 : 0,
      contentType: request.contentType,
      bodyBytes: request.bodyBytes,
      decodedBytes: request.decodedBytes,
      headersJson: JSON.stringify(request.headers),
      serializedJson: request.serializedClientEventId === undefined ? null : JSON.stringify(request.serializedClientEventId),
      pageId: serialized && typeof serialized === 'object' && typeof serialized.serializedEventId === 'string' ? serialized.serializedEventId : null,
      requestTimeJson: request.requestTimeMs === undefined ? null : JSON.stringify(request.requestTimeMs),
      contextJson: request.contextJson ?? null,
      eventCount: request.eventCount,
      refused: request.refused,
      accepted,
      duplicates,
      conflicts,
      ...viewer,
    });
    bump('requests', 1);
    bump('compressedRequests', request.compressed ? 1 : 0);
    bump('events', accepted);
    bump(`endpoint:${request.endpoint}`, accepted);
    bump('duplicatesDropped', duplicates);
    bump('conflicts', conflicts);
    bump('refusedEvents', request.refused);
    for (const [name, count] of byName) bumpName(name, count);
    if (firstSeq !== undefined) rollUpEventsFrom(firstSeq);
    return { accepted, duplicates, conflicts };
  };
}
