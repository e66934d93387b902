import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type SqliteDatabase = Database.Database;

/** The server's embedded database file inside the data folder. */
export const DATABASE_FILE_NAME = 'vidframe.sqlite';

/**
 * Opens (creating when absent) the server's embedded SQLite database in WAL mode: readers never wait for the writer,
 * and a commit is one append to the write-ahead log.
 *
 * - `synchronous = FULL`: a commit is on disk (the WAL fsynced) before it returns, so an acknowledged write survives
 *   a power cut, not only a killed process. The collector batches concurrent requests into one transaction
 *   (group commit), so the fsync is paid once per batch, not once per request.
 * - `busy_timeout`: another connection's write (a second process, the retention job) is waited for, not failed.
 * - A torn write cannot be seen: SQLite rolls back an uncommitted WAL tail on the next open.
 */
export function openDatabase(file: string, { readonly = false }: { readonly?: boolean } = {}): SqliteDatabase {
  if (!readonly && file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { readonly, fileMustExist: readonly });
  db.pragma('busy_timeout = 5000');
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
  }
  return db;
}
