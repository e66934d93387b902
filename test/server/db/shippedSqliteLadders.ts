/**
 * The SQLite migration ladders of the accounts and the platform exactly as they shipped before the state database
 * had a query layer (each step one `exec` of this text, recorded by the old `migrate`): what an existing file holds.
 * A frozen copy, never edited: the SQLite spec builds a file with it and opens that file with today's code.
 */
export const SHIPPED_SQLITE_LADDERS: Record<string, readonly { version: number; description: string; sql: string }[]> = {
  accounts: [
    {
      version: 1,
      description: 'accounts, channels, channel managers (delegation) and sessions',
      sql: `
        CREATE TABLE accounts (
          id TEXT PRIMARY KEY CHECK (id LIKE 'acc\\_%' ESCAPE '\\'),
          email TEXT NOT NULL UNIQUE COLLATE NOCASE,
          display_name TEXT NOT NULL,
          password_hash TEXT NOT NULL,
          created_at_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE channels (
          id TEXT PRIMARY KEY CHECK (length(id) = 24 AND substr(id, 1, 2) = 'UC'),
          title TEXT NOT NULL,
          owner_account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE
        ) STRICT;
        CREATE INDEX channels_owner ON channels (owner_account_id);

        CREATE TABLE channel_managers (
          channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
          account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
          PRIMARY KEY (channel_id, account_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX channel_managers_account ON channel_managers (account_id);

        CREATE TABLE sessions (
          id_hash TEXT PRIMARY KEY CHECK (length(id_hash) = 64),
          account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
          acting_channel_id TEXT REFERENCES channels (id) ON DELETE SET NULL,
          created_at_ms INTEGER NOT NULL,
          expires_at_ms INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX sessions_expiry ON sessions (expires_at_ms);
      `,
    },
    {
      version: 2,
      description: 'sign-in throttling: failures per email, known devices per account',
      sql: `
        CREATE TABLE signin_failures (
          email_hash TEXT PRIMARY KEY CHECK (length(email_hash) = 64),
          has_account INTEGER NOT NULL CHECK (has_account IN (0, 1)),
          failures INTEGER NOT NULL CHECK (failures >= 0),
          last_failure_ms INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX signin_failures_age ON signin_failures (has_account, last_failure_ms);

        CREATE TABLE known_devices (
          device_hash TEXT NOT NULL CHECK (length(device_hash) = 64),
          account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
          last_signin_ms INTEGER NOT NULL,
          failures INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (device_hash, account_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX known_devices_account ON known_devices (account_id, last_signin_ms);
        CREATE INDEX known_devices_age ON known_devices (last_signin_ms);
      `,
    },
    {
      version: 3,
      description: 'sign-in throttling: forget failures by age and by whether they make the email wait, not by account',
      sql: `
        DROP INDEX signin_failures_age;
        CREATE INDEX signin_failures_forget ON signin_failures (failures >= 5, last_failure_ms);
        CREATE INDEX signin_failures_last ON signin_failures (last_failure_ms);
      `,
    },
  ],
  platform: [
    {
      version: 1,
      description: 'subscriptions with bell levels, watch later, feedback',
      sql: `
        CREATE TABLE subscriptions (
          account_id TEXT NOT NULL,
          channel_id TEXT NOT NULL CHECK (length(channel_id) = 24 AND substr(channel_id, 1, 2) = 'UC'),
          notification_level TEXT NOT NULL CHECK (notification_level IN ('all', 'personalized', 'none')),
          subscribed_at_ms INTEGER NOT NULL,
          PRIMARY KEY (account_id, channel_id)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE watch_later (
          account_id TEXT NOT NULL,
          video_id TEXT NOT NULL CHECK (length(video_id) = 11),
          position INTEGER NOT NULL,
          added_at_ms INTEGER NOT NULL,
          PRIMARY KEY (account_id, video_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX watch_later_order ON watch_later (account_id, position);

        CREATE TABLE feedback (
          id INTEGER PRIMARY KEY,
          token_id TEXT NOT NULL,
          account_id TEXT,
          visitor_id TEXT,
          video_id TEXT NOT NULL CHECK (length(video_id) = 11),
          kind TEXT NOT NULL CHECK (kind IN ('not_interested', 'report')),
          reason TEXT,
          cpn TEXT NOT NULL,
          times INTEGER NOT NULL DEFAULT 1,
          first_at_ms INTEGER NOT NULL,
          last_at_ms INTEGER NOT NULL,
          CHECK ((account_id IS NULL) <> (visitor_id IS NULL))
        ) STRICT;
        CREATE INDEX feedback_token ON feedback (token_id);
        CREATE INDEX feedback_video ON feedback (video_id);
      `,
    },
  ],
};
