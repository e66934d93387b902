import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '../../../server/collector/stores/sqlite/createSqliteStore';
import { DATABASE_FILE_NAME, openDatabase } from '../../../server/db/openDatabase';
import { startClickHouse, type ClickHouseServer } from '../../helpers/clickhouseServer';
import { startServerProcess, type ServerProcess } from '../../helpers/serverProcess';
import { adminJson, antiForgeryToken, CHAOS_ADMIN_TOKEN, CHAOS_STREAM_SECRET, ChaosClient, chaosTokens, listedIds, postLog } from './chaosClient';

/**
 * The collector's chaos suite, against the real server process (`server/main.ts`) and each
 * real store: SQLite in the data folder, and ClickHouse (Debian's clickhouse-server, started on loopback here).
 * Nothing is mocked: clients speak HTTP, the server is killed with SIGKILL, the data is read back through the
 * admin API after a restart.
 */
jest.setTimeout(240_000);

interface Target {
  name: string;
  /** The store's environment for a fresh, empty store. */
  env(): Promise<Record<string, string>>;
}

let clickhouse: ClickHouseServer | undefined;
let databaseCounter = 0;
const dirs: string[] = [];
const processes: ServerProcess[] = [];

const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vidframe-chaos-'));
  dirs.push(dir);
  return dir;
};

