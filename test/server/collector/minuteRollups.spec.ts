import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../../server/db/migrate';
import { DATABASE_FILE_NAME, openDatabase, type SqliteDatabase } from '../../../server/db/openDatabase';
import { COLLECTOR_ROLLUP_MS } from '../../../server/collector/limits';
import type { CollectorStore, IncomingEvent, IncomingRequest, TimeseriesQuery } from '../../../server/collector/store';
import { createSqliteStore } from '../../../server/collector/stores/sqlite/createSqliteStore';
import { collectorMigrations } from '../../../server/collector/stores/sqlite/migrations';
import { timeseriesOf } from '../../../server/collector/stores/sqlite/rollups';

const MIN = COLLECTOR_ROLLUP_MS;
/** A whole hour, so that buckets of whole minutes start on it. */
const T0 = 1_700_000_400_000 - (1_700_000_400_000 % (60 * MIN));
const NAMES = ['playerStateChange', 'watchTimeSegment', 'startupTime', 'latencyReport', 'rebufferEnd', 'renditionPlayed', 'playerError', 'playerReady'];

/** A log request of `count` events of `stream`, received at `atMs`; `ids` names them (an id sent again is a resend). */
function logRequest(stream: string, atMs: number, ids: string[], payload = (id: string, i: number) => i): [IncomingRequest, IncomingEvent[]] {
  const events = ids.map((id, i): IncomingEvent => {
    const name = NAMES[(id.length + i) % NAMES.length]!;
    const n = payload(id, i);
    // Values in halves, and some events without one: every sum is exact, and the NULL cases are covered.
    const value = n % 7 === 6 ? undefined : (n % 97) * 0.5 + (name === 'renditionPlayed' && n % 3 === 0 ? -1 : 0);
    return {
      stream,
      dedupeKey: id,
      clientEventId: id,
      name,
      endpoint: 'log_event',
      value,
      json: JSON.stringify({ clientEventId: id, [name]: { n, bitrate: 400_000 + (n % 5) * 100_000 } }),
    };
  });
  const request: IncomingRequest = {
    requestId: `${stream}-${atMs}-${ids[0]}`,
    stream,
    endpoint: 'log_event',
    receivedAtMs: atMs,
    compressed: false,
    contentType: 'application/json',
    bodyBytes: 100,
    decodedBytes: 100,
    headers: {},
    eventCount: events.length,
    refused: 0,
  };
  return [request, events];
}

/** Requests over 40 minutes from 6 streams, with resends, conflicts and error reports, at uneven times. */
async function fill(store: CollectorStore): Promise<void> {
  for (let r = 0; r < 240; r++) {
    const stream = `st-${r % 6}`;
    const at = T0 + r * 10_007 + (r % 3) * 1_333;
    const ids = Array.from({ length: 1 + (r % 9) }, (_, i) => `${stream}:${r}:${i}`);
    await store.recordLogRequest(...logRequest(stream, at, ids));
    // Every fifth request is sent again a little later: a resend (duplicates) and, for some, another payload (conflicts).
    if (r % 5 === 0) await store.recordLogRequest(...logRequest(stream, at + 4_000, ids, (_id, i) => (r % 10 === 0 ? i + 1 : i)));
    if (r % 4 === 0) await store.recordError({ receivedAtMs: at + 500, message: `error ${r}`, messageTruncated: false, extra: {} });
  }
  // Error reports in minutes without any event.
  for (const at of [T0 + 45 * MIN + 10, T0 + 45 * MIN + 20, T0 + 50 * MIN])
    await store.recordError({ receivedAtMs: at, message: 'late', messageTruncated: false, extra: {} });
}

/** Ranges with and without whole minutes, aligned and not, in buckets of one, two and five minutes. */
const QUERIES: TimeseriesQuery[] = [
  { sinceMs: T0, untilMs: T0 + 60 * MIN, bucketMs: MIN },
  { sinceMs: T0 - 3 * MIN, untilMs: T0 + 60 * MIN, bucketMs: 2 * MIN },
  { sinceMs: T0 + 12_345, untilMs: T0 + 37 * MIN + 4_321, bucketMs: 2 * MIN },
  { sinceMs: T0 + 7 * MIN + 59_999, untilMs: T0 + 51 * MIN + 1, bucketMs: 5 * MIN },
  { sinceMs: T0 + 20 * MIN + 1_000, untilMs: T0 + 20 * MIN + 50_000, bucketMs: MIN },
];

