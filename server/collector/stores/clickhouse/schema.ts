import { identifier } from './sql';

/**
 * The ClickHouse store's numbered migration ladder. Each step is a list of statements that are safe to run twice
 * (`IF NOT EXISTS`), then columns to add where missing: two collectors starting together against a new database may
 * both climb the same step, and `schema_migrations` is itself a ReplacingMergeTree, so the version they both record
 * is one row when read with FINAL. 18.16 has no `ADD COLUMN IF NOT EXISTS` (a syntax error there; 19.x has it), so a
 * column is added only when `system.columns` does not list it, and a collector that loses the race to add it (18.16
 * answers "column with this name already exists") checks `system.columns` again and goes on (see `migrate.ts`).
 *
 * Table design (every table is a ReplacingMergeTree, read with FINAL):
 * - `events` is keyed on `(stream, dedupe_key)`: that key is what makes a resent event one row, however many
 *   collectors insert it. The version column `first_seen` is larger for an earlier arrival, so the row that survives
 *   is the first arrival: a resend never moves an event in arrival order. The table is deliberately **not**
 *   partitioned (by month of arrival, say): ReplacingMergeTree replaces only within a partition, and a resend that
 *   arrives in another month would then be a second event.
 * - `seq` is the event's position in its request: arrival order is `(received_at_ms, request_id, seq)`.
 * - Optional values are `Nullable` columns (never in a sorting key, which 18.16 does not allow).
 * - `account_id`, `channel_id` (step 2): who sent a request, as the server verified it, on the request and on
 *   each event it stored first (so an event is attributable without a join). Added as `Nullable(String)` without a
 *   default, so the parts written before the step read NULL without being rewritten.
 * - `pings` (step 3): the ping beacons of spec §7, keyed on `(ei, cpn, kind, ping_seq)` so a resent ping is one row,
 *   the first arrival kept (the same `first_seen` version as `events`); `id` orders pings received in the same ms.
 * - `json_hash` (step 4): the hash of an event's JSON (`payloadHash.ts`), which tells a resend (same hash) from a
 *   conflict (another payload under the same key); NULL on parts written before the step, which compare by their JSON.
 * - `conflicts` (step 4): the copies of events whose key was stored before with another payload, keyed on
 *   `(stream, dedupe_key, json_hash)` so a resent conflicting copy is one row; `requests.conflicts` counts them per
 *   request (0 on parts written before the step).
 */

/** The largest received time the store takes (year 2286), so that `first_seen` never underflows. */
export const MAX_RECEIVED_AT_MS = 9_999_999_999_999;

/** A column a step adds to one of the data tables, unless it is there already. */
export interface AddedColumn {
  table: (typeof DATA_TABLES)[number];
  name: string;
  /** A constant type (never a value from outside): it is written into the ALTER as it is. */
  type: 'Nullable(String)' | 'UInt32 DEFAULT 0';
}

export interface Migration {
  version: number;
  description: string;
  statements: (db: string) => string[];
  /** Added after `statements`, each only if `system.columns` does not list it (18.16 has no `ADD COLUMN IF NOT EXISTS`). */
  addColumns?: readonly AddedColumn[];
}

