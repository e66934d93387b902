import type { StateMigration } from '../db/migrateState';

/**
 * The accounts' tables in the server's state database (domain `accounts` of `migrateState`), one numbered step each,
 * in SQLite's SQL and PostgreSQL's. Never edit a step that has shipped: add the next one.
 *
 * On PostgreSQL, times are `BIGINT`; keys, ids and titles compare byte by byte (`COLLATE "C"`, as SQLite's default
 * `BINARY`), so a session's id range and the channels' order are those of SQLite; the email is unique in any ASCII case
 * through a unique index on `lower(email)` (ASCII only under `"C"`, as SQLite's `NOCASE`), which the email lookup uses.
 *
 * - `accounts`: `acc_…` ids; the email is unique whatever its case (`COLLATE NOCASE`), so `Ada@Example.com` signs in
 *   as `ada@example.com`; `password_hash` is an scrypt hash (`hashPassword`), never the password.
 * - `channels`: `UC` + 22 base64url characters, each owned by one account.
 * - `channel_managers`: delegation. An account may act for a channel it owns or one it is listed here as managing.
 * - `sessions`: keyed by the SHA-256 (hex) of the session secret the browser holds, so a copy of the database signs
 *   nobody in. `acting_channel_id` is the channel the session currently acts for (NULL: the account itself).
 * - `signin_failures`: the failed sign-ins of an email (`signinThrottle.ts`), keyed by the SHA-256 of the email in
 *   lower case, whether or not it has an account. Step 3 indexes them in the order they are forgotten beyond the cap
 *   (those below the free failures first, then the oldest): the index's expression is the one `signinThrottle.ts`
 *   orders by, so the two change together (`has_account` orders nothing any more).
 * - `known_devices`: the browsers that signed in to an account, keyed by the SHA-256 of the `vf_device` cookie's secret
 *   (so a copy of the database holds no working cookie), with the wrong passwords each sent since its last sign-in.
 */
export const accountsMigrations: readonly StateMigration[] = [
  {
    version: 1,
    description: 'accounts, channels, channel managers (delegation) and sessions',
    sqlite: [
      `CREATE TABLE accounts (
          id TEXT PRIMARY KEY CHECK (id LIKE 'acc\\_%' ESCAPE '\\'),
          email TEXT NOT NULL UNIQUE COLLATE NOCASE,
          display_name TEXT NOT NULL,
          password_hash TEXT NOT NULL,
          created_at_ms INTEGER NOT NULL
        ) STRICT`,
      `CREATE TABLE channels (
          id TEXT PRIMARY KEY CHECK (length(id) = 24 AND substr(id, 1, 2) = 'UC'),
          title TEXT NOT NULL,
          owner_account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE
        ) STRICT`,
      'CREATE INDEX channels_owner ON channels (owner_account_id)',
      `CREATE TABLE channel_managers (
          channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
          account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
          PRIMARY KEY (channel_id, account_id)
        ) STRICT, WITHOUT ROWID`,
      'CREATE INDEX channel_managers_account ON channel_managers (account_id)',
      `CREATE TABLE sessions (
          id_hash TEXT PRIMARY KEY CHECK (length(id_hash) = 64),
          account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
          acting_channel_id TEXT REFERENCES channels (id) ON DELETE SET NULL,
          created_at_ms INTEGER NOT NULL,
          expires_at_ms INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID`,
      'CREATE INDEX sessions_expiry ON sessions (expires_at_ms)',
    ],
    postgres: [
      `CREATE TABLE accounts (
          id TEXT COLLATE "C" PRIMARY KEY CHECK (id LIKE 'acc\\_%' ESCAPE '\\'),
          email TEXT COLLATE "C" NOT NULL,
          display_name TEXT NOT NULL,
          password_hash TEXT NOT NULL,
          created_at_ms BIGINT NOT NULL
        )`,
      'CREATE UNIQUE INDEX accounts_email ON accounts (lower(email))',
      `CREATE TABLE channels (
          id TEXT COLLATE "C" PRIMARY KEY CHECK (length(id) = 24 AND substr(id, 1, 2) = 'UC'),
          title TEXT COLLATE "C" NOT NULL,
          owner_account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE
        )`,
      'CREATE INDEX channels_owner ON channels (owner_account_id)',
      `CREATE TABLE channel_managers (
          channel_id TEXT COLLATE "C" NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
          account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
          PRIMARY KEY (channel_id, account_id)
        )`,
      'CREATE INDEX channel_managers_account ON channel_managers (account_id)',
      `CREATE TABLE sessions (
          id_hash TEXT COLLATE "C" PRIMARY KEY CHECK (length(id_hash) = 64),
          account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
          acting_channel_id TEXT COLLATE "C" REFERENCES channels (id) ON DELETE SET NULL,
          created_at_ms BIGINT NOT NULL,
          expires_at_ms BIGINT NOT NULL
        )`,
      'CREATE INDEX sessions_expiry ON sessions (expires_at_ms)',
    ],
  },
  {
    version: 2,
    description: 'sign-in throttling: failures per email, known devices per account',
    sqlite: [
      `CREATE TABLE signin_failures (
          email_hash TEXT PRIMARY KEY CHECK (length(email_hash) = 64),
          has_account INTEGER NOT NULL CHECK (has_account IN (0, 1)),
          failures INTEGER NOT NULL CHECK (failures >= 0),
          last_failure_ms INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID`,
      'CREATE INDEX signin_failures_age ON signin_failures (has_account, last_failure_ms)',
      `CREATE TABLE known_devices (
          device_hash TEXT NOT NULL CHECK (length(device_hash) = 64),
          account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
          last_signin_ms INTEGER NOT NULL,
          failures INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (device_hash, account_id)
        ) STRICT, WITHOUT ROWID`,
      'CREATE INDEX known_devices_account ON known_devices (account_id, last_signin_ms)',
      'CREATE INDEX known_devices_age ON known_devices (last_signin_ms)',
    ],
    postgres: [
      `CREATE TABLE signin_failures (
          email_hash TEXT COLLATE "C" PRIMARY KEY CHECK (length(email_hash) = 64),
          has_account INTEGER NOT NULL CHECK (has_account IN (0, 1)),
          failures INTEGER NOT NULL CHECK (failures >= 0),
          last_failure_ms BIGINT NOT NULL
        )`,
      'CREATE INDEX signin_failures_age ON signin_failures (has_account, last_failure_ms)',
      `CREATE TABLE known_devices (
          device_hash TEXT COLLATE "C" NOT NULL CHECK (length(device_hash) = 64),
          account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
          last_signin_ms BIGINT NOT NULL,
          failures INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (device_hash, account_id)
        )`,
      'CREATE INDEX known_devices_account ON known_devices (account_id, last_signin_ms)',
      'CREATE INDEX known_devices_age ON known_devices (last_signin_ms)',
    ],
  },
  {
    version: 3,
    description: 'sign-in throttling: forget failures by age and by whether they make the email wait, not by account',
    sqlite: [
      'DROP INDEX signin_failures_age',
      'CREATE INDEX signin_failures_forget ON signin_failures (failures >= 5, last_failure_ms)',
      'CREATE INDEX signin_failures_last ON signin_failures (last_failure_ms)',
    ],
    postgres: [
      'DROP INDEX signin_failures_age',
      'CREATE INDEX signin_failures_forget ON signin_failures ((failures >= 5), last_failure_ms)',
      'CREATE INDEX signin_failures_last ON signin_failures (last_failure_ms)',
    ],
  },
];
