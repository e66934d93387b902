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
      const scope = (Array.isArray(storesArg) ? storesArg : [storesArg]) as string[];
      const missing = scope.filter((store) => !tables.has(store));
      if (missing.length > 0) throw new StorageError('MISSING_OBJECT_STORES', { name: definition.name, missing });
      // Work on drafts; they replace the tables only when the whole unit of work succeeded.
      const drafts = new Map<string, Table>(scope.map((store) => [store, copyTable(tables.get(store)!)]));
      let aborted = false;
      const table = (store: string, write: boolean): Table => {
        if (aborted) throw new DOMException('The transaction was aborted.', 'TransactionInactiveError');
        const draft = drafts.get(store);
        if (!draft) throw new DOMException(`Store ${store} is not in this transaction.`, 'NotFoundError');
        if (write && mode === 'readonly') throw new DOMException('The transaction is read-only.', 'ReadOnlyError');
        return draft;
      };
      const layout = (store: string): StoreDefinition => (definition.stores as Record<string, StoreDefinition>)[store];
      const tx: UntypedStorageTransaction = {
        get: async (store, key) => clone(table(store, false).rows.get(keyId(key))?.value),
        getAll: async (store) => sortedRows(table(store, false)).map((row) => clone(row.value)),
        getAllKeys: async (store) => sortedRows(table(store, false)).map((row) => clone(row.key)),
        getAllFromIndex: async (store, index, key, count) => {
          const rows = table(store, false);
          const keyPath = layout(store).indexes?.[index];
          if (keyPath === undefined) throw new StorageError('MISSING_INDEX', { name: definition.name, store, index });
          return sortedRows(rows)
            .map((row) => ({ row, indexKey: valueAt(row.value, keyPath) }))
            .filter(({ indexKey }) => indexKey !== undefined && (key === undefined || compareKeys(indexKey, key) === 0))
            .sort((a, b) => compareKeys(a.indexKey!, b.indexKey!))
            .slice(0, count ?? Infinity)
            .map(({ row }) => clone(row.value));
        },
        add: async (store, value, key) => write(table(store, true), layout(store), value, key, false),
        put: async (store, value, key) => write(table(store, true), layout(store), value, key, true),
        delete: async (store, key) => {
          table(store, true).rows.delete(keyId(key));
        },
        clear: async (store) => {
          table(store, true).rows.clear();
        },
        count: async (store) => table(store, false).rows.size,
        abort: () => {
          aborted = true;
        },
      };
      const result = await work(tx as unknown as StorageTransaction<S>);
      if (aborted) throw new StorageError('EXPLICIT_ABORT', { name: definition.name });
      if (mode === 'readwrite') for (const [store, draft] of drafts) tables.set(store, draft);
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
