import type { DBSchema, StoreNames } from 'idb';
import type { Database, DatabaseDefinition, StorageTransaction, StoreDefinition, UntypedStorageTransaction } from './Database';
import { StorageError } from './StorageError';
import { numberText } from '../shared/numberText';

/**
 * The in-memory fallback of a local database: the same {@link Database} interface, kept in Maps for the life of
 * the page. Used when IndexedDB is missing or refused, so the retry queue and stored configuration keep working
 * (without surviving a reload, and without sharing between tabs).
 *
 * It keeps the semantics the code above relies on: transactions run one at a time (so a read-modify-write such as
 * NEW → QUEUED is atomic), a failed or aborted transaction leaves nothing behind, values are stored and returned as
 * structured clones, keys follow IndexedDB ordering, `autoIncrement` key generators and in-line key paths, indexes
 * from the definition, and the catalogue errors `MISSING_OBJECT_STORES`, `MISSING_INDEX` and `EXPLICIT_ABORT`.
 */
export function createMemoryDatabase<S extends DBSchema>(definition: DatabaseDefinition<S>): Database<S> {
  const tables = new Map<string, Table>();
  for (const store of Object.keys(definition.stores)) tables.set(store, { rows: new Map(), nextKey: 1 });
  let queue: Promise<unknown> = Promise.resolve();

  function transact<T>(
    storesArg: StoreNames<S> | readonly StoreNames<S>[],
    mode: 'readonly' | 'readwrite',
    work: (tx: StorageTransaction<S>) => Promise<T>,
  ): Promise<T> {
    const run = async (): Promise<T> => {
      const tx = new MemoryTransaction(
        definition.name,
        definition.stores as Record<string, StoreDefinition>,
        tables,
        (Array.isArray(storesArg) ? storesArg : [storesArg]) as string[],
        mode,
      );
      const result = await work(tx as unknown as StorageTransaction<S>);
      tx.commit();
      return result;
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  }

  return {
    name: definition.name,
    transact,
    backend: async () => 'memory',
    close: () => {},
  };
}

/**
 * One unit of work over drafts of its stores' tables, which replace the tables only when the whole of it succeeded
 * ({@link commit}). A class, so its methods are made once rather than as closures built for every unit of work,
 * which the engine would compile whole each time. The work sees it
 * as a {@link StorageTransaction}, whose type has no {@link commit}: `transact` alone calls it, after the work.
 */
class MemoryTransaction implements UntypedStorageTransaction {
  private readonly drafts = new Map<string, Table>();
  private aborted = false;

  constructor(
    private readonly name: string,
    private readonly stores: Record<string, StoreDefinition>,
    private readonly tables: Map<string, Table>,
    scope: readonly string[],
    private readonly mode: 'readonly' | 'readwrite',
  ) {
    const missing = scope.filter((store) => !tables.has(store));
    if (missing.length > 0) throw new StorageError('MISSING_OBJECT_STORES', { name, missing });
    for (const store of scope) this.drafts.set(store, copyTable(tables.get(store)!));
  }

  private table(store: string, write: boolean): Table {
    if (this.aborted) throw new DOMException('The transaction was aborted.', 'TransactionInactiveError');
    const draft = this.drafts.get(store);
    if (!draft) throw new DOMException(`Store ${store} is not in this transaction.`, 'NotFoundError');
    if (write && this.mode === 'readonly') throw new DOMException('The transaction is read-only.', 'ReadOnlyError');
    return draft;
  }

  private layout(store: string): StoreDefinition {
    const layout = this.stores[store];
    if (!layout) throw new DOMException(`Store ${store} is not in this database.`, 'NotFoundError');
    return layout;
  }

  async get(store: string, key: IDBValidKey): Promise<unknown> {
    return clone(this.table(store, false).rows.get(keyId(key))?.value);
  }

  async getAll(store: string): Promise<unknown[]> {
    return sortedRows(this.table(store, false)).map((row) => clone(row.value));
  }

  async getAllKeys(store: string): Promise<IDBValidKey[]> {
    return sortedRows(this.table(store, false)).map((row) => clone(row.key));
  }

  async getAllFromIndex(store: string, index: string, key?: IDBValidKey, count?: number): Promise<unknown[]> {
    const rows = this.table(store, false);
    const keyPath = this.layout(store).indexes?.[index];
    if (keyPath === undefined) throw new StorageError('MISSING_INDEX', { name: this.name, store, index });
    return sortedRows(rows)
      .map((row) => ({ row, indexKey: valueAt(row.value, keyPath) }))
      .filter(({ indexKey }) => indexKey !== undefined && (key === undefined || compareKeys(indexKey, key) === 0))
      .sort((a, b) => compareKeys(a.indexKey!, b.indexKey!))
      .slice(0, count ?? Infinity)
      .map(({ row }) => clone(row.value));
  }

  async add(store: string, value: unknown, key?: IDBValidKey): Promise<IDBValidKey> {
    return write(this.table(store, true), this.layout(store), value, key, false);
  }

  async put(store: string, value: unknown, key?: IDBValidKey): Promise<IDBValidKey> {
    return write(this.table(store, true), this.layout(store), value, key, true);
  }

  async delete(store: string, key: IDBValidKey): Promise<void> {
    this.table(store, true).rows.delete(keyId(key));
  }

  async clear(store: string): Promise<void> {
    this.table(store, true).rows.clear();
  }

  async count(store: string): Promise<number> {
    return this.table(store, false).rows.size;
  }

  abort(): void {
    this.aborted = true;
  }

  /** After the work succeeded: an aborted transaction fails; a readwrite one's drafts become the tables. */
  commit(): void {
    if (this.aborted) throw new StorageError('EXPLICIT_ABORT', { name: this.name });
    if (this.mode === 'readwrite') for (const [store, draft] of this.drafts) this.tables.set(store, draft);
  }
}

interface Row {
  key: IDBValidKey;
  value: unknown;
}
interface Table {
  rows: Map<string, Row>;
  nextKey: number;
}

const copyTable = (table: Table): Table => ({ rows: new Map(table.rows), nextKey: table.nextKey });
const clone = <T>(value: T): T => (value === undefined ? value : structuredClone(value));
const sortedRows = (table: Table): Row[] => [...table.rows.values()].sort((a, b) => compareKeys(a.key, b.key));

/** Stores a clone of `value` under its in-line key, the given key, or the next generated key. */
function write(table: Table, layout: StoreDefinition, value: unknown, key: IDBValidKey | undefined, overwrite: boolean): IDBValidKey {
  const stored = structuredClone(value) as Record<string, unknown>;
  let recordKey: unknown = layout.keyPath !== undefined ? valueAt(stored, layout.keyPath) : key;
  if (recordKey === undefined && layout.autoIncrement) {
    recordKey = table.nextKey;
    if (layout.keyPath !== undefined) stored[layout.keyPath] = recordKey;
  }
  if (!isValidKey(recordKey)) throw new DOMException('The record has no valid key.', 'DataError');
  if (typeof recordKey === 'number' && layout.autoIncrement) table.nextKey = Math.max(table.nextKey, Math.floor(recordKey) + 1);
  const id = keyId(recordKey);
  if (!overwrite && table.rows.has(id)) throw new DOMException('A record with this key already exists.', 'ConstraintError');
  table.rows.set(id, { key: recordKey, value: stored });
  return recordKey;
}

function valueAt(value: unknown, keyPath: string | readonly string[]): IDBValidKey | undefined {
  if (Array.isArray(keyPath)) {
    const parts = keyPath.map((path: string) => valueAt(value, path));
    return parts.every((part) => part !== undefined) ? (parts as IDBValidKey[]) : undefined;
  }
  let current: unknown = value;
  for (const part of (keyPath as string).split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return isValidKey(current) ? current : undefined;
}

function isValidKey(key: unknown): key is IDBValidKey {
  if (typeof key === 'number') return !Number.isNaN(key);
  if (typeof key === 'string') return true;
  if (key instanceof Date) return !Number.isNaN(key.getTime());
  if (Array.isArray(key)) return key.every(isValidKey);
  return false;
}

/** A string identity for a key (`1` and `'1'` differ). */
function keyId(key: unknown): string {
  if (key instanceof Date) return `d${numberText(key.getTime())}`;
  if (Array.isArray(key)) return `a[${key.map(keyId).join(',')}]`;
  return `${typeof key === 'number' ? 'n' : 's'}${JSON.stringify(key)}`;
}

/** IndexedDB key order: number < Date < string < array, arrays element by element. */
function compareKeys(a: unknown, b: unknown): number {
  const rank = (key: unknown) => (typeof key === 'number' ? 0 : key instanceof Date ? 1 : typeof key === 'string' ? 2 : 3);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const order = compareKeys(a[i], b[i]);
      if (order !== 0) return order;
    }
    return a.length - b.length;
  }
  const x = a instanceof Date ? a.getTime() : (a as number | string);
  const y = b instanceof Date ? b.getTime() : (b as number | string);
  return x < y ? -1 : x > y ? 1 : 0;
}
