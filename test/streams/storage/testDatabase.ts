import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { DBSchema } from 'idb';
import type { DatabaseDefinition } from '../../../streams/storage/Database';

/** A small schema with an in-line keyed store with an index, and an out-of-line keyed store. */
export interface TestSchema extends DBSchema {
  items: { key: number; value: { id?: number; kind: string; n: number }; indexes: { byKind: string } };
  settings: { key: string; value: { v: unknown } };
}

export const testStores = {
  items: { keyPath: 'id', autoIncrement: true, indexes: { byKind: 'kind' } },
  settings: {},
} as const;

/** The test database definition; `upgrade` follows the numbered ladder. */
export function testDatabase(name = 'TestDatabase', version = 1): DatabaseDefinition<TestSchema> {
  return {
    name,
    version,
    stores: testStores,
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('items', { keyPath: 'id', autoIncrement: true }).createIndex('byKind', 'kind');
        db.createObjectStore('settings');
      }
    },
  };
}

/**
 * A fresh fake-indexeddb factory that records every connection it opened (raw IDBDatabase), so a test can close
 * one behind the layer's back, and counts `open` calls.
 */
export function recordingFactory(factory: IDBFactory = new IDBFactory()) {
  const connections: IDBDatabase[] = [];
  let opens = 0;
  const open = factory.open.bind(factory);
  factory.open = (name: string, version?: number) => {
    opens++;
    const request = open(name, version);
    request.addEventListener('success', () => connections.push(request.result));
    return request;
  };
  return {
    factory: factory as unknown as IDBFactory,
    connections,
    get opens() {
      return opens;
    },
  };
}

/** Creates a raw database with the given version and only the stores `setup` makes (for missing-store tests). */
export function createRawDatabase(factory: IDBFactory, name: string, version: number, setup: (db: IDBDatabase, tx: IDBTransaction) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, version);
    request.onupgradeneeded = () => setup(request.result, request.transaction!);
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
}

/** Store and index names of a database as it is on disk. */
export function describeDatabase(
  factory: IDBFactory,
  name: string,
): Promise<Record<string, { keyPath: unknown; autoIncrement: boolean; indexes: Record<string, unknown> }>> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name);
    request.onsuccess = () => {
      const db = request.result;
      const out: Record<string, { keyPath: unknown; autoIncrement: boolean; indexes: Record<string, unknown> }> = {};
      const names = Array.from(db.objectStoreNames);
      if (names.length > 0) {
        const tx = db.transaction(names, 'readonly');
        for (const storeName of names) {
          const store = tx.objectStore(storeName);
          const indexes: Record<string, unknown> = {};
          for (const index of Array.from(store.indexNames)) indexes[index] = store.index(index).keyPath;
          out[storeName] = { keyPath: store.keyPath, autoIncrement: store.autoIncrement, indexes };
        }
      }
      db.close();
      resolve(out);
    };
    request.onerror = () => reject(request.error);
  });
}
