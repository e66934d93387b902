import pg from 'pg';
import { SIGNIN_FREE_FAILURES } from '../../../server/accounts/limits';
import { accountsMigrations } from '../../../server/accounts/migrations';
import { clusterMigrations } from '../../../server/cluster/migrations';
import { platformMigrations } from '../../../server/platform/migrations';
import { startClickHouse, type ClickHouseServer } from '../../helpers/clickhouseServer';
import { startPostgres, type PostgresServer } from '../../helpers/postgresServer';
import { CHAOS_ADMIN_TOKEN, CHAOS_STREAM_SECRET, ChaosClient, listedIds, postLog } from '../chaos/chaosClient';
import { asClient, Cluster, inlinedConfig, sessionCookieOf } from './clusterHarness';

/**
 * The reference server as a deployment runs it on several machines: two server processes started together on one
 * empty PostgreSQL database (`VIDFRAME_DB`) and one ClickHouse store (`VIDFRAME_STORE`), with the same shared secrets,
 * each with a data folder of its own, behind a round-robin proxy whose `X-Forwarded-For` they trust. Every request
 * goes through the proxy, the layer the deployment's clients meet, and the proxy tells which server answered.
 * Each test speaks from client addresses of its own, so the per-address limits of one never reach another's.
 */
jest.setTimeout(180_000);

const ACCESS_SECRET = 'cluster-spec-access-secret-0123456789abcdef';
/** Log requests per client address per window, for the whole cluster. */
const RATE_MAX = 40;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_BODY = { 'content-type': 'application/json' };

let postgres: PostgresServer | undefined;
let clickhouse: ClickHouseServer | undefined;
let databaseUrl: string;
const clusters: Cluster[] = [];
let cluster: Cluster;

beforeAll(async () => {
  // Both started before either failure is thrown, so that afterAll stops the one that did start.
  const [pgStart, clickhouseStart] = await Promise.allSettled([startPostgres(), startClickHouse()]);
  if (pgStart.status === 'fulfilled') postgres = pgStart.value;
  if (clickhouseStart.status === 'fulfilled') clickhouse = clickhouseStart.value;
  if (!postgres || !clickhouse) throw [pgStart, clickhouseStart].map((s) => (s.status === 'rejected' ? s.reason : undefined)).find(Boolean);
  databaseUrl = await postgres.createDatabase('vf_cluster');
  const store = `${clickhouse.url}/cluster_${process.pid}`;
  cluster = await Cluster.start(2, (dataDir) => ({
    VIDFRAME_DB: databaseUrl,
    VIDFRAME_STORE: store,
    VIDFRAME_STREAM_SECRET: CHAOS_STREAM_SECRET,
    VIDFRAME_ACCESS_TOKEN_SECRET: ACCESS_SECRET,
    VIDFRAME_ADMIN_TOKEN: CHAOS_ADMIN_TOKEN,
    VIDFRAME_DATA_DIR: dataDir,
    VIDFRAME_TRUST_PROXY: '127.0.0.1',
    VIDFRAME_RATE_LIMIT: `${RATE_MAX}/60000`,
  }));
  clusters.push(cluster);
});

afterAll(async () => {
  await Promise.allSettled(clusters.map((c) => c.close()));
  await Promise.allSettled([postgres?.close(), clickhouse?.close()]);
});

/** Every backend of the rotation, in a stable order, to compare with the `servedBy` of answers. */
const everyBackend = (c: Cluster) => [...c.proxy.backends()].sort();
const servedBy = (answers: { servedBy: string }[]) => [...new Set(answers.map((a) => a.servedBy))].sort();

/** How many times each of these clients' events is listed (through the proxy), and every count above one anywhere. */
async function listingOf(clients: ChaosClient[]): Promise<{ ofClients: Map<string, number>; duplicated: number[] }> {
  const listed = await listedIds(cluster.proxy.origin);
  const streams = new Set(clients.map((c) => c.stream));
  const ofClients = new Map([...listed].filter(([id]) => streams.has(id.slice(0, id.indexOf('/')))));
  return { ofClients, duplicated: [...listed.values()].filter((n) => n !== 1) };
}

