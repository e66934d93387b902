import type { Generated } from 'kysely';

/**
 * The tables of the server's own state (the `accounts`, `platform` and `cluster` domains) as the query layer types them, the same
 * on SQLite and PostgreSQL. Times are milliseconds since the epoch (`INTEGER` on SQLite, `BIGINT` on PostgreSQL, read
 * back as numbers by both); flags are 0 or 1.
 */
export interface StateTables {
  schema_migrations: { domain: string; version: number; description: string; applied_at_ms: number };
  accounts: { id: string; email: string; display_name: string; password_hash: string; created_at_ms: number };
  channels: { id: string; title: string; owner_account_id: string };
  channel_managers: { channel_id: string; account_id: string };
  sessions: { id_hash: string; account_id: string; acting_channel_id: string | null; created_at_ms: number; expires_at_ms: number };
  signin_failures: { email_hash: string; has_account: number; failures: number; last_failure_ms: number };
  known_devices: { device_hash: string; account_id: string; last_signin_ms: number; failures: Generated<number> };
  subscriptions: { account_id: string; channel_id: string; notification_level: 'all' | 'personalized' | 'none'; subscribed_at_ms: number };
  watch_later: { account_id: string; video_id: string; position: number; added_at_ms: number };
  rate_limit_counts: { bucket_key: string; hits: number; expires_at_ms: number };
  shared_secrets: { name: string; secret: string; created_at_ms: number };
  used_nonces: { nonce: string; expires_at_ms: number };
  feedback: {
    id: Generated<number>;
    token_id: string;
    account_id: string | null;
    visitor_id: string | null;
    video_id: string;
    kind: 'not_interested' | 'report';
    reason: string | null;
    cpn: string;
    times: Generated<number>;
    first_at_ms: number;
    last_at_ms: number;
  };
}
