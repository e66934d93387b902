import type { StateMigration } from '../db/migrateState';

/**
 * What servers sharing one state database share beyond accounts and the platform (domain `cluster` of
 * `migrateState`), one numbered step each, in SQLite's SQL and PostgreSQL's. Never edit a step that has shipped: add
 * the next one.
 *
 * - `rate_limit_counts`: one row per rate-limit bucket and key (`rateLimitStore.ts`): the requests counted in the
 *   current fixed window and when that window ends. On PostgreSQL the table is `UNLOGGED`: a counter is worth no
 *   write-ahead log, and a crash of PostgreSQL at worst forgets a minute of counts.
 * - `shared_secrets`: secrets every server must hold the same (`sharedSecret.ts`), created by whichever server asks
 *   first.
 * - `used_nonces`: the attestation tokens accepted (`usedNonces.ts`), by nonce, until their challenge expires, so a
 *   token is accepted once whichever server sees it.
 */
export const clusterMigrations: readonly StateMigration[] = [
  {
    version: 1,
    description: 'rate-limit counters and shared secrets',
    sqlite: [
      `CREATE TABLE rate_limit_counts (
          bucket_key TEXT PRIMARY KEY,
          hits INTEGER NOT NULL,
          expires_at_ms INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID`,
      `CREATE INDEX rate_limit_counts_expiry ON rate_limit_counts (expires_at_ms)`,
      `CREATE TABLE shared_secrets (
          name TEXT PRIMARY KEY,
          secret TEXT NOT NULL,
          created_at_ms INTEGER NOT NULL
        ) STRICT`,
    ],
    postgres: [
      `CREATE UNLOGGED TABLE rate_limit_counts (
          bucket_key TEXT COLLATE "C" PRIMARY KEY,
          hits INTEGER NOT NULL,
          expires_at_ms BIGINT NOT NULL
        )`,
      `CREATE INDEX rate_limit_counts_expiry ON rate_limit_counts (expires_at_ms)`,
      `CREATE TABLE shared_secrets (
          name TEXT COLLATE "C" PRIMARY KEY,
          secret TEXT NOT NULL,
          created_at_ms BIGINT NOT NULL
        )`,
    ],
  },
  {
    version: 2,
    description: 'attestation nonces accepted by any server',
    sqlite: [
      `CREATE TABLE used_nonces (
          nonce TEXT PRIMARY KEY,
          expires_at_ms INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID`,
      `CREATE INDEX used_nonces_expiry ON used_nonces (expires_at_ms)`,
    ],
    postgres: [
      `CREATE TABLE used_nonces (
          nonce TEXT COLLATE "C" PRIMARY KEY,
          expires_at_ms BIGINT NOT NULL
        )`,
      `CREATE INDEX used_nonces_expiry ON used_nonces (expires_at_ms)`,
    ],
  },
];