describe('the SQLite store’s time series from minutes’ rollups', () => {
  let dir: string;
  let file: string;
  let store: CollectorStore;
  let db: SqliteDatabase;
  /** Every query, answered from the rollups and from the raw rows. */
  const bothWays = () => QUERIES.map((q) => ({ q, fromRollups: timeseriesOf(db, q, { rollups: true }), fromRows: timeseriesOf(db, q, { rollups: false }) }));

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'minute-rollups-'));
    file = join(dir, DATABASE_FILE_NAME);
    store = createSqliteStore(file);
    await fill(store);
    db = openDatabase(file);
  });
  afterEach(async () => {
    db.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every range and bucket exactly as the raw rows do, with every column present somewhere', () => {
    const answers = bothWays();
    for (const { fromRollups, fromRows } of answers) expect(fromRollups).toEqual(fromRows);
    const buckets = answers.flatMap((a) => a.fromRows);
    // The fill reaches every column, and buckets with error reports only.
    for (const key of ['latencyMeanMs', 'rebufferSec', 'bitrateMeanBps', 'startupP50Ms'] as const) expect(buckets.some((b) => b[key] !== undefined)).toBe(true);
    expect(buckets.some((b) => b.events === 0 && b.errors > 0)).toBe(true);
    expect(buckets.some((b) => b.sessions > 1)).toBe(true);
    // The stored events, counted once each: resends are not, conflicts live in their own table.
    const whole = answers[1]!.fromRollups.reduce((n, b) => n + b.events, 0);
    expect(whole).toBe((db.prepare('SELECT count(*) AS n FROM collector_events').get() as { n: number }).n);
  });

  it('reads whole minutes from the rollups, not from the rows', () => {
    // Rollups changed behind the store's back show in the answer: proof that the rows were not read for them.
    db.prepare('UPDATE collector_minutes SET events = events + 1000 WHERE minute_ms = ?').run(T0 + 10 * MIN);
    const [fromRollups, fromRows] = [true, false].map((rollups) => timeseriesOf(db, QUERIES[0]!, { rollups }));
    const minute = (series: typeof fromRows) => series.find((b) => b.startMs === T0 + 10 * MIN)!.events;
    expect(minute(fromRollups!)).toBe(minute(fromRows!) + 1000);
  });

  it('stays exact after retention cuts in the middle of a minute', async () => {
    await store.deleteReceivedBefore(T0 + 17 * MIN + 23_456);
    for (const { fromRollups, fromRows } of bothWays()) expect(fromRollups).toEqual(fromRows);
    const first = (db.prepare('SELECT min(minute_ms) AS m FROM collector_minutes').get() as { m: number }).m;
    expect(first).toBe(T0 + 17 * MIN);
  });

  it('fills the rollups of a store written before them when it migrates', async () => {
    const expected = bothWays().map((a) => a.fromRows);
    await store.close();
    // The store as it was before the rollups' step.
    db.exec(`DROP TABLE collector_minutes; DROP TABLE collector_minute_streams; DROP INDEX collector_events_name_received;
             DELETE FROM schema_migrations WHERE domain = 'collector' AND version = 5;`);
    expect(migrate(db, 'collector', collectorMigrations)).toEqual([5]);
    expect(bothWays().map((a) => a.fromRollups)).toEqual(expected);
    store = createSqliteStore(file);
  });

  it('is emptied with the store', async () => {
    await store.clear();
    expect(
      (db.prepare('SELECT (SELECT count(*) FROM collector_minutes) + (SELECT count(*) FROM collector_minute_streams) AS n').get() as { n: number }).n,
    ).toBe(0);
  });

  it('reads the start-up times of a range through the (name, received time) index', () => {
    const plan = (
      db
        .prepare(
          "EXPLAIN QUERY PLAN SELECT value FROM collector_events WHERE name = 'startupTime' AND value IS NOT NULL AND received_at_ms >= 0 AND received_at_ms < 1",
        )
        .all() as { detail: string }[]
    ).map((r) => r.detail);
    expect(plan.join('\n')).toContain('collector_events_name_received');
  });
});