const signIn = (email: string, password: string, client: string) =>
  cluster.call('/signin', { method: 'POST', client, headers: FORM, body: new URLSearchParams({ email, password }).toString() });

describe('a cluster of two servers on one PostgreSQL database and one ClickHouse store', () => {
  it('migrated the empty database once, started together: both answer, and each ladder step is recorded once', async () => {
    const ready = await cluster.callEach('/readyz');
    expect(servedBy(ready)).toEqual(everyBackend(cluster));
    expect(await Promise.all(ready.map((a) => a.response.json()))).toEqual([
      { ready: true, store: 'clickhouse', state: 'postgres' },
      { ready: true, store: 'clickhouse', state: 'postgres' },
    ]);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ domain: string; version: number; n: number }>(
        'SELECT domain, version, count(*)::int AS n FROM schema_migrations GROUP BY domain, version ORDER BY domain, version',
      );
      const versionsOf = (domain: string) => rows.filter((r) => r.domain === domain).map((r) => r.version);
      const ladder = (length: number) => Array.from({ length }, (_, i) => i + 1);
      expect(versionsOf('accounts')).toEqual(ladder(accountsMigrations.length));
      expect(versionsOf('platform')).toEqual(ladder(platformMigrations.length));
      expect(versionsOf('cluster')).toEqual(ladder(clusterMigrations.length));
      // Whatever other domains keep their state here, each climbed its ladder from 1 without a gap or a repeat.
      for (const domain of new Set(rows.map((r) => r.domain))) expect(versionsOf(domain)).toEqual(ladder(versionsOf(domain).length));
      expect(rows.filter((r) => r.n !== 1)).toEqual([]);
      const accounts = await client.query<{ email: string }>('SELECT email FROM accounts ORDER BY email');
      expect(accounts.rows.map((r) => r.email)).toEqual(['ada@example.com', 'grace@example.com']);
    } finally {
      await client.end();
    }
  });

  it('serves through one server the viewer who signed in through the other, and ends the session on both when one signs out', async () => {
    const client = '10.2.0.1';
    const signedIn = await signIn('ada@example.com', 'vidframe-ada', client);
    expect(signedIn.status).toBe(303);
    const session = sessionCookieOf(signedIn.response);
    const tokenCall = () => ({ method: 'POST', client, headers: JSON_BODY, body: JSON.stringify({ session }) });

    const token = await cluster.call('/accounts/token', tokenCall());
    expect(token.servedBy).not.toBe(signedIn.servedBy);
    const answer = (await token.response.json()) as { signedIn: boolean; accessToken: string; account: { email: string } };
    expect(answer).toMatchObject({ signedIn: true, account: { email: 'ada@example.com' } });
    const bearer = () => ({ client, headers: { authorization: `Bearer ${answer.accessToken}` } });
    const datasync = await cluster.callEach('/getDatasyncIdsEndpoint', bearer);
    expect(servedBy(datasync)).toEqual(everyBackend(cluster));
    expect(datasync.map((a) => a.status)).toEqual([200, 200]);

    const signedOut = await cluster.call('/accounts/signout', tokenCall());
    expect(await signedOut.response.json()).toEqual({ signedOut: true });
    const tokensAfter = await cluster.callEach('/accounts/token', tokenCall);
    expect(servedBy(tokensAfter)).toEqual(everyBackend(cluster));
    expect(await Promise.all(tokensAfter.map((a) => a.response.json()))).toEqual([{ signedIn: false }, { signedIn: false }]);
    const datasyncAfter = await cluster.callEach('/getDatasyncIdsEndpoint', bearer);
    expect(servedBy(datasyncAfter)).toEqual(everyBackend(cluster));
    expect(datasyncAfter.map((a) => a.status)).toEqual([401, 401]);
  });

  it('stores a log burst spread over both servers once per event, resends through the other server included', async () => {
    const clients = Array.from({ length: 20 }, (_, i) => new ChaosClient(`spread${i}`, 5, asClient(`10.3.0.${i + 1}`)));
    const before = cluster.proxy.served.length;
    const statuses: number[] = [];
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < 10; i++) {
          const { first } = client.nextRequest();
          statuses.push(await client.send(cluster.proxy.origin, first));
          // As after a lost answer: the same request again, which the round robin may hand to the other server.
          if (i % 5 === 4) statuses.push(await client.send(cluster.proxy.origin, first));
        }
      }),
    );
    expect(statuses).toEqual(Array(20 * 12).fill(200));
    const backends = cluster.proxy.served.slice(before).map((s) => s.backend);
    expect(everyBackend(cluster).map((b) => backends.filter((x) => x === b).length)).toEqual([20 * 6, 20 * 6]);

    const { ofClients, duplicated } = await listingOf(clients);
    const all = clients.flatMap((c) => c.allIds());
    expect(ofClients.size).toBe(all.length);
    expect(all.filter((id) => ofClients.get(id) !== 1)).toEqual([]);
    expect(duplicated).toEqual([]);
  });

  it('kill -9 of one server mid-burst: every acknowledged event is stored once, and resends through the survivor complete the rest', async () => {
    const [victim] = cluster.servers;
    const clients = Array.from({ length: 16 }, (_, i) => new ChaosClient(`kill${i}`, 5, asClient(`10.4.0.${i + 1}`)));
    const perClient = 12;
    const killAt = 48; // acknowledged requests before the kill: a quarter of the burst, which goes on after it
    const statuses: number[] = [];
    let acknowledged = 0;
    let killed: Promise<void> | undefined;
    try {
      await Promise.all(
        clients.map(async (client) => {
          for (let i = 0; i < perClient; i++) {
            const { first } = client.nextRequest();
            const status = await client.send(cluster.proxy.origin, first);
            statuses.push(status);
            if (status === 200 && ++acknowledged === killAt) killed = cluster.kill9(victim);
          }
        }),
      );
      await killed;
      expect(killed).toBeDefined();
      // Cut connections (0) and the proxy's 502s while the dead server was still in the rotation; nothing else.
      expect(statuses.filter((s) => s !== 200 && s !== 502 && s !== 0)).toEqual([]);
      expect(statuses.filter((s) => s !== 200).length).toBeGreaterThan(0);

      const acked = clients.flatMap((c) => c.ackedIds());
      const afterKill = await listingOf(clients);
      expect(acked.length).toBeGreaterThanOrEqual(killAt * 5);
      expect(acked.filter((id) => afterKill.ofClients.get(id) !== 1)).toEqual([]);
      expect(afterKill.duplicated).toEqual([]);

      // The clients' retry queues resend what was not acknowledged; only the survivor is in the rotation.
      for (const client of clients) for (const first of client.unacked()) expect(await client.send(cluster.proxy.origin, first)).toBe(200);
    } finally {
      // The server comes back on its data folder, as its supervisor would start it, for the tests after this one.
      if (killed) await cluster.restart(victim);
    }
    expect(cluster.proxy.backends()).toHaveLength(2);
    const all = clients.flatMap((c) => c.allIds());
    const final = await listingOf(clients);
    expect(final.ofClients.size).toBe(all.length);
    expect(all.filter((id) => final.ofClients.get(id) !== 1)).toEqual([]);
    expect(final.duplicated).toEqual([]);
  });

  it('throttles a password guessed through both servers as through one', async () => {
    const attempts: { status: number; servedBy: string }[] = [];
    for (let i = 0; i < SIGNIN_FREE_FAILURES + 2; i++) attempts.push(await signIn('mallory-target@example.com', `guess-${i}`, '10.5.0.1'));
    expect(attempts.map((a) => a.status)).toEqual([...Array<number>(SIGNIN_FREE_FAILURES).fill(401), 429, 429]);
    // The two refusals come from different servers: each knew of the failures the other counted.
    expect(servedBy(attempts.slice(SIGNIN_FREE_FAILURES))).toEqual(everyBackend(cluster));
  });
});

