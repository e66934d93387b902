import type { Migration } from '../../../db/migrate';

/**
 * The collector's tables in the server's SQLite database, one numbered step each. Never edit a step that has
 * shipped: add the next one.
 *
 * - `collector_events`: one row per event, unique on (stream, dedupe_key): de-duplication is this key, never a set in
 *   memory. `seq` is the arrival order and the read cursor.
 * - `collector_requests`, `collector_errors`: the log requests' metadata and the error reports.
 * - `collector_totals`, `collector_name_totals`: running totals kept in the same transaction as the rows they count,
 *   so the stats never scan the store.
 * - `account_id`, `channel_id` (step 2): who sent a request, as the server verified it, on the request and
 *   on each event it stored (so an event is attributable without a join); NULL for anonymous viewers and for rows
 *   stored before the step.
 * - `collector_pings` (step 3): the ping beacons of spec §7, unique on (ei, cpn, kind, seq) so a resent ping is one
 *   row; `st` / `et` are JSON arrays of seconds.
 * - `json_hash` (step 4): the hash of an event's JSON (`payloadHash.ts`), which tells a resend (same hash) from a
 *   conflict (another payload under the same key); NULL on rows stored before the step, which compare by their JSON.
 * - `collector_conflicts` (step 4): the copies of events whose key was stored before with another payload, unique on
 *   (stream, dedupe_key, json_hash) so a resent conflicting copy is one row; `collector_requests.conflicts` counts them
 *   per request.
 * - `collector_minutes`, `collector_minute_streams` (step 5): the time series' counts and sums per minute of receipt
 *   and the streams that stored events in each minute (`minuteRollups.ts`), kept in the transaction that writes or
 *   deletes the rows they count, filled from the rows already stored when the step runs; and an index on
 *   (name, received_at_ms, value) for the start-up percentiles, which read raw values of one name over a range from
 *   the index alone.
 */
