import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import type { ClickHouseTarget } from './parseClickHouseUrl';
import type { DATA_TABLES } from './schema';

/** The HTTP client's limits (see `ClickHouseStoreOptions`). */
export interface ClientOptions {
  /** Per HTTP request (30 s by default). */
  requestTimeoutMs?: number;
  /** Sockets to ClickHouse at most (10 by default). */
  maxOpenConnections?: number;
}

/** One store's way to its database: the client, the checked database name, and the two helpers every part uses. */
export interface ClickHouseConnection {
  readonly client: ClickHouseClient;
  /** The database name, checked as a plain identifier. */
  readonly db: string;
  /** A data table's qualified name: `db.name`. */
  table(name: (typeof DATA_TABLES)[number]): string;
  /** Runs a SELECT and returns its rows. */
  rows<T>(query: string): Promise<T[]>;
}

/**
 * A client that stays within what ClickHouse 18.16 knows: no HTTP compression negotiation and no settings beyond the
 * server's (each request carries only `query_id`, and the INSERT's `query`).
 */
export function openClient(target: ClickHouseTarget, opts: ClientOptions = {}): ClickHouseClient {
  return createClient({
    url: target.httpUrl,
    username: target.username ?? 'default',
    password: target.password ?? '',
    application: 'vidframe-collector',
    request_timeout: opts.requestTimeoutMs ?? 30_000,
    max_open_connections: opts.maxOpenConnections ?? 10,
    compression: { request: false, response: false },
    clickhouse_settings: {},
    // 18.16 closes idle keep-alive sockets after 3 s; the client drops its own before that.
    keep_alive: { enabled: true, idle_socket_ttl: 2_000 },
    log: { level: ClickHouseLogLevel.OFF },
  });
}

export async function selectRows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  const result = await client.query({ query, format: 'JSONEachRow' });
  return result.json<T>();
}

/** `db` is a name already checked by `identifier` (`sql.ts`). */
export function connectionTo(client: ClickHouseClient, db: string): ClickHouseConnection {
  return {
    client,
    db,
    table: (name) => `${db}.${name}`,
    rows: <T>(query: string) => selectRows<T>(client, query),
  };
}
