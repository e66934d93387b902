import { sql } from 'kysely';
import type { StateDatabase } from '../../../server/db/openStateDatabase';
import type { StateDatabaseSetting } from '../../../server/db/stateDatabaseSetting';

/** A new, empty state database for one test, on the engine under test. */
export interface FreshState {
  setting: StateDatabaseSetting;
  /** The data folder a server of this database would use (the SQLite file lives in it). */
  dataDir: string;
  /** Connects to the database as one more server would (each call a connection or pool of its own). */
  open(): Promise<StateDatabase>;
  /** Closes every connection `open` made and deletes the database. */
  cleanup(): Promise<void>;
}

/** How the conformance suites reach an engine. */
export interface StateFixture {
  engine: StateDatabaseSetting['engine'];
  fresh(): Promise<FreshState>;
  /**
   * Whether two connections of one process may hold write transactions at once (PostgreSQL). On SQLite they may not:
   * a second `BEGIN IMMEDIATE` waits for the file's write lock with the event loop blocked, so one process keeps one
   * connection, and servers sharing a file are separate processes.
   */
  concurrentConnections: boolean;
}

/** The number of rows of a table, the same query on both engines. */
export async function countRows(state: StateDatabase, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(state.db);
  return Number(rows[0]?.n);
}

/**
 * The message a promise is rejected with, or `undefined` when it resolves. better-sqlite3's errors are made by the
 * constructor of the first test file of a Jest worker that loaded it (the native addon is shared), so in another file
 * they are no `Error` of its realm and `rejects.toThrow` would not see them: this reads the message whatever the realm.
 */
export async function rejectionOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => String((error as { message?: unknown } | undefined)?.message ?? error),
  );
}
