import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import { createMemoryDatabase } from './createMemoryDatabase';
import type { Database, DatabaseBackendKind, DatabaseDefinition, StorageTransaction, UntypedStorageTransaction } from './Database';
import { openIdbDatabase } from './openIdbDatabase';
import { StorageError } from './StorageError';
import { errorName, toStorageError } from './toStorageError';

export interface CreateDatabaseOptions {
  /**
   * The IndexedDB factory. `undefined` (the default) reads `globalThis.indexedDB` (reading it may itself throw in
   * an opaque origin); `null` means none. Tests pass `new IDBFactory()` from fake-indexeddb.
   */
  indexedDB?: IDBFactory | null;
  /**
   * Receives every storage error worth a report that the layer handles itself: `DB_DELETED_…`/`DB_REOPENED_…` by
   * missing object stores, and the error that made it fall back to memory (`IDB_NOT_SUPPORTED`,
   * `INCOMPATIBLE_DB_VERSION`, …). Errors of a single transaction are not reported here; they reject `transact`.
   */
  report?: (error: StorageError) => void;
  /** Reopen attempts before a database with missing stores is deleted and recreated. */
  missingStoreRetries?: number;
}

type Backend<S extends DBSchema> = { kind: 'indexeddb'; db: IDBPDatabase<S> } | { kind: 'memory'; memory: Database<S> };

/**
 * A local database that opens lazily, on first use, and keeps working whatever the browser does:
 *
 * - **IndexedDB through idb** when it can: {@link openIdbDatabase} (upgrade ladder, missing-store recovery).
 * - **Closed connections are reopened, never reused**: a `close` event (terminated), a `versionchange` (another tab
 *   upgrades or deletes; we close at once so it is never blocked), or an `InvalidStateError` from `transaction()`
 *   (Safari closes idle connections silently) drops the connection; the next transaction opens a new one. A
 *   `NotFoundError` from `transaction()` (a store vanished) reopens through the missing-store recovery. Each of
 *   these retries once; a second `InvalidStateError` is `EXECUTE_TRANSACTION_ON_CLOSED_DB`, a second
 *   `NotFoundError` `MISSING_OBJECT_STORES`.
 * - **In memory** when IndexedDB cannot be opened at all (no factory, SecurityError, VersionError, …): the reason is
 *   reported once and every later transaction runs on {@link createMemoryDatabase} for the life of the page.
 *
 * Transaction errors are catalogue errors: our `abort()` → `EXPLICIT_ABORT`, QuotaExceededError →
 * `QUOTA_EXCEEDED`, UnknownError → `QUOTA_MAYBE_EXCEEDED`, an abort nobody asked for → `UNKNOWN_ABORT`, a missing
 * index → `MISSING_INDEX`. Any other error of the work (a ConstraintError, a bug) rejects unchanged, after the
 * transaction was rolled back.
 */