const TARGETS: Target[] = [
  { name: 'SQLite', env: async () => ({ VIDFRAME_DATA_DIR: newDataDir() }) },
  {
    name: 'ClickHouse',
    env: async () => {
      clickhouse ??= await startClickHouse();
      return { VIDFRAME_DATA_DIR: newDataDir(), VIDFRAME_STORE: `${clickhouse.url}/chaos_${process.pid}_${++databaseCounter}` };
    },
  },
];

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({
    VIDFRAME_ADMIN_TOKEN: CHAOS_ADMIN_TOKEN,
    VIDFRAME_STREAM_SECRET: CHAOS_STREAM_SECRET,
    // Every chaos client shares 127.0.0.1: the per-address rate limit (proven in security.spec.ts) is off here.
    VIDFRAME_RATE_LIMIT: 'off',
    ...env,
  });
  processes.push(server);
  return server;
}

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill9()));
  await clickhouse?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(TARGETS)('collector chaos: $name store', (target) => {
  it('kill -9 in the middle of a burst: after a restart every acknowledged event is there exactly once, and resends complete the rest', async () => {
    const env = await target.env();
    let server = await start(env);
    const clients = Array.from({ length: 24 }, (_, i) => new ChaosClient(`kill${i}`, 10));
    let acknowledged = 0;
    let killed = false;
    const killAt = 400; // acknowledged requests before the kill: the burst is in full flow then
    const burst = clients.map(async (client) => {
      while (!killed) {
        const { first } = client.nextRequest();
        const status = await client.send(server.origin, first);
        if (status === 200 && ++acknowledged === killAt) {
          killed = true;
          await server.kill9();
        }
      }
    });
    await Promise.all(burst);
    expect(acknowledged).toBeGreaterThanOrEqual(killAt);

    server = await start(env);
    const listed = await listedIds(server.origin);
    const acked = clients.flatMap((c) => c.ackedIds());
    expect(acked.length).toBeGreaterThanOrEqual(killAt * 10);
    expect(acked.filter((id) => listed.get(id) !== 1)).toEqual([]); // every acknowledged event, once
    expect([...listed.values()].filter((n) => n !== 1)).toEqual([]); // nothing listed twice

    // The clients' retry queues resend what was not acknowledged (and, as after a lost answer, some that was).
    for (const client of clients) {
      for (const first of [...client.unacked(), ...[...client.requests.keys()].slice(0, 2)]) {
        expect(await client.send(server.origin, first)).toBe(200);
      }
    }
    const all = clients.flatMap((c) => c.allIds());
    const final = await listedIds(server.origin);
    expect(final.size).toBe(all.length);
    expect(all.filter((id) => final.get(id) !== 1)).toEqual([]);
    expect((await adminJson<{ events: number }>(server.origin, '/collector/api/stats')).events).toBe(all.length);
    await server.stop();
  });

  it('50 concurrent clients × 200 requests (some resent) lose and duplicate nothing', async () => {
    const server = await start(await target.env());
    const clients = Array.from({ length: 50 }, (_, i) => new ChaosClient(`burst${i}`, 5));
    const statuses = new Map<number, number>();
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < 200; i++) {
          const { first } = client.nextRequest();
          const status = await client.send(server.origin, first);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (i % 20 === 19) await client.send(server.origin, first); // a resend, as after a lost answer
        }
      }),
    );
    expect(Object.fromEntries(statuses)).toEqual({ 200: 50 * 200 });
    const listed = await listedIds(server.origin);
    expect(listed.size).toBe(50 * 200 * 5);
    expect([...listed.values()].every((n) => n === 1)).toBe(true);
    const stats = await adminJson<{ events: number; requests: number }>(server.origin, '/collector/api/stats');
    expect(stats.events).toBe(50 * 200 * 5);
    if (target.name === 'SQLite') expect(stats).toMatchObject({ requests: 50 * 210, duplicatesDropped: 50 * 10 * 5 });
    await server.stop();
  });

  it('a poison event in a batch leaves the rest stored, and forged ids from another client leave the victim’s events stored', async () => {
    const server = await start(await target.env());
    const victim = chaosTokens.issue();
    const attacker = chaosTokens.issue();
    const deep = `${'{"d":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    const good = Array.from({ length: 19 }, (_, i) => `{"clientEventId":"victim:${i}","playerStateChange":{"state":1}}`);
    const xsrf = `"session_token":"${antiForgeryToken()}"`;
    // The attacker first claims the victim's ids on its own stream…
    expect((await postLog(server.origin, attacker.token, `{${xsrf},"events":[${good.join(',')}]}`)).status).toBe(200);
    // …a forged token stores nothing…
    expect((await postLog(server.origin, `${victim.token.slice(0, -4)}AAAA`, `{${xsrf},"events":[${good.join(',')}]}`)).status).toBe(401);
    // …and the victim's batch, with a 10,000-deep poison event in the middle, keeps its 19 good events.
    const body = `{${xsrf},"events":[${[...good.slice(0, 10), `{"clientEventId":"victim:poison","poison":${deep}}`, ...good.slice(10)].join(',')}]}`;
    const res = await fetch(`${server.origin}/youtubei/v1/log_event`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': victim.token },
      body,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { collector: unknown }).collector).toMatchObject({ accepted: 19, refused: [{ index: 10, clientEventId: 'victim:poison' }] });
    const listed = await listedIds(server.origin);
    expect(good.map((_, i) => listed.get(`${victim.stream}/victim:${i}`))).toEqual(Array(19).fill(1));
    expect(good.map((_, i) => listed.get(`${attacker.stream}/victim:${i}`))).toEqual(Array(19).fill(1));
    await server.stop();
  });
});

describe('collector chaos: a store of millions of events', () => {
  it('a server on a SQLite store of 2 million events (larger than the old JSONL start-up could read) starts, answers and takes more', async () => {
    // Generated straight into the database (as the migrations leave it), not committed. How long the start takes,
    // beside an empty store's, is measured by `npm run bench` (tests assert behaviour, never time).
    const dataDir = newDataDir();
    const file = join(dataDir, DATABASE_FILE_NAME);
    await createSqliteStore(file).close();
    const db = openDatabase(file);
    const N = 2_000_000;
    db.exec(`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${N})
      INSERT INTO collector_events (stream, dedupe_key, client_event_id, name, endpoint, event_time_ms, received_at_ms, request_id, value, json)
      SELECT 'big' || (x / 1000), 'big:' || x, 'big:' || x, 'playerStateChange', 'log_event', 1700000000000 + x, 1700000000000 + x, 'r' || (x / 100), NULL,
        '{"eventTimeMs":' || (1700000000000 + x) || ',"clientEventId":"big:' || x || '","playerStateChange":{"videoId":"VFsunrise01","previousState":3,"state":1,"mediaTimeSec":12.5}}'
      FROM c`);
    db.prepare("INSERT INTO collector_totals (key, value) VALUES ('events', ?), ('endpoint:log_event', ?)").run(N, N);
    db.prepare("INSERT INTO collector_name_totals (name, count) VALUES ('playerStateChange', ?)").run(N);
    db.close();
    expect(statSync(file).size).toBeGreaterThan(512 * 1024 * 1024);

    const server = await start({ VIDFRAME_DATA_DIR: dataDir });
    expect(await (await fetch(`${server.origin}/readyz`)).json()).toEqual({ ready: true, store: 'sqlite', state: 'sqlite' });
    expect((await adminJson<{ events: number }>(server.origin, '/collector/api/stats')).events).toBe(N);
    const client = new ChaosClient('afterbig', 5);
    const { first } = client.nextRequest();
    expect(await client.send(server.origin, first)).toBe(200);
    const page = await adminJson<{ items: { clientEventId: string }[] }>(server.origin, `/collector/api/events?pageId=afterbig&limit=10`);
    expect(page.items.map((e) => e.clientEventId)).toEqual(['afterbig:0', 'afterbig:1', 'afterbig:2', 'afterbig:3', 'afterbig:4']);
    const oldest = await adminJson<{ items: { clientEventId: string }[]; nextCursor: string }>(server.origin, '/collector/api/events?limit=2');
    expect(oldest.items.map((e) => e.clientEventId)).toEqual(['big:1', 'big:2']);
    expect(await server.stop()).toBe(0);
  });
});
