import { unwrap, wrap, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { DatabaseDefinition } from './Database';
import { isValidDatabaseName } from './databaseName';
import { StorageError } from './StorageError';
import { errorName, toStorageError } from './toStorageError';

export interface OpenIdbDatabaseOptions {
  /** The IndexedDB factory (the page passes `globalThis.indexedDB`, tests a fake-indexeddb `IDBFactory`). */
  factory: IDBFactory | null | undefined;
  /** Receives `DB_DELETED_BY_MISSING_OBJECT_STORES` and `DB_REOPENED_BY_MISSING_OBJECT_STORES`. */
  report?: (error: StorageError) => void;
  /** How many times a database with missing stores is reopened before it is deleted and recreated. */
  missingStoreRetries?: number;
  /** The browser closed the connection abnormally (`close` event: storage cleared, disk error, Safari). */
  onTerminated?: () => void;
  /** Another connection asked for a new version or a delete; this connection has already been closed for it. */
  onVersionChange?: () => void;
  /** Our open waits for other connections that do not close (an old tab); it proceeds once they do. */
  onBlocked?: () => void;
}

/**
 * Opens a database through `idb` on an injected factory, and makes sure every store and index of the definition
 * exists (spec §4: "opens, retries on missing stores, and is deleted and recreated when stores are missing").
 *
 * 1. The name is checked (`INVALID_DATABASE_NAME`), the factory too (`IDB_NOT_SUPPORTED`).
 * 2. `open(name, version)` runs the definition's upgrade ladder when the stored version is older.
 * 3. When stores or indexes are missing (a store deleted with DevTools, a half-finished upgrade in another tab),
 *    the database is reopened up to `missingStoreRetries` times.
 * 4. Still missing: the records of the stores that do exist are read, the database is deleted
 *    (`DB_DELETED_BY_MISSING_OBJECT_STORES` reported), opened again from version 0, and the records are written
 *    back (`DB_REOPENED_BY_MISSING_OBJECT_STORES` reported). Still missing after that: `MISSING_OBJECT_STORES`.
 *
 * The returned connection closes itself on `versionchange` (so another tab's upgrade or delete is never blocked
 * by us) and reports `close` through `onTerminated`; its owner must then open a new one, never reuse it.
 *
 * @throws StorageError `INVALID_DATABASE_NAME`, `IDB_NOT_SUPPORTED`, `IDB_ACCESS_DENIED`, `INCOMPATIBLE_DB_VERSION`, `QUOTA_EXCEEDED`,
 *   `QUOTA_MAYBE_EXCEEDED`, `UNKNOWN_ABORT` (the upgrade failed) or `MISSING_OBJECT_STORES`.
 */
export async function openIdbDatabase<S extends DBSchema>(
  definition: DatabaseDefinition<S>,
  { factory, report = () => {}, missingStoreRetries = 1, onTerminated, onVersionChange, onBlocked }: OpenIdbDatabaseOptions,
): Promise<IDBPDatabase<S>> {
  const { name } = definition;
  if (!isValidDatabaseName(name)) throw new StorageError('INVALID_DATABASE_NAME', { name });
  if (!factory || typeof factory.open !== 'function') throw new StorageError('IDB_NOT_SUPPORTED', { name });

  let db = await openOnce(definition, factory, onBlocked);
  let missing = missingParts(db, definition);
  for (let attempt = 0; missing.length > 0 && attempt < missingStoreRetries; attempt++) {
    db.close();
    db = await openOnce(definition, factory, onBlocked);
    missing = missingParts(db, definition);
  }

  if (missing.length > 0) {
    const salvaged = await readSurvivingRecords(db, definition);
    db.close();
    await deleteDatabase(factory, name, onBlocked);
    report(new StorageError('DB_DELETED_BY_MISSING_OBJECT_STORES', { name, missing }));
    db = await openOnce(definition, factory, onBlocked);
    const stillMissing = missingParts(db, definition);
    if (stillMissing.length > 0) {
      db.close();
      throw new StorageError('MISSING_OBJECT_STORES', { name, missing: stillMissing });
    }
    await writeBack(db, salvaged);
    report(new StorageError('DB_REOPENED_BY_MISSING_OBJECT_STORES', { name, missing, restoredRecords: salvaged.length }));
  }

  db.addEventListener('close', () => onTerminated?.());
  db.addEventListener('versionchange', () => {
    db.close();
    onVersionChange?.();
  });
  return db;
}

/** One `open` request, with the upgrade ladder; browser errors become catalogue errors. */
async function openOnce<S extends DBSchema>(
  definition: DatabaseDefinition<S>,
  factory: IDBFactory,
  onBlocked: (() => void) | undefined,
): Promise<IDBPDatabase<S>> {
  const details = { name: definition.name, version: definition.version };
  let request: IDBOpenDBRequest;
  try {
    request = factory.open(definition.name, definition.version);
  } catch (error) {
    throw openError(error, details);
  }
  request.addEventListener('upgradeneeded', (event) => {
    definition.upgrade(
      wrap(request.result) as unknown as IDBPDatabase<S>,
      event.oldVersion,
      event.newVersion,
      wrap(request.transaction as IDBTransaction) as unknown as IDBPTransaction<S, StoreNames<S>[], 'versionchange'>,
    );
  });
  request.addEventListener('blocked', () => onBlocked?.());
  try {
    return (await wrap(request)) as unknown as IDBPDatabase<S>;
  } catch (error) {
    throw openError(error, details);
  }
}

/** How a browser says, at open, that it refuses storage to this context (Chromium: "The user denied permission…"). */
const ACCESS_DENIED_MESSAGE = /denied permission|permission denied/i;

/**
 * The catalogue error for a failed open. An `UnknownError` at open is not a full disk: it is the browser refusing
 * storage to this context — `IDB_ACCESS_DENIED` when its message says so (a cross-origin frame in a private window:
 * "The user denied permission to access the database.") — or failing to open its store, `IDB_NOT_SUPPORTED`. Either
 * way IndexedDB cannot be used here; the browser's error is the cause, its message in `browserMessage`.
 */
function openError(error: unknown, details: Readonly<Record<string, unknown>>): StorageError {
  if (errorName(error) === 'UnknownError') {
    const message = (error as { message?: unknown }).message;
    const browserMessage = typeof message === 'string' ? message : '';
    const type = ACCESS_DENIED_MESSAGE.test(browserMessage) ? 'IDB_ACCESS_DENIED' : 'IDB_NOT_SUPPORTED';
    return new StorageError(type, { ...details, browserError: 'UnknownError', browserMessage }, { cause: error });
  }
  return toStorageError(error, details) ?? new StorageError('IDB_NOT_SUPPORTED', details, { cause: error });
}

/** Store names, and `store.index` names, that the definition declares and the open database lacks. */
function missingParts<S extends DBSchema>(db: IDBPDatabase<S>, definition: DatabaseDefinition<S>): string[] {
  const missing: string[] = [];
  const present = new Set<string>(Array.from(db.objectStoreNames as DOMStringList));
  const storeNames = Object.keys(definition.stores) as (StoreNames<S> & string)[];
  const existing = storeNames.filter((store) => present.has(store));
  for (const store of storeNames) if (!present.has(store)) missing.push(store);
  if (existing.length === 0) return missing;
  const tx = db.transaction(existing, 'readonly');
  for (const store of existing) {
    const indexNames = new Set<string>(Array.from(tx.objectStore(store).indexNames as DOMStringList));
    for (const index of Object.keys(definition.stores[store].indexes ?? {})) {
      if (!indexNames.has(index)) missing.push(`${store}.${index}`);
    }
  }
  return missing;
}

interface SalvagedRecord {
  store: string;
  value: unknown;
  /** Set for out-of-line keys only. */
  key?: IDBValidKey;
}

/** Every record of the declared stores that exist, read in one transaction before the database is deleted. */
async function readSurvivingRecords<S extends DBSchema>(db: IDBPDatabase<S>, definition: DatabaseDefinition<S>): Promise<SalvagedRecord[]> {
  const present = new Set<string>(Array.from(db.objectStoreNames as DOMStringList));
  const stores = (Object.keys(definition.stores) as (StoreNames<S> & string)[]).filter((store) => present.has(store));
  if (stores.length === 0) return [];
  try {
    const tx = db.transaction(stores, 'readonly');
    const perStore = await Promise.all(
      stores.map(async (store) => {
        const values = await tx.objectStore(store).getAll();
        if (definition.stores[store].keyPath !== undefined) return values.map((value): SalvagedRecord => ({ store, value }));
        const keys = await tx.objectStore(store).getAllKeys();
        return values.map((value, i): SalvagedRecord => ({ store, value, key: keys[i] as IDBValidKey }));
      }),
    );
    await tx.done;
    return perStore.flat();
  } catch {
    return []; // A store too broken to read cannot be saved; recreating the database still restores service.
  }
}

/** Writes salvaged records into the recreated database, in one transaction; a record the new schema refuses is skipped. */
async function writeBack<S extends DBSchema>(db: IDBPDatabase<S>, records: readonly SalvagedRecord[]): Promise<void> {
  if (records.length === 0) return;
  const raw = unwrap(db as unknown as IDBPDatabase);
  const stores = [...new Set(records.map((record) => record.store))];
  try {
    const tx = raw.transaction(stores, 'readwrite');
    for (const record of records) {
      const store = tx.objectStore(record.store);
      try {
        const request = record.key === undefined ? store.put(record.value) : store.put(record.value, record.key);
        // A refused record must not abort the others: its error is marked handled.
        request.addEventListener('error', (event) => event.preventDefault());
      } catch {
        // DataError / DataCloneError thrown synchronously: skip this record.
      }
    }
    await wrap(tx).done;
  } catch {
    // The write-back is best effort: the database itself is healthy again.
  }
}

/** `deleteDatabase` on the injected factory (idb's `deleteDB` would use the global one). */
async function deleteDatabase(factory: IDBFactory, name: string, onBlocked: (() => void) | undefined): Promise<void> {
  try {
    const request = factory.deleteDatabase(name);
    request.addEventListener('blocked', () => onBlocked?.());
    await wrap(request as IDBOpenDBRequest);
  } catch (error) {
    throw toStorageError(error, { name }) ?? new StorageError('IDB_NOT_SUPPORTED', { name }, { cause: error });
  }
}
