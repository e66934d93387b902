import { IDBFactory } from 'fake-indexeddb';
import '../storage/testDatabase';
import { describeDatabase } from '../storage/testDatabase';
import { createDatabase } from '../../../streams/storage/createDatabase';
import { createRetryQueue, type RetryQueueOptions } from '../../../streams/retry/createRetryQueue';
import { logsDatabase, type LogsDatabaseSchema } from '../../../streams/retry/logsDatabase';
import type { Database } from '../../../streams/storage/Database';
import type { LogRequest } from '../../../streams/retry/QueuedLogRequest';
import { RETRY_QUEUE_DEFAULT_RESENDS, RETRY_QUEUE_EXPIRY_MS, RETRY_QUEUE_POTENTIAL_ERROR_LIMIT, RETRY_QUEUE_STALE_QUEUED_MS } from '../../../streams/timing';

const request = (n: number): LogRequest => ({
  url: `https://collector.test/youtubei/v1/log_event?n=${n}`,
  options: { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"events":[${n}]}` },
});
const T0 = 1_700_000_000_000;

describe.each([
  ['IndexedDB', () => new IDBFactory()],
  ['memory fallback', () => null],
])('createRetryQueue on %s', (_label, makeFactory) => {
  const setup = (options: Partial<RetryQueueOptions> = {}, factory = makeFactory()) =>
    createRetryQueue(createDatabase(logsDatabase(), { indexedDB: factory }), { interfaceNumber: 56, clock: { now: () => T0 }, ...options });

  it('enqueue stores the request as NEW with sendCount 0, the interface number and the time', async () => {
    const queue = setup();
    const stored = await queue.enqueue(request(1));
    expect(stored).toEqual({ ...request(1), id: 1, timestamp: T0, status: 'NEW', sendCount: 0, interfaceNumber: 56 });
    expect(await queue.list()).toEqual([stored]);
    expect((await queue.enqueue(request(2), { skipRetry: true, now: T0 + 1 })).skipRetry).toBe(true);
  });

  it('refuses a malformed request without storing anything', async () => {
    const queue = setup();
    for (const bad of [
      null,
      {},
      { url: 1, options: {} },
      { url: 'u', options: { method: 'GET', headers: {}, body: '' } },
      { url: 'u', options: { method: 'POST', headers: { a: 1 }, body: '' } },
    ]) {
      await expect(queue.enqueue(bad as unknown as LogRequest)).rejects.toThrow(TypeError);
    }
    expect(await queue.list()).toEqual([]);
  });

  it('NEW → QUEUED on pick-up (oldest first, timestamp = pick-up time); a QUEUED request is not picked again', async () => {
    const queue = setup();
    await queue.enqueue(request(1));
    await queue.enqueue(request(2));
    const first = await queue.claimNext(T0 + 10);
    expect(first).toMatchObject({ id: 1, status: 'QUEUED', timestamp: T0 + 10, sendCount: 0 });
    expect((await queue.claimNext(T0 + 11))?.id).toBe(2);
    expect(await queue.claimNext(T0 + 12)).toBeUndefined();
    expect((await queue.list()).map((r) => r.status)).toEqual(['QUEUED', 'QUEUED']);
  });

  it('deletes a request after a successful send', async () => {
    const queue = setup();
    await queue.enqueue(request(1));
    await queue.markSent((await queue.claimNext(T0))!);
    expect(await queue.list()).toEqual([]);
  });

  it(`a QUEUED request whose tab died mid-send is picked up again after ${RETRY_QUEUE_STALE_QUEUED_MS} ms`, async () => {
    expect(RETRY_QUEUE_STALE_QUEUED_MS).toBe(60_000);
    const queue = setup();
    await queue.enqueue(request(1));
    await queue.claimNext(T0);
    expect(await queue.claimNext(T0 + 59_999)).toBeUndefined();
    expect(await queue.claimNext(T0 + 60_000)).toMatchObject({ id: 1, status: 'QUEUED', timestamp: T0 + 60_000 });
  });

  it(`definite failure: back to NEW with sendCount + 1, dropped once the ${RETRY_QUEUE_DEFAULT_RESENDS} resend is used`, async () => {
    expect(RETRY_QUEUE_DEFAULT_RESENDS).toBe(1);
    const queue = setup();
    await queue.enqueue(request(1));
    expect(await queue.markFailed((await queue.claimNext(T0))!, { potential: false })).toBe('requeued');
    expect(await queue.list()).toEqual([expect.objectContaining({ status: 'NEW', sendCount: 1, timestamp: T0 })]);
    expect(await queue.markFailed((await queue.claimNext(T0 + 1))!, { potential: false })).toBe('dropped');
    expect(await queue.list()).toEqual([]);
  });

  it('maxResends widens the budget', async () => {
    const queue = setup({ maxResends: 3 });
    await queue.enqueue(request(1));
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await queue.markFailed((await queue.claimNext(T0 + i))!, { potential: false }));
    expect(outcomes).toEqual(['requeued', 'requeued', 'requeued', 'dropped']);
  });

  it(`potential errors (network, 5xx) are tolerated up to the potential-error limit of ${RETRY_QUEUE_POTENTIAL_ERROR_LIMIT} sends`, async () => {
    expect(RETRY_QUEUE_POTENTIAL_ERROR_LIMIT).toBe(10);
    const queue = setup();
    await queue.enqueue(request(1));
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) outcomes.push(await queue.markFailed((await queue.claimNext(T0 + i))!, { potential: true }));
    expect(outcomes).toEqual([...Array(9).fill('requeued'), 'dropped']);
  });

  it('skipRetry: dropped after its first failed send', async () => {
    const queue = setup();
    await queue.enqueue(request(1), { skipRetry: true });
    expect(await queue.markFailed((await queue.claimNext(T0))!, { potential: true })).toBe('dropped');
    expect(await queue.list()).toEqual([]);
  });

  it('markFailed on a request already gone says dropped and writes nothing', async () => {
    const queue = setup();
    const stored = await queue.enqueue(request(1));
    await queue.markSent(stored);
    expect(await queue.markFailed(stored, { potential: true })).toBe('dropped');
    expect(await queue.list()).toEqual([]);
  });

  it(`expiry: a request untouched for ${RETRY_QUEUE_EXPIRY_MS} ms (30 days) is deleted instead of sent`, async () => {
    expect(RETRY_QUEUE_EXPIRY_MS).toBe(30 * 24 * 3600 * 1000);
    const queue = setup();
    await queue.enqueue(request(1), { now: T0 });
    await queue.enqueue(request(2), { now: T0 + 1 });
    expect((await queue.claimNext(T0 + RETRY_QUEUE_EXPIRY_MS))?.id).toBe(2);
    expect((await queue.list()).map((r) => r.id)).toEqual([2]);
  });

  it('removeExpired deletes every expired request, NEW or QUEUED', async () => {
    const queue = setup();
    await queue.enqueue(request(1), { now: T0 });
    await queue.enqueue(request(2), { now: T0 });
    await queue.claimNext(T0);
    await queue.enqueue(request(3), { now: T0 + 5 });
    expect(await queue.removeExpired(T0 + RETRY_QUEUE_EXPIRY_MS - 1)).toBe(0);
    expect(await queue.removeExpired(T0 + RETRY_QUEUE_EXPIRY_MS)).toBe(2);
    expect((await queue.list()).map((r) => r.id)).toEqual([3]);
  });

  it('release puts our own pick-up back to NEW without counting a send', async () => {
    const queue = setup();
    await queue.enqueue(request(1));
    const picked = (await queue.claimNext(T0 + 1))!;
    await queue.release({ ...picked, timestamp: T0 + 999 }); // not our pick-up: untouched
    expect((await queue.list())[0].status).toBe('QUEUED');
    await queue.release(picked);
    expect((await queue.list())[0]).toMatchObject({ status: 'NEW', sendCount: 0 });
  });

  it('a claim reads only the oldest NEW request, however many are stored (a drain of n is not O(n²) reads)', async () => {
    const real = createDatabase(logsDatabase(), { indexedDB: makeFactory() });
    const readSizes: number[] = [];
    const counting: Database<LogsDatabaseSchema> = {
      ...real,
      transact: (stores, mode, work) =>
        real.transact(stores, mode, (tx) =>
          // The transaction with its index reads counted (a proxy: a transaction's methods may live on its prototype).
          work(
            new Proxy(tx, {
              get: (target, name) =>
                name === 'getAllFromIndex'
                  ? ((async (store, index, key, count) => {
                      const records = await target.getAllFromIndex(store, index, key, count);
                      readSizes.push(records.length);
                      return records;
                    }) as typeof tx.getAllFromIndex)
                  : (Reflect.get(target, name, target) as unknown),
            }),
          ),
        ),
    };
    const queue = createRetryQueue(counting, { interfaceNumber: 56, clock: { now: () => T0 } });
    for (let n = 1; n <= 30; n++) await queue.enqueue(request(n), { now: T0 });
    readSizes.length = 0;
    expect((await queue.claimNext(T0 + 1))?.id).toBe(1);
    expect((await queue.claimNext(T0 + 2))?.id).toBe(2);
    expect(Math.max(...readSizes)).toBe(1); // one NEW record per claim (the QUEUED read is the one in flight)
  });

  it('a stale QUEUED request older than the oldest NEW one is picked first', async () => {
    const queue = setup();
    await queue.enqueue(request(1), { now: T0 });
    await queue.enqueue(request(2), { now: T0 });
    expect((await queue.claimNext(T0))?.id).toBe(1); // its tab dies mid-send
    expect((await queue.claimNext(T0 + RETRY_QUEUE_STALE_QUEUED_MS))?.id).toBe(1);
    expect((await queue.claimNext(T0 + RETRY_QUEUE_STALE_QUEUED_MS))?.id).toBe(2);
  });

  it('expired requests met on the way, QUEUED or NEW, are deleted and the next one is picked', async () => {
    const queue = setup();
    await queue.enqueue(request(1), { now: T0 });
    await queue.enqueue(request(2), { now: T0 });
    await queue.enqueue(request(3), { now: T0 + 10 });
    expect((await queue.claimNext(T0))?.id).toBe(1); // QUEUED at T0, never sent
    expect(await queue.claimNext(T0 + RETRY_QUEUE_EXPIRY_MS + 5)).toMatchObject({ id: 3, status: 'QUEUED' });
    expect((await queue.list()).map((r) => r.id)).toEqual([3]);
  });

  it('only picks up the requests of its own interface number', async () => {
    const factory = makeFactory();
    const db = createDatabase(logsDatabase(), { indexedDB: factory });
    const embed = createRetryQueue(db, { interfaceNumber: 56, clock: { now: () => T0 } });
    const other = createRetryQueue(db, { interfaceNumber: 1, clock: { now: () => T0 } });
    await other.enqueue(request(1));
    expect(await embed.claimNext(T0)).toBeUndefined();
    expect((await other.claimNext(T0))?.interfaceNumber).toBe(1);
  });
});

describe('two consumers racing (two tabs: two connections to one database)', () => {
  it('only one of them gets a given request', async () => {
    const factory = new IDBFactory();
    const tabA = createRetryQueue(createDatabase(logsDatabase(), { indexedDB: factory }), { interfaceNumber: 56 });
    const tabB = createRetryQueue(createDatabase(logsDatabase(), { indexedDB: factory }), { interfaceNumber: 56 });
    await tabA.enqueue(request(1), { now: T0 });
    const [a, b] = await Promise.all([tabA.claimNext(T0 + 1), tabB.claimNext(T0 + 1)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
  });

  it('draining 20 requests concurrently from both tabs sends each exactly once', async () => {
    const factory = new IDBFactory();
    const tabs = [0, 1].map(() => createRetryQueue(createDatabase(logsDatabase(), { indexedDB: factory }), { interfaceNumber: 56 }));
    for (let n = 0; n < 20; n++) await tabs[n % 2].enqueue(request(n), { now: T0 });
    const sent: number[] = [];
    const drain = async (queue: (typeof tabs)[number]) => {
      for (let picked = await queue.claimNext(T0 + 1); picked; picked = await queue.claimNext(T0 + 1)) {
        sent.push(picked.id);
        await queue.markSent(picked);
      }
    };
    await Promise.all([drain(tabs[0]), drain(tabs[1]), drain(tabs[0])]);
    expect(sent.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await tabs[1].list()).toEqual([]);
  });
});

it('logsDatabase declares the layout its upgrade ladder builds, and validates its name', async () => {
  const factory = new IDBFactory();
  const db = createDatabase(logsDatabase(), { indexedDB: factory });
  expect(await db.backend()).toBe('indexeddb');
  db.close();
  expect(await describeDatabase(factory, 'VidFrameLogsDatabase')).toEqual({
    LogsRequestsStore: { keyPath: 'id', autoIncrement: true, indexes: { byInterfaceAndStatus: ['interfaceNumber', 'status'] } },
  });
  expect(logsDatabase({ authSpecific: true, userIdentifier: '42' }).name).toBe('VidFrameLogsDatabase:42');
  expect(() => logsDatabase({ authSpecific: true })).toThrow('No user identifier specified.');
});
