import { IDBFactory } from 'fake-indexeddb';
import { lastValueFrom, toArray } from 'rxjs';
import { createRawDatabase } from './testDatabase';
import { storageCleanup, type StorageCleanupEvent } from '../../../streams/storage/storageCleanup';
import { createTestScheduler } from '../../helpers/testScheduler';

describe('storageCleanup (marbles: expired records)', () => {
  it('is cold, asks each store to remove what expired at the scheduler time, and reports the counts', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const first = cold<number>('--a|', { a: 3 });
      const second = cold<number>('-----#', undefined, new Error('disk'));
      const calls: number[] = [];
      const cleanup$ = storageCleanup({
        indexedDB: null,
        expiring: [{ removeExpired: (now) => (calls.push(now), first) }, { removeExpired: (now) => (calls.push(now), second) }],
      });
      expect(calls).toEqual([]); // nothing happens before the integrator subscribes
      // Subscribed at frame 10: the first store answers 2 frames later, the second fails at 15.
      expectObservable(cleanup$, '10ms ^').toBe('12ms a--(b|)', {
        a: { type: 'records-expired', count: 3 },
        b: { type: 'cleanup-error', error: new Error('disk') },
      } satisfies Record<string, StorageCleanupEvent>);
      expectSubscriptions(first.subscriptions).toBe('10ms ^--!');
    });
  });
});

describe('storageCleanup (fake-indexeddb: legacy databases)', () => {
  it('deletes the legacy databases that exist, leaves the others, never errors', async () => {
    const factory = new IDBFactory();
    await createRawDatabase(factory, 'OldLogs', 3, (db) => db.createObjectStore('x'));
    await createRawDatabase(factory, 'Current', 1, (db) => db.createObjectStore('x'));
    const events = await lastValueFrom(storageCleanup({ indexedDB: factory, legacyDatabaseNames: ['OldLogs', 'NeverExisted'] }).pipe(toArray()));
    expect(events).toEqual([{ type: 'database-deleted', name: 'OldLogs' }]);
    expect((await factory.databases()).map((info) => info.name)).toEqual(['Current']);
  });

  it('reports a delete blocked by a tab that keeps the database open, and finishes once it closes', async () => {
    const factory = new IDBFactory();
    await createRawDatabase(factory, 'OldLogs', 1, () => {});
    const stubborn = await new Promise<IDBDatabase>((resolve) => {
      const request = factory.open('OldLogs', 1);
      request.onsuccess = () => resolve(request.result); // no versionchange handler: an old page
    });
    const events: StorageCleanupEvent[] = [];
    const done = new Promise<void>((resolve) =>
      storageCleanup({ indexedDB: factory, legacyDatabaseNames: ['OldLogs'] }).subscribe({
        next: (e) => {
          events.push(e);
          if (e.type === 'database-delete-blocked') stubborn.close();
        },
        complete: resolve,
      }),
    );
    await done;
    expect(events).toEqual([
      { type: 'database-delete-blocked', name: 'OldLogs' },
      { type: 'database-deleted', name: 'OldLogs' },
    ]);
  });

  it('does nothing at all without a factory', async () => {
    expect(await lastValueFrom(storageCleanup({ indexedDB: null, legacyDatabaseNames: ['x'] }).pipe(toArray()))).toEqual([]);
  });

  it('turns a throwing factory into a cleanup-error event', async () => {
    const broken = {
      databases: async () => [{ name: 'x' }],
      deleteDatabase: () => {
        throw new DOMException('no', 'SecurityError');
      },
    };
    const events = await lastValueFrom(storageCleanup({ indexedDB: broken as unknown as IDBFactory, legacyDatabaseNames: ['x'] }).pipe(toArray()));
    expect(events).toEqual([{ type: 'cleanup-error', error: expect.objectContaining({ name: 'SecurityError' }) }]);
  });
});