export function createDatabase<S extends DBSchema>(
  definition: DatabaseDefinition<S>,
  { indexedDB, report = () => {}, missingStoreRetries = 1 }: CreateDatabaseOptions = {},
): Database<S> {
  let current: Promise<Backend<S>> | undefined;

  const drop = (opened: Promise<Backend<S>>) => {
    if (current === opened) current = undefined;
  };

  const open = (): Promise<Backend<S>> => {
    const opening: Promise<Backend<S>> = openIdbDatabase(definition, {
      factory: indexedDB === undefined ? globalIndexedDB() : indexedDB,
      report,
      missingStoreRetries,
      onTerminated: () => drop(opening),
      onVersionChange: () => drop(opening),
    }).then(
      (db): Backend<S> => ({ kind: 'indexeddb', db }),
      (error: unknown): Backend<S> => {
        report(toStorageError(error, { name: definition.name }) ?? new StorageError('IDB_NOT_SUPPORTED', { name: definition.name }, { cause: error }));
        return { kind: 'memory', memory: createMemoryDatabase(definition) };
      },
    );
    return opening;
  };

  const backend = (): Promise<Backend<S>> => (current ??= open());

  async function transact<T>(
    stores: StoreNames<S> | readonly StoreNames<S>[],
    mode: 'readonly' | 'readwrite',
    work: (tx: StorageTransaction<S>) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const opened = backend();
      const chosen = await opened;
      if (chosen.kind === 'memory') return chosen.memory.transact(stores, mode, work);
      let tx: IDBPTransaction<S, StoreNames<S>[], 'readonly' | 'readwrite'>;
      try {
        tx = chosen.db.transaction(stores as StoreNames<S>[], mode);
      } catch (error) {
        const name = errorName(error);
        if (name !== 'InvalidStateError' && name !== 'NotFoundError') throw toStorageError(error, { name: definition.name }) ?? error;
        // The connection is closed or lacks a store: never reuse it. Reopen (with recovery) once.
        drop(opened);
        chosen.db.close();
        if (attempt === 0) continue;
        const type = name === 'InvalidStateError' ? 'EXECUTE_TRANSACTION_ON_CLOSED_DB' : 'MISSING_OBJECT_STORES';
        throw new StorageError(type, { name: definition.name, stores }, { cause: error });
      }
      return runTransaction(tx, work, definition.name);
    }
  }

  return {
    name: definition.name,
    transact,
    backend: async (): Promise<DatabaseBackendKind> => (await backend()).kind,
    close: () => {
      const closing = current;
      current = undefined;
      void closing?.then((chosen) => (chosen.kind === 'indexeddb' ? chosen.db.close() : undefined));
    },
  };
}

/** `globalThis.indexedDB`, or undefined where it is missing or reading it throws (opaque origins). */
function globalIndexedDB(): IDBFactory | undefined {
  try {
    return (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  } catch {
    return undefined;
  }
}

/** Runs `work` on an idb transaction; resolves after commit, rejects with catalogue errors after rollback. */
async function runTransaction<S extends DBSchema, T>(
  tx: IDBPTransaction<S, StoreNames<S>[], 'readonly' | 'readwrite'>,
  work: (tx: StorageTransaction<S>) => Promise<T>,
  name: string,
): Promise<T> {
  let explicitAbort = false;
  const done = tx.done;
  done.catch(() => {}); // Observed below; this only keeps an abort from being an unhandled rejection meanwhile.
  const raw = tx as unknown as IDBPTransaction<unknown, string[], 'readwrite'>;
  const store = (storeName: string) => raw.objectStore(storeName);
  const handle: UntypedStorageTransaction = {
    get: (s, key) => store(s).get(key),
    getAll: (s) => store(s).getAll(),
    getAllKeys: (s) => store(s).getAllKeys(),
    getAllFromIndex: (s, index, key, count) => {
      let source;
      try {
        source = store(s).index(index);
      } catch (error) {
        if (errorName(error) === 'NotFoundError') {
          return Promise.reject(new StorageError('MISSING_INDEX', { name, store: s, index }, { cause: error }));
        }
        throw error;
      }
      return source.getAll(key, count);
    },
    add: (s, value, key) => store(s).add(value, key),
    put: (s, value, key) => store(s).put(value, key),
    delete: (s, key) => store(s).delete(key),
    clear: (s) => store(s).clear(),
    count: (s) => store(s).count(),
    abort: () => {
      explicitAbort = true;
      tx.abort();
    },
  };
  try {
    const result = await work(handle as unknown as StorageTransaction<S>);
    await done;
    return result;
  } catch (error) {
    try {
      tx.abort(); // Roll back whatever the work did before failing (throws when already finished).
    } catch {
      // Already aborted or committed.
    }
    if (explicitAbort) throw new StorageError('EXPLICIT_ABORT', { name }, { cause: error });
    throw toStorageError(error, { name }) ?? error;
  }
}
