import type { StoredErrorReport, StoredEvent, StoredPing, StoredRequest } from '../../store';

/** A row as better-sqlite3 returns it: its columns are read one by one, with their types, in each mapper below. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the driver's rows are untyped; `unknown` would need a cast per column
export type SqlRow = Record<string, any>;

/** Who sent a request (and its events): NULL for anonymous viewers and for rows stored before migration 2. */
export type AttributionColumns = { account_id: string | null; channel_id: string | null };

export type EventRow = {
  seq: number;
  stream: string;
  dedupe_key: string;
  client_event_id: string | null;
  name: string;
  endpoint: 'log_event' | 'video_stats';
  event_time_ms: number | null;
  received_at_ms: number;
  request_id: string;
  value: number | null;
  json: string;
} & AttributionColumns;

/** A row's `account_id` / `channel_id` as the lists show them: absent when NULL. */
const attribution = (r: AttributionColumns) => ({
  ...(r.account_id !== null ? { accountId: r.account_id } : {}),
  ...(r.channel_id !== null ? { channelId: r.channel_id } : {}),
});

const parseJson = (text: string | null): unknown => {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

export const rowToEvent = (r: EventRow): StoredEvent => ({
  stream: r.stream,
  dedupeKey: r.dedupe_key,
  ...(r.client_event_id !== null ? { clientEventId: r.client_event_id } : {}),
  name: r.name,
  endpoint: r.endpoint,
  ...(r.event_time_ms !== null ? { eventTimeMs: r.event_time_ms } : {}),
  receivedAtMs: r.received_at_ms,
  requestId: r.request_id,
  ...(r.value !== null ? { value: r.value } : {}),
  event: parseJson(r.json) as Record<string, unknown>,
  ...attribution(r),
});

export const rowToPing = (r: SqlRow): StoredPing => ({
  id: String(r.seq),
  kind: r.kind,
  docid: r.docid,
  ei: r.ei,
  cpn: r.cpn,
  seq: r.ping_seq,
  receivedAtMs: r.received_at_ms,
  cmt: r.cmt,
  rt: r.rt,
  ...(r.len !== null ? { len: r.len } : {}),
  ...(r.state !== null ? { state: r.state } : {}),
  st: parseJson(r.st_json) as number[],
  et: parseJson(r.et_json) as number[],
  final: r.final === 1,
});

export const rowToRequest = (r: SqlRow & AttributionColumns): StoredRequest => ({
  requestId: r.request_id,
  stream: r.stream,
  endpoint: r.endpoint,
  receivedAtMs: r.received_at_ms,
  compressed: r.compressed === 1,
  contentType: r.content_type,
  bodyBytes: r.body_bytes,
  decodedBytes: r.decoded_bytes,
  headers: parseJson(r.headers_json) as Record<string, string>,
  ...(r.serialized_client_event_id_json !== null ? { serializedClientEventId: parseJson(r.serialized_client_event_id_json) } : {}),
  ...(r.request_time_ms_json !== null ? { requestTimeMs: parseJson(r.request_time_ms_json) } : {}),
  ...(r.context_json !== null ? { context: parseJson(r.context_json) } : {}),
  eventCount: r.event_count,
  refused: r.refused,
  accepted: r.accepted,
  duplicates: r.duplicates,
  conflicts: r.conflicts,
  ...attribution(r),
});

export const rowToError = (r: SqlRow): StoredErrorReport => ({
  id: String(r.seq),
  receivedAtMs: r.received_at_ms,
  message: r.message,
  messageTruncated: r.message_truncated === 1,
  ...(r.url !== null ? { url: r.url } : {}),
  ...(r.file !== null ? { file: r.file } : {}),
  ...(r.line !== null ? { line: r.line } : {}),
  ...(r.stack !== null ? { stack: r.stack } : {}),
  ...(r.type !== null ? { type: r.type } : {}),
  extra: parseJson(r.extra_json) as Record<string, string>,
});