describe('a cluster of two servers: the per-address rate limit is the cluster’s', () => {
  it('counts one address’s log requests across both servers: the first max pass, then 429 whichever server answers', async () => {
    const client = new ChaosClient('rate', 1, asClient('10.6.0.1'));
    const before = cluster.proxy.served.length;
    const statuses: number[] = [];
    for (let i = 0; i < RATE_MAX + 2; i++) statuses.push(await client.send(cluster.proxy.origin, client.nextRequest().first));
    expect(new Set(cluster.proxy.served.slice(before).map((s) => s.backend))).toEqual(new Set(cluster.proxy.backends()));
    expect(statuses).toEqual([...Array<number>(RATE_MAX).fill(200), 429, 429]);
  });
});

describe('a cluster of two servers without shared secrets: the keys come from the shared database', () => {
  let keyless: Cluster;

  beforeAll(async () => {
    const url = await postgres!.createDatabase('vf_cluster_keys');
    // Nothing shared but the state database: no stream or access-token secret, each its own SQLite store.
    keyless = await Cluster.start(2, (dataDir) => ({ VIDFRAME_DB: url, VIDFRAME_DATA_DIR: dataDir }));
    clusters.push(keyless);
  });

  it('accepts on one server the stream token of an embed page the other served', async () => {
    for (const shift of [0, 1]) {
      // A request to shift the rotation, so that each server serves the page once.
      if (shift) await keyless.call('/healthz');
      const page = await keyless.call('/embed/VFsunrise01');
      expect(page.status).toBe(200); // 503: the pages are not built (`npm run build`, which `npm test` runs first)
      const { args } = inlinedConfig(await page.response.text());
      const body = JSON.stringify({ session_token: args.xsrf_token, events: [{ clientEventId: `keys:${shift}`, playerReady: {} }] });
      const before = keyless.proxy.served.length;
      const logged = await postLog(keyless.proxy.origin, args.stream_token!, body);
      expect(keyless.proxy.served[before].backend).not.toBe(page.servedBy);
      expect(logged).toEqual({ status: 200 });
    }
  });
});