export const collectorMigrations: readonly Migration[] = [
  {
    version: 1,
    description: 'collector events, requests, error reports and running totals',
    up(db) {
      db.exec(`
        CREATE TABLE collector_events (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          stream TEXT NOT NULL,
          dedupe_key TEXT NOT NULL,
          client_event_id TEXT,
          name TEXT NOT NULL,
          endpoint TEXT NOT NULL,
          event_time_ms INTEGER,
          received_at_ms INTEGER NOT NULL,
          request_id TEXT NOT NULL,
          value REAL,
          json TEXT NOT NULL,
          UNIQUE (stream, dedupe_key)
        ) STRICT;
        CREATE INDEX collector_events_received ON collector_events (received_at_ms);
        CREATE INDEX collector_events_name ON collector_events (name, seq);
        CREATE INDEX collector_events_client_event_id ON collector_events (client_event_id);

        CREATE TABLE collector_requests (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          request_id TEXT NOT NULL UNIQUE,
          stream TEXT NOT NULL,
          endpoint TEXT NOT NULL,
          received_at_ms INTEGER NOT NULL,
          compressed INTEGER NOT NULL,
          content_type TEXT NOT NULL,
          body_bytes INTEGER NOT NULL,
          decoded_bytes INTEGER NOT NULL,
          headers_json TEXT NOT NULL,
          serialized_client_event_id_json TEXT,
          page_id TEXT,
          request_time_ms_json TEXT,
          context_json TEXT,
          event_count INTEGER NOT NULL,
          refused INTEGER NOT NULL,
          accepted INTEGER NOT NULL,
          duplicates INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX collector_requests_received ON collector_requests (received_at_ms);
        CREATE INDEX collector_requests_page ON collector_requests (page_id, seq);
        CREATE INDEX collector_requests_stream ON collector_requests (stream, seq);

        CREATE TABLE collector_errors (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          received_at_ms INTEGER NOT NULL,
          message TEXT NOT NULL,
          message_truncated INTEGER NOT NULL,
          url TEXT,
          file TEXT,
          line TEXT,
          stack TEXT,
          type TEXT,
          extra_json TEXT NOT NULL
        ) STRICT;
        CREATE INDEX collector_errors_received ON collector_errors (received_at_ms);

        CREATE TABLE collector_totals (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT, WITHOUT ROWID;
        CREATE TABLE collector_name_totals (name TEXT PRIMARY KEY, count INTEGER NOT NULL) STRICT, WITHOUT ROWID;
      `);
    },
  },
  {
    version: 2,
    description: 'collector requests and events: the signed-in account and channel that sent them',
    up(db) {
      // ADD COLUMN of a nullable column without default only rewrites the schema, not the rows: old rows read NULL.
      db.exec(`
        ALTER TABLE collector_requests ADD COLUMN account_id TEXT;
        ALTER TABLE collector_requests ADD COLUMN channel_id TEXT;
        ALTER TABLE collector_events ADD COLUMN account_id TEXT;
        ALTER TABLE collector_events ADD COLUMN channel_id TEXT;
        CREATE INDEX collector_requests_account ON collector_requests (account_id, seq);
        CREATE INDEX collector_events_account ON collector_events (account_id, seq);
      `);
    },
  },
  {
    version: 3,
    description: 'collector pings: the playback and watchtime beacons',
    up(db) {
      db.exec(`
        CREATE TABLE collector_pings (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL,
          docid TEXT NOT NULL,
          ei TEXT NOT NULL,
          cpn TEXT NOT NULL,
          ping_seq INTEGER NOT NULL,
          received_at_ms INTEGER NOT NULL,
          cmt REAL NOT NULL,
          rt REAL NOT NULL,
          len REAL,
          state TEXT,
          st_json TEXT NOT NULL,
          et_json TEXT NOT NULL,
          final INTEGER NOT NULL,
          UNIQUE (ei, cpn, kind, ping_seq)
        ) STRICT;
        CREATE INDEX collector_pings_received ON collector_pings (received_at_ms);
        CREATE INDEX collector_pings_docid ON collector_pings (docid, seq);
      `);
    },
  },
  {
    version: 4,
    description: 'collector events: the payload hash, and the conflicting copies of events kept beside them',
    up(db) {
      db.exec(`
        ALTER TABLE collector_events ADD COLUMN json_hash TEXT;
        ALTER TABLE collector_requests ADD COLUMN conflicts INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE collector_conflicts (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          stream TEXT NOT NULL,
          dedupe_key TEXT NOT NULL,
          client_event_id TEXT,
          name TEXT NOT NULL,
          endpoint TEXT NOT NULL,
          event_time_ms INTEGER,
          received_at_ms INTEGER NOT NULL,
          request_id TEXT NOT NULL,
          value REAL,
          json TEXT NOT NULL,
          json_hash TEXT NOT NULL,
          account_id TEXT,
          channel_id TEXT,
          UNIQUE (stream, dedupe_key, json_hash)
        ) STRICT;
        CREATE INDEX collector_conflicts_received ON collector_conflicts (received_at_ms);
        CREATE INDEX collector_conflicts_stream ON collector_conflicts (stream, seq);
      `);
    },
  },
  {
    version: 5,
    description: 'collector time series: counts and sums per minute, the streams of each minute',
    up(db) {
      db.exec(`
        CREATE TABLE collector_minutes (
          minute_ms INTEGER PRIMARY KEY,
          events INTEGER NOT NULL DEFAULT 0,
          watch_time_sec REAL NOT NULL DEFAULT 0,
          state_changes INTEGER NOT NULL DEFAULT 0,
          player_errors INTEGER NOT NULL DEFAULT 0,
          latency_sum REAL NOT NULL DEFAULT 0,
          latency_count INTEGER NOT NULL DEFAULT 0,
          rebuffer_ms REAL NOT NULL DEFAULT 0,
          rebuffer_count INTEGER NOT NULL DEFAULT 0,
          played_ms REAL NOT NULL DEFAULT 0,
          bit_ms REAL NOT NULL DEFAULT 0,
          errors INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        CREATE TABLE collector_minute_streams (
          minute_ms INTEGER NOT NULL,
          stream TEXT NOT NULL,
          PRIMARY KEY (minute_ms, stream)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX collector_events_name_received ON collector_events (name, received_at_ms, value);

        -- The backfill is written out rather than taken from minuteRollups.ts: a released step stays what it was.

        INSERT INTO collector_minutes (minute_ms, events, watch_time_sec, state_changes, player_errors, latency_sum, latency_count,
          rebuffer_ms, rebuffer_count, played_ms, bit_ms)
        SELECT (received_at_ms / 60000) * 60000 AS m, count(*), total(CASE WHEN name = 'watchTimeSegment' THEN value END),
          sum(name = 'playerStateChange'), sum(name = 'playerError'),
          total(CASE WHEN name = 'latencyReport' THEN value END), count(CASE WHEN name = 'latencyReport' THEN value END),
          total(CASE WHEN name = 'rebufferEnd' THEN value END), count(CASE WHEN name = 'rebufferEnd' THEN value END),
          total(CASE WHEN name = 'renditionPlayed' AND value > 0 THEN value END),
          total(CASE WHEN name = 'renditionPlayed' AND value > 0 THEN value * coalesce(json_extract(json, '$.renditionPlayed.bitrate'), 0) END)
        FROM collector_events WHERE true GROUP BY m;
        INSERT INTO collector_minute_streams (minute_ms, stream)
        SELECT DISTINCT (received_at_ms / 60000) * 60000, stream FROM collector_events;
        INSERT INTO collector_minutes (minute_ms, errors)
        SELECT (received_at_ms / 60000) * 60000 AS m, count(*) FROM collector_errors WHERE true GROUP BY m
        ON CONFLICT (minute_ms) DO UPDATE SET errors = excluded.errors;
      `);
    },
  },
];
