import { IDBFactory } from 'fake-indexeddb';
import './testDatabase';
import { configDatabase } from '../../../streams/storage/configDatabase';
import { createConfigStore } from '../../../streams/storage/createConfigStore';
import { createDatabase } from '../../../streams/storage/createDatabase';
import { CONFIG_STORE_MAX_RECORDS } from '../../../streams/timing';
import { describeDatabase } from './testDatabase';

const response = (globalConfigGroup: unknown) => ({ responseContext: { globalConfigGroup } });
const full = response({
  hotConfigGroup: { flagA: true },
  hotHashData: 'hot-1',
  coldConfigGroup: { flagB: 2 },
  coldHashData: 'cold-1',
  rawColdConfigGroup: { configData: 'CgIIAQ' },
});

describe.each([
  ['IndexedDB', () => new IDBFactory()],
  ['memory fallback', () => null],
])('createConfigStore on %s', (_label, factory) => {
  const setup = () => {
    const db = createDatabase(configDatabase(), { indexedDB: factory() });
    return { db, store: createConfigStore(db, { clock: { now: () => 1_000 } }) };
  };

  it('writes the hot and cold records of a log_event response and reads them back at start-up', async () => {
    const { store } = setup();
    expect(await store.read()).toEqual({});
    expect(await store.writeFromResponse(full)).toEqual({ hot: true, cold: true });
    expect(await store.read()).toEqual({
      hot: { config: { flagA: true }, hashData: 'hot-1', timestamp: 1_000 },
      cold: { config: { flagB: 2 }, hashData: 'cold-1', configData: 'CgIIAQ', timestamp: 1_000 },
    });
  });

  it(`keeps exactly ${CONFIG_STORE_MAX_RECORDS} record per store (spec §9), the newest`, async () => {
    expect(CONFIG_STORE_MAX_RECORDS).toBe(1);
    const { db, store } = setup();
    await store.writeFromResponse(full, 1);
    await store.writeFromResponse(response({ hotConfigGroup: { flagA: false }, hotHashData: 'hot-2' }), 2);
    await store.writeFromResponse(response({ hotConfigGroup: { flagA: 'x' }, hotHashData: 'hot-3' }), 3);
    const counts = await db.transact(['hotConfigStore', 'coldConfigStore'], 'readonly', async (tx) => [
      await tx.count('hotConfigStore'),
      await tx.count('coldConfigStore'),
    ]);
    expect(counts).toEqual([1, 1]);
    const read = await store.read();
    expect(read.hot).toEqual({ config: { flagA: 'x' }, hashData: 'hot-3', timestamp: 3 });
    expect(read.cold?.timestamp).toBe(1); // absent cold part: the cold record is untouched
  });

  it('skips a part whose hash did not change', async () => {
    const { store } = setup();
    await store.writeFromResponse(full, 1);
    expect(await store.writeFromResponse(full, 2)).toEqual({ hot: false, cold: false });
    expect((await store.read()).hot?.timestamp).toBe(1);
  });

  it('opens no transaction for a response repeating the hashes it last wrote or found stored; a new hash writes', async () => {
    const { db } = setup();
    const transact = jest.spyOn(db, 'transact');
    await createConfigStore(db).writeFromResponse(full, 1); // an earlier page stored them
    // A new page's store: its first response finds them stored (one transaction, nothing written), the next open none.
    const store = createConfigStore(db);
    expect(await store.writeFromResponse(full, 2)).toEqual({ hot: false, cold: false });
    const opened = transact.mock.calls.length;
    expect(await store.writeFromResponse(full, 3)).toEqual({ hot: false, cold: false });
    expect(await store.writeFromResponse(full, 4)).toEqual({ hot: false, cold: false });
    expect(transact.mock.calls.length).toBe(opened);
    const hot2 = response({ hotConfigGroup: { flagA: false }, hotHashData: 'hot-2', coldConfigGroup: { flagB: 2 }, coldHashData: 'cold-1' });
    expect(await store.writeFromResponse(hot2, 5)).toEqual({ hot: true, cold: false });
    expect(transact.mock.calls.length).toBe(opened + 1);
    expect((await store.read()).hot).toEqual({ config: { flagA: false }, hashData: 'hot-2', timestamp: 5 });
    // A part without a hash cannot be known the same: it is written every time.
    expect(await store.writeFromResponse(response({ hotConfigGroup: { flagA: 1 } }), 6)).toEqual({ hot: true, cold: false });
    expect(await store.writeFromResponse(response({ hotConfigGroup: { flagA: 1 } }), 7)).toEqual({ hot: true, cold: false });
    // And it makes the hash before it unknown again: hot-2 after it is written, though hot-2 was the last hash.
    expect(await store.writeFromResponse(hot2, 8)).toEqual({ hot: true, cold: false });
  });

  it('remembers nothing from a transaction that failed after its work ran: the next response tries again', async () => {
    const { db } = setup();
    const store = createConfigStore(db);
    const transact = db.transact.bind(db);
    // The unit of work runs whole (it reads and puts), then fails: the transaction is aborted, nothing committed.
    jest.spyOn(db, 'transact').mockImplementationOnce((stores, mode, work) =>
      transact(stores, mode, async (tx) => {
        await work(tx);
        throw new Error('aborted at commit');
      }),
    );
    await expect(store.writeFromResponse(full, 1)).rejects.toThrow('aborted at commit');
    expect(await store.read()).toEqual({});
    expect(await store.writeFromResponse(full, 2)).toEqual({ hot: true, cold: true });
    expect((await store.read()).hot?.timestamp).toBe(2);
  });

  it.each([
    ['no response', undefined],
    ['null', null],
    ['no responseContext', {}],
    ['no globalConfigGroup', { responseContext: {} }],
    ['a string group', response('nope')],
    ['config groups of the wrong type', response({ hotConfigGroup: 'x', coldConfigGroup: [1], hotHashData: 'h' })],
  ])('tolerates %s: writes nothing, never throws', async (_case, input) => {
    const { store } = setup();
    await expect(store.writeFromResponse(input)).resolves.toEqual({ hot: false, cold: false });
    expect(await store.read()).toEqual({});
  });

  it('tolerates absent or mistyped hash and config data', async () => {
    const { store } = setup();
    expect(await store.writeFromResponse(response({ hotConfigGroup: {}, hotHashData: 5, rawHotConfigGroup: { configData: {} } }))).toEqual({
      hot: true,
      cold: false,
    });
    expect(await store.read()).toEqual({ hot: { config: {}, timestamp: 1_000 } });
  });
});

it('configDatabase declares the layout its upgrade ladder builds', async () => {
  const factory = new IDBFactory();
  const db = createDatabase(configDatabase(), { indexedDB: factory });
  expect(await db.backend()).toBe('indexeddb');
  db.close();
  expect(await describeDatabase(factory, 'VidFrameConfigDatabase')).toEqual({
    hotConfigStore: { keyPath: null, autoIncrement: true, indexes: {} },
    coldConfigStore: { keyPath: null, autoIncrement: true, indexes: {} },
  });
});