describe('a cluster of two servers: PostgreSQL crashes mid-burst and comes back', () => {
  it('answers log requests 503 while the state database is gone, leaves the rotation, and stores every event once after resends', async () => {
    const clients = Array.from({ length: 10 }, (_, i) => new ChaosClient(`pgdown${i}`, 5, asClient(`10.7.0.${i + 1}`)));
    const crashAt = 20; // acknowledged requests before PostgreSQL stops, of the 80 of the burst
    const statuses: number[] = [];
    let acknowledged = 0;
    let crashed: Promise<void> | undefined;
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < 8; i++) {
          const status = await client.send(cluster.proxy.origin, client.nextRequest().first);
          statuses.push(status);
          if (status === 200 && ++acknowledged === crashAt) crashed = postgres!.crash();
        }
      }),
    );
    await crashed;
    expect(crashed).toBeDefined();
    // While it is gone: every log request is refused for later (the limits cannot be counted), and no server is ready.
    for (const client of clients) expect(await client.send(cluster.proxy.origin, client.nextRequest().first)).toBe(503);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    const down = await cluster.callEach('/readyz');
    expect(down.map((a) => a.status)).toEqual([503, 503]);
    expect(await down[0].response.json()).toMatchObject({ ready: false, state: 'postgres', error: { message: 'The state database does not answer' } });

    await postgres!.restart();
    // The servers lived through it: their retry queues' resends are taken, each event stored once.
    expect(cluster.servers.map((s) => s.child.exitCode)).toEqual([null, null]);
    // A resend that meets a pooled connection which died with the database is refused 503 once more, as the retry
    // queue expects of any 503, and that connection leaves the pool.
    for (const client of clients)
      for (const first of client.unacked()) {
        const tries: number[] = [];
        while (tries.at(-1) !== 200 && tries.length < 4) tries.push(await client.send(cluster.proxy.origin, first));
        expect(tries.filter((t) => t !== 503)).toEqual([200]);
      }
    expect((await cluster.callEach('/readyz')).map((a) => a.status)).toEqual([200, 200]);
    expect((await signIn('ada@example.com', 'vidframe-ada', '10.7.1.1')).status).toBe(303);
    const { ofClients, duplicated } = await listingOf(clients);
    const all = clients.flatMap((c) => c.allIds());
    expect(ofClients.size).toBe(all.length);
    expect(all.filter((id) => ofClients.get(id) !== 1)).toEqual([]);
    expect(duplicated).toEqual([]);
  });
});
