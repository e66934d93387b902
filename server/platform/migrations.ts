import type { Migration } from '../db/migrate';

/**
 * The platform calls' tables in the server's SQLite database (domain `platform` of `migrate`), one numbered step each.
 * Never edit a step that has shipped: add the next one.
 *
 * Account ids are the accounts domain's `acc_…` ids, kept without a foreign key on purpose: each domain's ladder runs
 * on its own (in any order, on an empty file), and accounts are never deleted today. Channel and video ids are the
 * catalogue's, which lives in `media/catalog.json`, not in the database.
 *
 * - `subscriptions`: one row per (account, channel) while subscribed, with the bell level (`personalized` when new).
 * - `watch_later`: an account's `WL` playlist, ordered by `position` (an add goes last; a re-add after a remove too).
 * - `feedback`: what viewers said about videos, under the signed-in account or, anonymous, the verified visitor id
 *   (exactly one of the two). `token_id` is the feedback token's nonce: a token sent again with `shouldMerge` bumps
 *   `times` of its row instead of adding one.
 */
export const platformMigrations: readonly Migration[] = [
  {
    version: 1,
    description: 'subscriptions with bell levels, watch later, feedback',
    up(db) {
      db.exec(`
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
      `);
    },
  },
];