/** The data tables `clear()` empties and retention prunes (and the ones a step may add columns to). */
export const DATA_TABLES = ['events', 'requests', 'errors', 'pings', 'conflicts'] as const;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'events, requests and error reports',
    statements: (db) => {
      const d = identifier(db);
      return [
        `CREATE TABLE IF NOT EXISTS ${d}.events (
          stream String,
          dedupe_key String,
          client_event_id Nullable(String),
          name String,
          endpoint String,
          event_time_ms Nullable(Float64),
          received_at_ms UInt64,
          request_id String,
          seq UInt32,
          value Nullable(Float64),
          json String,
          first_seen UInt64 MATERIALIZED ${MAX_RECEIVED_AT_MS} - received_at_ms
        ) ENGINE = ReplacingMergeTree(first_seen) ORDER BY (stream, dedupe_key)`,
        `CREATE TABLE IF NOT EXISTS ${d}.requests (
          request_id String,
          stream String,
          endpoint String,
          received_at_ms UInt64,
          compressed UInt8,
          content_type String,
          body_bytes UInt64,
          decoded_bytes UInt64,
          headers_json String,
          serialized_client_event_id_json Nullable(String),
          page_id String,
          request_time_ms_json Nullable(String),
          context_json Nullable(String),
          event_count UInt32,
          refused UInt32,
          accepted UInt32,
          duplicates UInt32
        ) ENGINE = ReplacingMergeTree ORDER BY (received_at_ms, request_id)`,
        `CREATE TABLE IF NOT EXISTS ${d}.errors (
          id String,
          received_at_ms UInt64,
          message String,
          message_truncated UInt8,
          url Nullable(String),
          file Nullable(String),
          line Nullable(String),
          stack Nullable(String),
          type Nullable(String),
          extra_json String
        ) ENGINE = ReplacingMergeTree ORDER BY (received_at_ms, id)`,
      ];
    },
  },
  {
    version: 2,
    description: 'requests and events: the signed-in account and channel that sent them',
    statements: () => [],
    addColumns: [
      { table: 'requests', name: 'account_id', type: 'Nullable(String)' },
      { table: 'requests', name: 'channel_id', type: 'Nullable(String)' },
      { table: 'events', name: 'account_id', type: 'Nullable(String)' },
      { table: 'events', name: 'channel_id', type: 'Nullable(String)' },
    ],
  },
  {
    version: 3,
    description: 'pings: the playback and watchtime beacons',
    statements: (db) => [
      `CREATE TABLE IF NOT EXISTS ${identifier(db)}.pings (
        kind String,
        docid String,
        ei String,
        cpn String,
        ping_seq UInt32,
        received_at_ms UInt64,
        id String,
        cmt Float64,
        rt Float64,
        len Nullable(Float64),
        state Nullable(String),
        st_json String,
        et_json String,
        final UInt8,
        first_seen UInt64 MATERIALIZED ${MAX_RECEIVED_AT_MS} - received_at_ms
      ) ENGINE = ReplacingMergeTree(first_seen) ORDER BY (ei, cpn, kind, ping_seq)`,
    ],
  },
  {
    version: 4,
    description: 'events: the payload hash, and the conflicting copies of events kept beside them',
    statements: (db) => [
      `CREATE TABLE IF NOT EXISTS ${identifier(db)}.conflicts (
        stream String,
        dedupe_key String,
        json_hash String,
        client_event_id Nullable(String),
        name String,
        endpoint String,
        event_time_ms Nullable(Float64),
        received_at_ms UInt64,
        request_id String,
        seq UInt32,
        value Nullable(Float64),
        json String,
        account_id Nullable(String),
        channel_id Nullable(String),
        first_seen UInt64 MATERIALIZED ${MAX_RECEIVED_AT_MS} - received_at_ms
      ) ENGINE = ReplacingMergeTree(first_seen) ORDER BY (stream, dedupe_key, json_hash)`,
    ],
    addColumns: [
      { table: 'events', name: 'json_hash', type: 'Nullable(String)' },
      { table: 'requests', name: 'conflicts', type: 'UInt32 DEFAULT 0' },
    ],
  },
];

/** The highest version of {@link MIGRATIONS}: a store at it needs no migration. */
export const LATEST_VERSION = MIGRATIONS.reduce((latest, { version }) => Math.max(latest, version), 0);

export const createMigrationsTable = (db: string): string =>
  `CREATE TABLE IF NOT EXISTS ${identifier(db)}.schema_migrations (version UInt32, applied_at_ms UInt64)
   ENGINE = ReplacingMergeTree ORDER BY version`;
