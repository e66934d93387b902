import type { DBSchema, IDBPDatabase, IDBPTransaction, IndexKey, IndexNames, StoreKey, StoreNames, StoreValue } from 'idb';

/**
 * Types shared by the two backends of a local database: IndexedDB through `idb`, and the in-memory fallback used
 * when IndexedDB is unavailable. Code above this layer (retry queue, stored configuration, cleanup) is written once
 * against {@link Database} and never knows which backend it runs on.
 */

/** How one object store is laid out; the upgrade ladder creates it from this, the memory backend mimics it. */
export interface StoreDefinition {
  /** In-line key path; omitted for out-of-line keys (the key is passed to `put`). */
  keyPath?: string;
  autoIncrement?: boolean;
  /** Index name → key path (a string, or an array for a compound index). */
  indexes?: Readonly<Record<string, string | readonly string[]>>;
}

/**
 * One typed database: its full name (see `databaseName`), its version, the layout of every store of the current
 * version, and the numbered upgrade ladder (`if (oldVersion < 1) …`) that builds that layout from any older one.
 */
export interface DatabaseDefinition<S extends DBSchema> {
  readonly name: string;
  readonly version: number;
  readonly stores: Readonly<Record<StoreNames<S> & string, StoreDefinition>>;
  upgrade(db: IDBPDatabase<S>, oldVersion: number, newVersion: number | null, transaction: IDBPTransaction<S, StoreNames<S>[], 'versionchange'>): void;
}

/**
 * The operations a unit of work may run inside one transaction. Only these are awaited inside it (architecture
 * convention 8): anything else (a fetch, a timer) would let the transaction auto-commit half way. Call them on the
 * transaction (`tx.get(…)`), not detached or spread into another object: the memory fallback's live on its class's
 * prototype, IndexedDB's are the handle's own.
 */
export interface StorageTransaction<S extends DBSchema> {
  get<N extends StoreNames<S>>(store: N, key: StoreKey<S, N>): Promise<StoreValue<S, N> | undefined>;
  getAll<N extends StoreNames<S>>(store: N): Promise<StoreValue<S, N>[]>;
  /** Every key of the store, in key order (the same order as `getAll`). */
  getAllKeys<N extends StoreNames<S>>(store: N): Promise<StoreKey<S, N>[]>;
  /**
   * Every record whose index key equals `key` (all records of the index when `key` is omitted), in index order (equal
   * index keys in primary-key order); at most `count` of them when given (only those are read and cloned).
   */
  getAllFromIndex<N extends StoreNames<S>, I extends IndexNames<S, N>>(
    store: N,
    index: I,
    key?: IndexKey<S, N, I>,
    count?: number,
  ): Promise<StoreValue<S, N>[]>;
  /** Adds a record; rejects (ConstraintError) when its key exists. Resolves with the key. */
  add<N extends StoreNames<S>>(store: N, value: StoreValue<S, N>, key?: StoreKey<S, N>): Promise<StoreKey<S, N>>;
  /** Adds or replaces a record. Resolves with the key. */
  put<N extends StoreNames<S>>(store: N, value: StoreValue<S, N>, key?: StoreKey<S, N>): Promise<StoreKey<S, N>>;
  delete<N extends StoreNames<S>>(store: N, key: StoreKey<S, N>): Promise<void>;
  clear<N extends StoreNames<S>>(store: N): Promise<void>;
  count<N extends StoreNames<S>>(store: N): Promise<number>;
  /** Aborts the transaction: nothing of it is kept, and `transact` rejects with `EXPLICIT_ABORT`. */
  abort(): void;
}

/** {@link StorageTransaction} without the schema types, as both backends implement it. */
export interface UntypedStorageTransaction {
  get(store: string, key: IDBValidKey): Promise<unknown>;
  getAll(store: string): Promise<unknown[]>;
  getAllKeys(store: string): Promise<IDBValidKey[]>;
  getAllFromIndex(store: string, index: string, key?: IDBValidKey, count?: number): Promise<unknown[]>;
  add(store: string, value: unknown, key?: IDBValidKey): Promise<IDBValidKey>;
  put(store: string, value: unknown, key?: IDBValidKey): Promise<IDBValidKey>;
  delete(store: string, key: IDBValidKey): Promise<void>;
  clear(store: string): Promise<void>;
  count(store: string): Promise<number>;
  abort(): void;
}

/** Which backend a database currently runs on. */
export type DatabaseBackendKind = 'indexeddb' | 'memory';

/** A local database: one connection (reopened when the browser closes it) or the in-memory fallback. */
export interface Database<S extends DBSchema> {
  readonly name: string;
  /**
   * Runs `work` inside one transaction over `stores`. Resolves with its result after the transaction committed;
   * rejects with a {@link import('./StorageError').StorageError} of the catalogue when the transaction cannot run
   * or aborts, or with the work's own error (after rolling the transaction back).
   */
  transact<T>(stores: StoreNames<S> | readonly StoreNames<S>[], mode: 'readonly' | 'readwrite', work: (tx: StorageTransaction<S>) => Promise<T>): Promise<T>;
  /** The backend in use, opening the database first if needed. */
  backend(): Promise<DatabaseBackendKind>;
  /** Closes the connection; the next `transact` opens it again. */
  close(): void;
}
