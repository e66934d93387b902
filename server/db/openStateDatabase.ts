import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import { join } from 'node:path';
import pg from 'pg';
import { DATABASE_FILE_NAME, openDatabase } from './openDatabase';
import type { StateDatabaseSetting } from './stateDatabaseSetting';
import type { StateTables } from './stateTables';

/**
 * The server's own state (accounts, sessions, sign-in throttles, platform state) behind one query layer, Kysely,
 * whichever engine holds it. A store takes this and never asks which engine it is, except where the SQL of the two
 * differs (`engine`), which stays inside the store's module.
 */
export interface StateDatabase {
  engine: StateDatabaseSetting['engine'];
  db: Kysely<StateTables>;
  /** One round trip to the database (readiness): rejects while it does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const pingOf = (db: Kysely<StateTables>) => async () => {
  await sql`SELECT 1`.execute(db);
};

/** PostgreSQL's `bigint` (the millisecond times, `count(*)`) read as a number: every value kept is below 2^53. */
const PG_INT8 = 20;
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === PG_INT8 && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** How many connections one server keeps to PostgreSQL. */
export const POSTGRES_POOL_MAX = 10;

/**
 * Opens the state database a setting names:
 *
 * - `sqlite`: the data folder's `vidframe.sqlite` (the collector's file), through `openDatabase`, so with its pragmas
 *   (WAL, `synchronous = FULL`, `busy_timeout`, foreign keys) — a commit is on disk before it is acknowledged. Kysely
 *   runs one connection, one query or transaction at a time.
 * - `postgres`: a pool of {@link POSTGRES_POOL_MAX} connections; a commit returns once PostgreSQL has made it durable
 *   (its default `synchronous_commit`). The pool is tried at once, so a wrong URL stops the start with its reason.
 *
 * The schema is brought up to date by each domain (`migrateState`), not here.
 */
export async function openStateDatabase(setting: StateDatabaseSetting, dataDir: string): Promise<StateDatabase> {
  if (setting.engine === 'sqlite') {
    const database = openDatabase(join(dataDir, DATABASE_FILE_NAME));
    const db = new Kysely<StateTables>({ dialect: new SqliteDialect({ database }) });
    return { engine: 'sqlite', db, ping: pingOf(db), close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: setting.url, max: POSTGRES_POOL_MAX, types: pgTypes });
  // An idle connection that the server or the network drops is an error on the pool: the pool replaces it. One dropped
  // while a query holds it between statements is an error event on the connection itself, which unheard would end the
  // process: the query's own failure reports it, and the pool then discards the connection.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end();
    throw new Error(`The PostgreSQL database of VIDFRAME_DB does not answer: ${(error as Error).message}`, { cause: error });
  }
  const db = new Kysely<StateTables>({ dialect: new PostgresDialect({ pool }) });
  return { engine: 'postgres', db, ping: pingOf(db), close: () => db.destroy() };
}
