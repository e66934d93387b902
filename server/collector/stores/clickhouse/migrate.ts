import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from './connection';
import { type AddedColumn, createMigrationsTable, LATEST_VERSION, MIGRATIONS } from './schema';
import { identifier, quoteString } from './sql';

/** Climbs the migration ladder from the version recorded in `schema_migrations`. */
export async function migrate(client: ClickHouseClient, db: string): Promise<void> {
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
  await client.command({ query: createMigrationsTable(db) });
  const [row] = await selectRows<{ v: number | string }>(client, `SELECT max(version) AS v FROM ${db}.schema_migrations FINAL`);
  const current = Number(row?.v ?? 0);
  if (current > LATEST_VERSION) {
    throw new Error(`database ${db} has schema version ${current}, newer than this VidFrame knows (${LATEST_VERSION}): upgrade VidFrame`);
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    for (const statement of migration.statements(db)) await client.command({ query: statement });
    for (const column of migration.addColumns ?? []) await addColumnIfMissing(client, db, column);
    await client.insert({
      table: `${db}.schema_migrations`,
      values: [{ version: migration.version, applied_at_ms: Date.now() }],
      format: 'JSONEachRow',
    });
  }
}

/**
 * `ALTER TABLE … ADD COLUMN` unless the table has the column already: 18.16's stand-in for `ADD COLUMN IF NOT
 * EXISTS`. Two collectors climbing the same step may both find it missing; the one that loses the race is refused
 * ("column with this name already exists"), checks again, and goes on when the column is there.
 */
async function addColumnIfMissing(client: ClickHouseClient, db: string, column: AddedColumn): Promise<void> {
  const table = identifier(column.table);
  const name = identifier(column.name);
  const present = async () =>
    Number(
      (
        await selectRows<{ n: string }>(
          client,
          `SELECT count() AS n FROM system.columns WHERE database = ${quoteString(db)} AND table = ${quoteString(table)} AND name = ${quoteString(name)}`,
        )
      )[0]?.n ?? 0,
    ) > 0;
  if (await present()) return;
  try {
    await client.command({ query: `ALTER TABLE ${identifier(db)}.${table} ADD COLUMN ${name} ${column.type}` });
  } catch (error) {
    if (!(await present())) throw error;
  }
}
