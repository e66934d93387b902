import { sql, type Kysely } from 'kysely';
import type { StateDatabase } from './openStateDatabase';
import type { StateTables } from './stateTables';

/**
 * What a transaction serializes on: transactions naming the same `scope` and `key` run one after the other, on every
 * server sharing the database.
 */
export interface TransactionLock {
  scope: string;
  key: string;
}

/**
 * Runs `work` in one write transaction, committed when it resolves and rolled back when it throws; nothing but
 * database work is awaited inside it.
 *
 * - SQLite: `BEGIN IMMEDIATE`, which takes the database's write lock at once, so the transaction's reads see what no
 *   other writer (another process, the collector's connection) can change before it commits; `lock` adds nothing.
 *   better-sqlite3 answers synchronously, so a transaction of awaited queries ends before any other request runs.
 *   One process keeps one state connection per file: a second one's `BEGIN IMMEDIATE` would wait for the lock with
 *   the event loop blocked, that is for ever.
 * - PostgreSQL: `READ COMMITTED`, serialized with every other transaction of the same lock by a transaction-level
 *   advisory lock (`pg_advisory_xact_lock`), taken first and released by the commit, so a read-then-write (a count,
 *   then an insert) is not interleaved with another server's.
 */
export async function inTransaction<T>(state: StateDatabase, lock: TransactionLock | undefined, work: (trx: Kysely<StateTables>) => Promise<T>): Promise<T> {
  if (state.engine === 'sqlite') {
    return state.db.connection().execute(async (connection) => {
      await sql`BEGIN IMMEDIATE`.execute(connection);
      try {
        const result = await work(connection);
        await sql`COMMIT`.execute(connection);
        return result;
      } catch (error) {
        // A failed COMMIT may have ended the transaction already: then there is nothing to roll back.
        await sql`ROLLBACK`.execute(connection).catch(() => undefined);
        throw error;
      }
    });
  }
  return state.db.transaction().execute(async (trx) => {
    if (lock) await sql`SELECT pg_advisory_xact_lock(hashtext(${`vidframe:${lock.scope}`}), hashtext(${lock.key}))`.execute(trx);
    return work(trx);
  });
}
