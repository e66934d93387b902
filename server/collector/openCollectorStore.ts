import { join, resolve } from 'node:path';
import { DATABASE_FILE_NAME } from '../db/openDatabase';
import type { CollectorStore } from './store';
import { createSqliteStore } from './stores/sqlite/createSqliteStore';

/**
 * The store named by configuration (`VIDFRAME_STORE`):
 * - unset, `sqlite` → SQLite in `{dataDir}/vidframe.sqlite` (the embedded default);
 * - `sqlite:/path/to/file.sqlite` → SQLite in that file;
 * - `clickhouse://host:8123/database` (or `clickhouse+http://…`) → ClickHouse, for several stateless collectors.
 */
export async function openCollectorStore(spec: string | undefined, dataDir: string): Promise<CollectorStore> {
  const value = (spec ?? '').trim();
  if (value === '' || value === 'sqlite') return createSqliteStore(join(dataDir, DATABASE_FILE_NAME));
  if (value.startsWith('sqlite:')) return createSqliteStore(resolve(value.slice('sqlite:'.length)));
  if (/^clickhouse(\+https?)?:\/\//.test(value)) {
    const { createClickHouseStore } = await import('./stores/clickhouse/createClickHouseStore');
    return createClickHouseStore(value);
  }
  throw new Error(`VIDFRAME_STORE must be sqlite, sqlite:/path/file or clickhouse://host:port/database, not "${value.slice(0, 100)}"`);
}
