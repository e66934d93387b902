import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../../server/app';
import { importLegacyJsonl, LEGACY_STREAM } from '../../../server/collector/importLegacyJsonl';
import { createSqliteStore } from '../../../server/collector/stores/sqlite/createSqliteStore';

/** What the JSONL collector of earlier versions wrote, one record a line. */
const legacyEvent = (seq: number, name = 'playerStateChange', payload: object = { state: 1 }) =>
  JSON.stringify({
    seq,
    dedupeKey: `page:${seq}`,
    clientEventId: `page:${seq}`,
    name,
    endpoint: 'log_event',
    eventTimeMs: 1000 + seq,
    receivedAtMs: 1_700_000_000_000 + seq,
    requestId: 'r1',
    event: { eventTimeMs: 1000 + seq, clientEventId: `page:${seq}`, [name]: payload },
  });
const silent = { info: () => undefined, error: () => undefined } as never;

describe('importing the JSONL store of an earlier version', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'legacy-'));
    mkdirSync(join(dataDir, 'collector'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('moves every event and error report into the store, skips a torn last line, and renames the files', async () => {
    const lines = Array.from({ length: 2_500 }, (_, i) => legacyEvent(i + 1));
    lines.push(legacyEvent(2_501, 'watchTimeSegment', { startSec: 1, endSec: 4 }));
    writeFileSync(join(dataDir, 'collector', 'events.jsonl'), `${lines.join('\n')}\n{"seq": 2502, "dedupe`);
    writeFileSync(
      join(dataDir, 'collector', 'errors.jsonl'),
      `${JSON.stringify({ seq: 1, receivedAtMs: 5, message: 'boom', messageTruncated: false, stack: 'at x', extra: { a: '1' } })}\n`,
    );
    const store = createSqliteStore(join(dataDir, 'vidframe.sqlite'));
    const result = await importLegacyJsonl(store, dataDir, { log: silent });
    expect(result).toEqual({ events: 2_501, errors: 1, skippedLines: 1 });
    expect(await store.stats()).toMatchObject({ events: 2_501, errors: 1 });
    const last = await store.listEvents({ limit: 1, name: 'watchTimeSegment' });
    expect(last.items[0]).toMatchObject({ stream: LEGACY_STREAM, clientEventId: 'page:2501', value: 3, receivedAtMs: 1_700_000_002_501 });
    expect((await store.listErrors({ limit: 5 })).items[0]).toMatchObject({ message: 'boom', stack: 'at x', extra: { a: '1' } });
    expect(existsSync(join(dataDir, 'collector', 'events.jsonl'))).toBe(false);
    expect(existsSync(join(dataDir, 'collector', 'events.jsonl.imported'))).toBe(true);
    await store.close();
  });

  it('stores nothing twice when an import cut short runs again', async () => {
    writeFileSync(join(dataDir, 'collector', 'events.jsonl'), Array.from({ length: 50 }, (_, i) => legacyEvent(i + 1)).join('\n'));
    const store = createSqliteStore(join(dataDir, 'vidframe.sqlite'));
    let lines = 0;
    const first = await importLegacyJsonl(store, dataDir, { log: silent, shouldStop: () => ++lines > 30 });
    expect(first.events).toBe(0); // stopped before its first batch was full: nothing stored, the file stays
    expect(existsSync(join(dataDir, 'collector', 'events.jsonl'))).toBe(true);
    await importLegacyJsonl(store, dataDir, { log: silent });
    await importLegacyJsonl(store, dataDir, { log: silent }); // nothing left to do
    expect((await store.stats()).events).toBe(50);
    await store.close();
  });

  it('runs by itself when the server starts on a data folder of an earlier version', async () => {
    writeFileSync(join(dataDir, 'collector', 'events.jsonl'), Array.from({ length: 10 }, (_, i) => legacyEvent(i + 1)).join('\n'));
    const app = await buildApp({ dataDir, adminToken: 'legacy-admin-token-0123' });
    const events = async () =>
      (await app.inject({ url: '/collector/api/stats', headers: { authorization: 'Bearer legacy-admin-token-0123', host: 'localhost' } })).json().events;
    for (let tries = 0; (await events()) < 10 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await events()).toBe(10);
    await app.close();
    expect(existsSync(join(dataDir, 'collector', 'events.jsonl.imported'))).toBe(true);
  });
});
