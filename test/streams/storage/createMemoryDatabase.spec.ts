import { createMemoryDatabase } from '../../../streams/storage/createMemoryDatabase';
import { isStorageError } from '../../../streams/storage/StorageError';
import { testDatabase } from './testDatabase';

const db = () => createMemoryDatabase(testDatabase());

describe('createMemoryDatabase (the fallback when IndexedDB is unavailable)', () => {
  it('generates keys, keeps key order, and answers index queries in index order', async () => {
    const memory = db();
    await memory.transact('items', 'readwrite', async (tx) => {
      expect(await tx.add('items', { kind: 'b', n: 1 })).toBe(1);
      expect(await tx.add('items', { kind: 'a', n: 2 })).toBe(2);
      expect(await tx.put('items', { id: 10, kind: 'a', n: 3 })).toBe(10);
      expect(await tx.add('items', { kind: 'c', n: 4 })).toBe(11);
    });
    await memory.transact('items', 'readonly', async (tx) => {
      expect((await tx.getAll('items')).map((item) => item.n)).toEqual([1, 2, 3, 4]);
      expect(await tx.getAllKeys('items')).toEqual([1, 2, 10, 11]);
      expect((await tx.getAllFromIndex('items', 'byKind', 'a')).map((item) => item.id)).toEqual([2, 10]);
      expect((await tx.getAllFromIndex('items', 'byKind')).map((item) => item.kind)).toEqual(['a', 'a', 'b', 'c']);
      expect((await tx.getAllFromIndex('items', 'byKind', 'a', 1)).map((item) => item.id)).toEqual([2]);
      expect((await tx.getAllFromIndex('items', 'byKind', undefined, 3)).map((item) => item.id)).toEqual([2, 10, 1]);
      expect(await tx.count('items')).toBe(4);
      expect(await tx.get('items', 10)).toEqual({ id: 10, kind: 'a', n: 3 });
    });
  });

  it('stores clones: mutating a value after put or after get changes nothing stored', async () => {
    const memory = db();
    const value = { v: { deep: 1 } };
    await memory.transact('settings', 'readwrite', (tx) => tx.put('settings', value, 'k'));
    value.v.deep = 2;
    const read = (await memory.transact('settings', 'readonly', (tx) => tx.get('settings', 'k'))) as { v: { deep: number } };
    read.v.deep = 3;
    expect(await memory.transact('settings', 'readonly', (tx) => tx.get('settings', 'k'))).toEqual({ v: { deep: 1 } });
  });

  it('rolls back a failed or aborted transaction, with EXPLICIT_ABORT for abort()', async () => {
    const memory = db();
    await expect(
      memory.transact('items', 'readwrite', async (tx) => {
        await tx.add('items', { kind: 'a', n: 1 });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const aborted = memory.transact('items', 'readwrite', async (tx) => {
      await tx.add('items', { kind: 'a', n: 1 });
      tx.abort();
    });
    await expect(aborted).rejects.toMatchObject({ type: 'EXPLICIT_ABORT', message: 'Transaction was explicitly aborted.' });
    expect(await memory.transact('items', 'readonly', (tx) => tx.count('items'))).toBe(0);
  });

  it('runs transactions one at a time, so a read-modify-write is atomic', async () => {
    const memory = db();
    await memory.transact('settings', 'readwrite', (tx) => tx.put('settings', { v: 0 }, 'counter'));
    const increment = () =>
      memory.transact('settings', 'readwrite', async (tx) => {
        const current = (await tx.get('settings', 'counter'))!.v as number;
        await Promise.resolve(); // a later transaction must not slip in here
        await tx.put('settings', { v: current + 1 }, 'counter');
      });
    await Promise.all([increment(), increment(), increment()]);
    expect(await memory.transact('settings', 'readonly', (tx) => tx.get('settings', 'counter'))).toEqual({ v: 3 });
  });

  it('raises the catalogue errors and the IndexedDB ones', async () => {
    const memory = db();
    const missingStore = await memory.transact('nope' as 'items', 'readonly', async () => 1).catch((e: unknown) => e);
    expect(isStorageError(missingStore, 'MISSING_OBJECT_STORES')).toBe(true);
    const missingIndex = await memory.transact('items', 'readonly', (tx) => tx.getAllFromIndex('items', 'nope' as 'byKind')).catch((e: unknown) => e);
    expect(isStorageError(missingIndex, 'MISSING_INDEX')).toBe(true);
    await expect(memory.transact('items', 'readonly', (tx) => tx.add('items', { kind: 'a', n: 1 }))).rejects.toMatchObject({ name: 'ReadOnlyError' });
    await memory.transact('items', 'readwrite', (tx) => tx.add('items', { id: 1, kind: 'a', n: 1 }));
    await expect(memory.transact('items', 'readwrite', (tx) => tx.add('items', { id: 1, kind: 'a', n: 1 }))).rejects.toMatchObject({ name: 'ConstraintError' });
    await expect(memory.transact('settings', 'readwrite', (tx) => tx.put('settings', { v: 1 }))).rejects.toMatchObject({ name: 'DataError' });
    await expect(memory.transact('settings', 'readwrite', (tx) => tx.put('settings', { v: () => 1 }, 'f'))).rejects.toMatchObject({ name: 'DataCloneError' });
    expect(await memory.backend()).toBe('memory');
  });
});
