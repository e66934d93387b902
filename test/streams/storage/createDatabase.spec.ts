import { forceCloseDatabase, IDBDatabase as FakeDatabase, IDBFactory, IDBObjectStore as FakeObjectStore } from 'fake-indexeddb';
import { createDatabase } from '../../../streams/storage/createDatabase';
import type { Database } from '../../../streams/storage/Database';
import { StorageError, type StorageErrorType } from '../../../streams/storage/StorageError';
import { createRawDatabase, describeDatabase, recordingFactory, testDatabase, type TestSchema } from './testDatabase';

const types = (errors: StorageError[]) => errors.map((error) => error.type);
const rejectsWith = async (promise: Promise<unknown>, type: StorageErrorType) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StorageError);
  expect((error as StorageError).type).toBe(type);
  return error as StorageError;
};
const putItem = (db: Database<TestSchema>, kind: string, n: number) => db.transact('items', 'readwrite', (tx) => tx.add('items', { kind, n }));
const allItems = (db: Database<TestSchema>) => db.transact('items', 'readonly', (tx) => tx.getAll('items'));

afterEach(() => jest.restoreAllMocks());

describe('createDatabase on IndexedDB (fake-indexeddb)', () => {
  it('opens lazily, runs the upgrade ladder, and lays out every store as the definition declares', async () => {
    const { factory, opens } = recordingFactory();
    const db = createDatabase(testDatabase(), { indexedDB: factory });
    expect(opens).toBe(0);
    expect(await db.backend()).toBe('indexeddb');
    expect(await putItem(db, 'a', 1)).toBe(1);
    expect(await db.transact('items', 'readonly', (tx) => tx.getAllFromIndex('items', 'byKind', 'a'))).toEqual([{ id: 1, kind: 'a', n: 1 }]);
    await putItem(db, 'a', 2);
    expect(await db.transact('items', 'readonly', (tx) => tx.getAllFromIndex('items', 'byKind', 'a', 1))).toEqual([{ id: 1, kind: 'a', n: 1 }]);
    db.close();
    expect(await describeDatabase(factory, 'TestDatabase')).toEqual({
      items: { keyPath: 'id', autoIncrement: true, indexes: { byKind: 'kind' } },
      settings: { keyPath: null, autoIncrement: false, indexes: {} },
    });
  });

  it('commits a unit of work atomically and rolls all of it back when the work throws (its own error, unchanged)', async () => {
    const db = createDatabase(testDatabase(), { indexedDB: new IDBFactory() });
    const bug = new TypeError('bug in the work');
    await expect(
      db.transact(['items', 'settings'], 'readwrite', async (tx) => {
        await tx.add('items', { kind: 'a', n: 1 });
        await tx.put('settings', { v: 1 }, 'k');
        throw bug;
      }),
    ).rejects.toBe(bug);
    expect(await allItems(db)).toEqual([]);
    expect(await db.transact('settings', 'readonly', (tx) => tx.get('settings', 'k'))).toBeUndefined();
  });

  it('EXPLICIT_ABORT: the work aborting rolls back and rejects with the catalogue message', async () => {
    const db = createDatabase(testDatabase(), { indexedDB: new IDBFactory() });
    const error = await rejectsWith(
      db.transact('items', 'readwrite', async (tx) => {
        await tx.add('items', { kind: 'a', n: 1 });
        tx.abort();
      }),
      'EXPLICIT_ABORT',
    );
    expect(error.message).toBe('Transaction was explicitly aborted.');
    expect(await allItems(db)).toEqual([]);
  });

  it('UNKNOWN_ABORT: a transaction aborted by nobody we know (the browser, not our abort())', async () => {
    const db = createDatabase(testDatabase(), { indexedDB: new IDBFactory() });
    await db.backend();
    const created: IDBTransaction[] = [];
    const transaction = FakeDatabase.prototype.transaction;
    jest.spyOn(FakeDatabase.prototype, 'transaction').mockImplementation(function (this: IDBDatabase, ...args: unknown[]) {
      const tx = (transaction as (...a: unknown[]) => IDBTransaction).apply(this, args);
      created.push(tx);
      return tx;
    } as never);
    const error = await rejectsWith(
      db.transact('items', 'readwrite', async (tx) => {
        const pending = tx.add('items', { kind: 'a', n: 1 });
        created[0].abort(); // aborted behind the layer's back: error stays null
        await pending;
      }),
      'UNKNOWN_ABORT',
    );
    expect(error.message).toBe('Transaction was aborted for unknown reasons.');
    jest.restoreAllMocks();
    expect(await allItems(db)).toEqual([]);
  });

  it.each([
    ['QuotaExceededError', 'QUOTA_EXCEEDED', 'The current transaction exceeded its quota limitations.'],
    ['UnknownError', 'QUOTA_MAYBE_EXCEEDED', STORAGE_MESSAGE('QUOTA_MAYBE_EXCEEDED')],
  ] as const)('%s from a write → %s', async (browserError, type, message) => {
    const db = createDatabase(testDatabase(), { indexedDB: new IDBFactory() });
    await putItem(db, 'kept', 0);
    jest.spyOn(FakeObjectStore.prototype, 'add').mockImplementation(() => {
      throw new DOMException('disk says no', browserError);
    });
    const error = await rejectsWith(putItem(db, 'a', 1), type);
    expect(error.message).toBe(message);
    expect(error.details).toMatchObject({ browserError });
    jest.restoreAllMocks();
    expect((await allItems(db)).map((item) => item.kind)).toEqual(['kept']);
  });

  it('MISSING_INDEX: an index the database lacks', async () => {
    const db = createDatabase(testDatabase(), { indexedDB: new IDBFactory() });
    const error = await rejectsWith(
      db.transact('items', 'readonly', (tx) => tx.getAllFromIndex('items', 'byNothing' as 'byKind', 'a')),
      'MISSING_INDEX',
    );
    expect(error.message).toBe('Index not created.');
  });

  it('a ConstraintError of the work travels unchanged (not every browser error is in the catalogue)', async () => {
    const db = createDatabase(testDatabase(), { indexedDB: new IDBFactory() });
    await putItem(db, 'a', 1);
    await expect(db.transact('items', 'readwrite', (tx) => tx.add('items', { id: 1, kind: 'b', n: 2 }))).rejects.toMatchObject({ name: 'ConstraintError' });
  });
});

