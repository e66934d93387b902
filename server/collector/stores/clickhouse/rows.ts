/**
 * The ClickHouse store's rows as its SELECTs return them, and their mapping to what the store lists. JSONEachRow
 * may give a number as a string (64-bit integers are quoted), so every number goes through {@link num}; a NULL column
 * is an absent field.
 */
import type { CollectorEndpoint, StoredErrorReport, StoredEvent, StoredPing, StoredRequest, ViewerAttribution } from '../../store';

export const num = (v: unknown): number => Number(v);
const parseJson = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

export interface EventRow {
  stream: string;
  dedupe_key: string;
  client_event_id: string | null;
  name: string;
  endpoint: CollectorEndpoint;
  event_time_ms: number | null;
  received_at_ms: string;
  request_id: string;
  seq: number | string;
  value: number | null;
  json: string;
  /** NULL for anonymous viewers and for rows stored before migration 2. */
  account_id: string | null;
  channel_id: string | null;
}
export interface RequestRow {
  request_id: string;
  stream: string;
  endpoint: CollectorEndpoint;
  received_at_ms: string;
  compressed: number | string;
  content_type: string;
  body_bytes: string;
  decoded_bytes: string;
  headers_json: string;
  serialized_client_event_id_json: string | null;
  request_time_ms_json: string | null;
  context_json: string | null;
  event_count: number | string;
  refused: number | string;
  accepted: number | string;
  duplicates: number | string;
  /** Always read (`SELECT *`): parts written before migration 4 read the column's default, 0. */
  conflicts: number | string;
  account_id: string | null;
  channel_id: string | null;
}
export interface ErrorRow {
  id: string;
  received_at_ms: string;
  message: string;
  message_truncated: number | string;
  url: string | null;
  file: string | null;
  line: string | null;
  stack: string | null;
  type: string | null;
  extra_json: string;
}

export interface PingRow {
  kind: StoredPing['kind'];
  docid: string;
  ei: string;
  cpn: string;
  ping_seq: number | string;
  received_at_ms: string;
  id: string;
  cmt: number;
  rt: number;
  len: number | null;
  state: string | null;
  st_json: string;
  et_json: string;
  final: number | string;
}

/** The columns of `events` a list of events reads. */
export const EVENT_COLUMNS =
  'stream, dedupe_key, client_event_id, name, endpoint, event_time_ms, received_at_ms, request_id, seq, value, json, account_id, channel_id';

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    stream: row.stream,
    dedupeKey: row.dedupe_key,
    ...(row.client_event_id !== null ? { clientEventId: row.client_event_id } : {}),
    name: row.name,
    endpoint: row.endpoint,
    ...(row.event_time_ms !== null ? { eventTimeMs: num(row.event_time_ms) } : {}),
    receivedAtMs: num(row.received_at_ms),
    requestId: row.request_id,
    ...(row.value !== null ? { value: num(row.value) } : {}),
    event: JSON.parse(row.json) as Record<string, unknown>,
    ...attribution(row),
  };
}

/** A row's `account_id` / `channel_id` as the lists show them: absent when NULL. */
function attribution(row: { account_id: string | null; channel_id: string | null }): ViewerAttribution {
  return {
    ...(row.account_id !== null && row.account_id !== undefined ? { accountId: row.account_id } : {}),
    ...(row.channel_id !== null && row.channel_id !== undefined ? { channelId: row.channel_id } : {}),
  };
}

export function toStoredRequest(row: RequestRow): StoredRequest {
  const serialized = parseJson(row.serialized_client_event_id_json);
  const requestTime = parseJson(row.request_time_ms_json);
  const context = parseJson(row.context_json);
  return {
    requestId: row.request_id,
    stream: row.stream,
    endpoint: row.endpoint,
    receivedAtMs: num(row.received_at_ms),
    compressed: num(row.compressed) === 1,
    contentType: row.content_type,
    bodyBytes: num(row.body_bytes),
    decodedBytes: num(row.decoded_bytes),
    headers: JSON.parse(row.headers_json) as Record<string, string>,
    ...(serialized !== undefined ? { serializedClientEventId: serialized } : {}),
    ...(requestTime !== undefined ? { requestTimeMs: requestTime } : {}),
    ...(context !== undefined ? { context } : {}),
    eventCount: num(row.event_count),
    refused: num(row.refused),
    accepted: num(row.accepted),
    duplicates: num(row.duplicates),
    conflicts: num(row.conflicts),
    ...attribution(row),
  };
}

export function toStoredError(row: ErrorRow): StoredErrorReport {
  const optional = (key: 'url' | 'file' | 'line' | 'stack' | 'type') => (row[key] !== null ? { [key]: row[key] as string } : {});
  return {
    id: row.id,
    receivedAtMs: num(row.received_at_ms),
    message: row.message,
    messageTruncated: num(row.message_truncated) === 1,
    ...optional('url'),
    ...optional('file'),
    ...optional('line'),
    ...optional('stack'),
    ...optional('type'),
    extra: JSON.parse(row.extra_json) as Record<string, string>,
  };
}

export function toStoredPing(row: PingRow): StoredPing {
  return {
    id: row.id,
    kind: row.kind,
    docid: row.docid,
    ei: row.ei,
    cpn: row.cpn,
    seq: num(row.ping_seq),
    receivedAtMs: num(row.received_at_ms),
    cmt: num(row.cmt),
    rt: num(row.rt),
    ...(row.len !== null ? { len: num(row.len) } : {}),
    ...(row.state !== null ? { state: row.state } : {}),
    st: JSON.parse(row.st_json) as number[],
    et: JSON.parse(row.et_json) as number[],
    final: num(row.final) === 1,
  };
}
