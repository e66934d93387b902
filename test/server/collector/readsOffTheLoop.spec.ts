import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { COLLECTOR_READ_RETRY_AFTER_SEC } from '../../../server/collector/limits';
import { createSqliteStore, type SqliteStoreOptions } from '../../../server/collector/stores/sqlite/createSqliteStore';
import { DATABASE_FILE_NAME } from '../../../server/db/openDatabase';
import { createStreamTokens } from '../../../server/tokens/streamTokens';
import { apiTokensFor } from '../../helpers/apiTokens';
import { fillCollectorEvents } from '../../helpers/fillCollectorEvents';

/**
 * The admin reads on a large SQLite store, through the whole app: a read that takes long (a time series over every
 * event) runs off the event loop, so log writes and `/healthz` sent one after the other while it runs are all
 * answered before it; and a read past its time bound answers 503 naming the bound, while the server goes on writing
 * and reading. The assertions are about order and status, never about how many milliseconds anything took.
 */
const NOW = 1_700_000_000_000;
const ADMIN = 'admin-token-for-the-read-tests';
const SECRET = 'a-shared-stream-secret-of-at-least-32-chars';
/** Enough events that the time series over all of them takes several times the bound below (each event 10 ms apart). */
const EVENTS = 200_000;
const SPACING_MS = 10;
const FROM_MS = NOW - EVENTS * SPACING_MS - 60_000;
/**
 * The time bound of the second test: far above a one-row read, well below the whole-store time series (the bound
 * counts from when the worker takes the read, not from its start-up).
 */
const SHORT_READ_TIMEOUT_MS = 400;

const tokens = createStreamTokens({ secret: SECRET, now: () => NOW });
const { antiForgeryToken } = apiTokensFor(SECRET, () => NOW);
const logBody = (id: string) =>
  JSON.stringify({
    session_token: antiForgeryToken(),
    context: { client: { clientName: 'WEB_EMBEDDED_PLAYER', clientVersion: '1.0' } },
    events: [{ eventTimeMs: 1000, clientEventId: id, playerStateChange: { state: 1 } }],
    requestTimeMs: 2000,
    // The page is the id's prefix (`{pageId}:…`), as the client names its events.
    serializedClientEventId: { serializedEventId: id.split(':')[0], clientCounter: 1 },
  });
// Buckets of 30 s are not whole minutes: the series reads every event of the range (the rollups serve whole minutes).
const wholeStoreTimeseries = `/collector/api/timeseries?sinceMs=${FROM_MS}&untilMs=${NOW + 60_000}&bucketMs=30000`;

describe('admin reads on a large SQLite store (through the whole app)', () => {
  let dataDir: string;
  let app: VidFrameApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reads-off-loop-'));
    await createSqliteStore(join(dataDir, DATABASE_FILE_NAME)).close(); // the tables
    fillCollectorEvents(join(dataDir, DATABASE_FILE_NAME), { count: EVENTS, fromMs: FROM_MS, spacingMs: SPACING_MS });
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  afterEach(async () => app.close());

  const start = async (options: SqliteStoreOptions = {}) => {
    const store = createSqliteStore(join(dataDir, DATABASE_FILE_NAME), options);
    app = await buildApp({ dataDir, now: () => NOW, adminToken: ADMIN, streamSecret: SECRET, store });
  };
  const admin = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN}`, host: 'localhost:8080' } });
  const write = (id: string) =>
    app.inject({
      method: 'POST',
      url: '/youtubei/v1/log_event',
      payload: logBody(id),
      headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': tokens.issue().token },
    });
  /** Runs `request` and notes its name in `order` when its answer arrives. */
  const noted = async <T>(order: string[], name: string, request: Promise<T>): Promise<T> => {
    const answer = await request;
    order.push(name);
    return answer;
  };
  /** The next turn of the event loop's timers: it comes only once the loop is free. */
  const nextTimerTurn = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('answers writes and /healthz, one after the other, while a long read runs', async () => {
    await start();
    const order: string[] = [];
    const read = noted(order, 'read', admin(wholeStoreTimeseries));
    await nextTimerTurn(); // the read is under way (on a blocked loop, this turn comes only after its work)
    // Each of these is sent only once the one before is answered: on a loop the read holds, they cannot all pass it.
    for (let round = 1; round <= 3; round++) {
      const written = await noted(order, `write ${round}`, write(`first:${round}`));
      expect(written.statusCode).toBe(200);
      expect(written.json().collector).toMatchObject({ accepted: 1 });
      expect((await noted(order, `healthz ${round}`, app.inject('/healthz'))).statusCode).toBe(200);
    }
    const answer = await read;

    expect(order).toEqual(['write 1', 'healthz 1', 'write 2', 'healthz 2', 'write 3', 'healthz 3', 'read']);
    expect(answer.statusCode).toBe(200);
    // The read is one snapshot of the store: every event filled, and the writes that committed before it began.
    expect(answer.json().buckets.reduce((sum: number, b: { events: number }) => sum + b.events, 0)).toBeGreaterThanOrEqual(EVENTS);
  });

  it('answers a read past its time bound with a 503 naming the bound, and goes on serving', async () => {
    await start({ readTimeoutMs: SHORT_READ_TIMEOUT_MS });
    const refused = await admin(wholeStoreTimeseries);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(COLLECTOR_READ_RETRY_AFTER_SEC));
    expect(refused.json().error.message).toBe(
      `The timeseries read ran past its time bound of ${SHORT_READ_TIMEOUT_MS} ms and was stopped: narrow it (a shorter range, a filter) or try again later`,
    );
    // The server goes on: a write is stored, and the next reads get a fresh worker that sees it.
    expect((await write('second:1')).statusCode).toBe(200);
    const events = await admin('/collector/api/events?limit=5&pageId=second');
    expect(events.statusCode).toBe(200);
    expect(events.json().items.map((e: { clientEventId: string }) => e.clientEventId)).toEqual(['second:1']);
    expect((await admin('/collector/api/stats')).statusCode).toBe(200);
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });
});