describe('missing object stores (spec §4: retries, then deleted and recreated)', () => {
  it('recreates a database that has the right name and version but lacks a store, keeping the surviving records', async () => {
    const { factory } = recordingFactory();
    await createRawDatabase(factory, 'TestDatabase', 1, (raw) => {
      raw.createObjectStore('items', { keyPath: 'id', autoIncrement: true }).createIndex('byKind', 'kind');
      raw.createObjectStore('junk');
    });
    await new Promise<void>((resolve) => {
      const request = factory.open('TestDatabase', 1);
      request.onsuccess = () => {
        const tx = request.result.transaction('items', 'readwrite');
        tx.objectStore('items').add({ kind: 'survivor', n: 7 });
        tx.oncomplete = () => {
          request.result.close();
          resolve();
        };
      };
    });
    const recording = recordingFactory(factory as IDBFactory);
    const reports: StorageError[] = [];
    const db = createDatabase(testDatabase(), { indexedDB: recording.factory, report: (e) => reports.push(e) });

    expect(await db.backend()).toBe('indexeddb');
    // 1 open + 1 retry (missingStoreRetries = 1) + 1 open after the delete.
    expect(recording.opens).toBe(3);
    expect(types(reports)).toEqual(['DB_DELETED_BY_MISSING_OBJECT_STORES', 'DB_REOPENED_BY_MISSING_OBJECT_STORES']);
    expect(reports[0].details).toMatchObject({ missing: ['settings'] });
    expect(reports[1].details).toMatchObject({ restoredRecords: 1 });
    expect(await allItems(db)).toEqual([{ id: 1, kind: 'survivor', n: 7 }]);
    db.close();
    expect(Object.keys(await describeDatabase(factory as IDBFactory, 'TestDatabase')).sort()).toEqual(['items', 'settings']);
  });

  it('treats a missing index like a missing store', async () => {
    const factory = new IDBFactory();
    await createRawDatabase(factory, 'TestDatabase', 1, (raw) => {
      raw.createObjectStore('items', { keyPath: 'id', autoIncrement: true });
      raw.createObjectStore('settings');
    });
    const reports: StorageError[] = [];
    const db = createDatabase(testDatabase(), { indexedDB: factory, report: (e) => reports.push(e) });
    await putItem(db, 'a', 1);
    expect(reports[0].details).toMatchObject({ missing: ['items.byKind'] });
    expect(await db.transact('items', 'readonly', (tx) => tx.getAllFromIndex('items', 'byKind', 'a'))).toHaveLength(1);
  });

  it('MISSING_OBJECT_STORES when even a recreated database lacks them; the page keeps working in memory', async () => {
    const broken = testDatabase();
    const definition = { ...broken, upgrade: () => {} }; // a ladder that forgets its stores
    const reports: StorageError[] = [];
    const db = createDatabase(definition, { indexedDB: new IDBFactory(), report: (e) => reports.push(e) });
    expect(await db.backend()).toBe('memory');
    expect(types(reports)).toEqual(['DB_DELETED_BY_MISSING_OBJECT_STORES', 'MISSING_OBJECT_STORES']);
    expect(reports[1].message).toBe('Object stores not created.');
    await putItem(db, 'a', 1);
    expect(await allItems(db)).toEqual([{ id: 1, kind: 'a', n: 1 }]);
  });

  it('a transaction over a store the connection lacks (NotFoundError) reopens once, then rejects MISSING_OBJECT_STORES', async () => {
    const recording = recordingFactory();
    const db = createDatabase(testDatabase(), { indexedDB: recording.factory });
    await putItem(db, 'a', 1);
    const error = await rejectsWith(
      db.transact('vanished' as 'items', 'readonly', async () => 1),
      'MISSING_OBJECT_STORES',
    );
    expect(error.message).toBe('Object stores not created.');
    expect(recording.opens).toBe(2);
    expect(await allItems(db)).toHaveLength(1); // the database itself is fine
  });
});

describe('closed connections are reopened, never reused', () => {
  it('a connection the browser terminated (close event) is replaced on the next transaction', async () => {
    const recording = recordingFactory();
    const db = createDatabase(testDatabase(), { indexedDB: recording.factory });
    await putItem(db, 'a', 1);
    forceCloseDatabase(recording.connections[0] as never);
    await putItem(db, 'b', 2);
    expect(recording.opens).toBe(2);
    expect((await allItems(db)).map((item) => item.kind)).toEqual(['a', 'b']);
  });

  it('a connection closed silently (Safari: InvalidStateError from transaction()) is replaced and the work runs', async () => {
    const recording = recordingFactory();
    const db = createDatabase(testDatabase(), { indexedDB: recording.factory });
    await putItem(db, 'a', 1);
    recording.connections[0].close(); // no close event
    await putItem(db, 'b', 2);
    expect(recording.opens).toBe(2);
    expect(await allItems(db)).toHaveLength(2);
  });

  it('EXECUTE_TRANSACTION_ON_CLOSED_DB when the reopened connection is closed too', async () => {
    const factory = new IDBFactory();
    const open = factory.open.bind(factory);
    factory.open = (name: string, version?: number) => {
      const request = open(name, version);
      request.addEventListener('success', () => {
        const connection = request.result;
        const transaction = connection.transaction.bind(connection);
        let calls = 0;
        // The open itself checks the stores (one transaction); every later transaction finds it closed.
        connection.transaction = ((...args: Parameters<IDBDatabase['transaction']>) => {
          if (++calls > 1) throw new DOMException('The database connection is closing.', 'InvalidStateError');
          return transaction(...args);
        }) as IDBDatabase['transaction'];
      });
      return request;
    };
    const db = createDatabase(testDatabase(), { indexedDB: factory });
    const error = await rejectsWith(putItem(db, 'a', 1), 'EXECUTE_TRANSACTION_ON_CLOSED_DB');
    expect(error.message).toBe(STORAGE_MESSAGE('EXECUTE_TRANSACTION_ON_CLOSED_DB'));
  });

  it('closes itself when another tab upgrades or deletes the database (never blocks it), then reopens', async () => {
    const recording = recordingFactory();
    const db = createDatabase(testDatabase(), { indexedDB: recording.factory });
    await putItem(db, 'a', 1);
    const blocked = jest.fn();
    await new Promise<void>((resolve, reject) => {
      const request = recording.factory.deleteDatabase('TestDatabase');
      request.onblocked = blocked;
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
    });
    expect(blocked).not.toHaveBeenCalled();
    await putItem(db, 'b', 2);
    expect((await allItems(db)).map((item) => item.kind)).toEqual(['b']);
  });
});

describe('IndexedDB unavailable: everything keeps working in memory', () => {
  it.each([
    ['no factory at all', null],
    [
      'a factory whose open throws SecurityError',
      {
        open: () => {
          throw new DOMException('denied', 'SecurityError');
        },
      },
    ],
    [
      'an UnknownError at open that does not say storage was refused',
      {
        open: () => {
          throw new DOMException('Internal error opening backing store for indexedDB.open.', 'UnknownError');
        },
      },
    ],
    ['an object that is not a factory', {}],
  ])('%s → IDB_NOT_SUPPORTED reported once, memory backend', async (_label, factory) => {
    const reports: StorageError[] = [];
    const db = createDatabase(testDatabase(), { indexedDB: factory as IDBFactory | null, report: (e) => reports.push(e) });
    expect(await db.backend()).toBe('memory');
    await putItem(db, 'a', 1);
    await putItem(db, 'b', 2);
    expect(await allItems(db)).toEqual([
      { id: 1, kind: 'a', n: 1 },
      { id: 2, kind: 'b', n: 2 },
    ]);
    expect(types(reports)).toEqual(['IDB_NOT_SUPPORTED']);
    expect(reports[0].message).toBe('IndexedDB is not supported.');
  });

  it('storage refused at open (UnknownError "denied permission", a cross-origin frame in a private window) → IDB_ACCESS_DENIED reported once with the browser error as its cause, memory backend', async () => {
    const refusal = new DOMException('The user denied permission to access the database.', 'UnknownError');
    const reports: StorageError[] = [];
    const factory = {
      open: () => {
        throw refusal;
      },
    };
    const db = createDatabase(testDatabase(), { indexedDB: factory as unknown as IDBFactory, report: (e) => reports.push(e) });
    expect(await db.backend()).toBe('memory');
    await putItem(db, 'a', 1);
    await putItem(db, 'b', 2);
    expect(await allItems(db)).toEqual([
      { id: 1, kind: 'a', n: 1 },
      { id: 2, kind: 'b', n: 2 },
    ]);
    expect(types(reports)).toEqual(['IDB_ACCESS_DENIED']);
    expect(reports[0].message).toBe('The browser refused this page access to IndexedDB.');
    expect(reports[0].cause).toBe(refusal);
    expect(reports[0].details).toMatchObject({ browserError: 'UnknownError', browserMessage: 'The user denied permission to access the database.' });
  });

  it('INCOMPATIBLE_DB_VERSION (a newer page created a higher version) → memory backend', async () => {
    const factory = new IDBFactory();
    await createRawDatabase(factory, 'TestDatabase', 7, () => {});
    const reports: StorageError[] = [];
    const db = createDatabase(testDatabase(), { indexedDB: factory, report: (e) => reports.push(e) });
    expect(await db.backend()).toBe('memory');
    expect(types(reports)).toEqual(['INCOMPATIBLE_DB_VERSION']);
    expect(reports[0].message).toBe(STORAGE_MESSAGE('INCOMPATIBLE_DB_VERSION'));
  });

  it('an invalid name (colon) is reported and the database runs in memory', async () => {
    const reports: StorageError[] = [];
    const db = createDatabase(testDatabase('a:b:c'), { indexedDB: new IDBFactory(), report: (e) => reports.push(e) });
    expect(await db.backend()).toBe('memory');
    expect(types(reports)).toEqual(['INVALID_DATABASE_NAME']);
  });

  it('reads the global indexedDB by default (undefined option)', async () => {
    const db = createDatabase(testDatabase('GlobalDefault'));
    expect(await db.backend()).toBe('indexeddb'); // fake-indexeddb/auto installed a global factory
  });
});

function STORAGE_MESSAGE(type: StorageErrorType): string {
  return new StorageError(type).message;
}
