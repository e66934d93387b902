/**
 * The state benchmark (`npm run bench -- state`): what one server process answers per second on each state database
 * (`VIDFRAME_DB`: the default SQLite file, then PostgreSQL), printed and written to `bench/results/state-latest.json`,
 * never asserted.
 *
 * For each database the real server process (`test/helpers/serverProcess.ts`, through `bench/benchProcesses.ts`) is
 * started with shared secrets, signed in once as a demo account (`POST /signin`), and loaded by
 * `BENCH_STATE_CLIENTS` keep-alive clients for `BENCH_STATE_SECONDS` per call, after a warm-up of 3 s:
 *
 * - `POST /accounts/token` with the session: the call a signed-in viewer's embed makes on every load;
 * - `POST /youtubei/v1/player` with the access token and an anti-forgery token: the player call of a signed-in viewer;
 * - `POST /youtubei/v1/log_event` (`BENCH_STATE_EVENTS_PER_REQUEST` events, the default SQLite collector store), once
 *   with the rate limits counting (a per-address limit the bench never reaches, so every request is counted and none
 *   refused: in memory on SQLite, one upsert per bucket in PostgreSQL) and once on a second server with them off;
 * - `GET /api/stats/watchtime`: the ping a playing embed sends every 10 s, with the limits counting and off likewise.
 *
 * Printed per call: requests/s, latency p50/p99 as the client sees it, the server's CPU share and requests per second of
 * its CPU (what a server would answer with a core to itself), PostgreSQL's CPU share beside it; per server its RSS
 * (VmRSS) at the end. PostgreSQL is Debian's (`test/helpers/postgresServer.ts`) with fsync on, on the same cores.
 *
 * Environment (defaults in brackets):
 *   BENCH_STATE_CLIENTS [16]               concurrent clients
 *   BENCH_STATE_SECONDS [15]               seconds per call
 *   BENCH_STATE_DBS [sqlite,postgres]      which state databases, in this order
 *   BENCH_STATE_EVENTS_PER_REQUEST [10]    events per log request
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { SCRYPT_N, SCRYPT_P, SCRYPT_R, hashPassword } from '../server/accounts/passwordHash';
import { startPostgres } from '../test/helpers/postgresServer';
import { CHAOS_ADMIN_TOKEN, CHAOS_STREAM_SECRET, antiForgeryToken, chaosTokens, logRequestBody } from '../test/server/chaos/chaosClient';
import { type BenchServer, cpuSeconds, rssMiB, startCurrentServer, tempDir } from './benchProcesses';
import { percentile, sendOnce } from './collectorLoad';
import { int, loadAverage, serverRevision } from './collectorReport';

const ACCESS_TOKEN_SECRET = 'bench-state-access-token-secret-0123456789';
/** Per client address and window: far above what the bench sends, so the limits count every request and refuse none. */
const COUNTING_RATE_LIMIT = '100000000/60000';
/** Load before each call's counted seconds. */
const WARM_UP_MS = 3_000;
/** Stream tokens the log rows take turns with, so no stream reaches its own limit (120 a minute). */
const STREAM_TOKEN_POOL = 4_000;

type Db = 'sqlite' | 'postgres';
interface CallFigure {
  call: string;
  requests: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuPercent?: number;
  /** PostgreSQL's CPU share meanwhile (its postmaster and backends), on PostgreSQL. */
  postgresCpuPercent?: number;
  /** Requests per second of the server's own CPU: less swayed than requests/s by what else runs on the machine. */
  requestsPerCpuSecond?: number;
  /** Answers other than 200, by status (0: the connection failed). */
  failures: Record<string, number>;
}
interface DbFigures {
  db: Db;
  calls: CallFigure[];
  /** VmRSS of the server at the end of its calls (the limits-off server's after its log row). */
  rssMiB?: number;
  rssOffMiB?: number;
}

const env = (name: string, fallback: number) => Number(process.env[name]?.trim() || fallback);

/** What a call runs against: the server, its clients, and the PostgreSQL cluster's port when there is one. */
interface Load {
  server: BenchServer;
  clients: number;
  seconds: number;
  postgresPort?: number;
}

/**
 * User + system CPU seconds of the PostgreSQL cluster on `port`: its postmaster with the backends it has reaped
 * (`cutime`, `cstime`: a pooled connection closed meanwhile keeps counting) and the backends still running.
 */
function clusterCpuSeconds(port: number | undefined): number | undefined {
  if (port === undefined) return undefined;
  const postgres = new Map<number, { ppid: number; reapedSec: number; args: string[] }>();
  for (const entry of readdirSync('/proc')) {
    try {
      if (!/^\d+$/.test(entry) || readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const reapedSec = (Number(fields[13]) + Number(fields[14])) / 100;
      postgres.set(Number(entry), { ppid: Number(fields[1]), reapedSec, args: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0') });
    } catch {
      /* gone meanwhile */
    }
  }
  const master = [...postgres].find(([, p]) => p.args.some((arg, i) => arg === '-p' && p.args[i + 1] === String(port)))?.[0];
  if (master === undefined) return undefined;
  return [...postgres].reduce(
    (sum, [pid, p]) => (p.ppid === master ? sum + (cpuSeconds(pid) ?? 0) : sum),
    (cpuSeconds(master) ?? 0) + postgres.get(master)!.reapedSec,
  );
}

/** `clients` keep-alive clients POSTing what `next` gives them, one after the other, for `seconds`. */
/** One request of a call: its path (with the query), headers, and JSON body (none: a GET). */
type Request = [path: string, headers: Record<string, string>, body?: string];

/** `clients` keep-alive clients sending what `next` gives them, one after the other, for `seconds`; 2xx counts. */
async function drive({ server, clients, seconds, postgresPort }: Load, call: string, next: (client: number) => Request) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  // The first WARM_UP_MS are not counted: the server's code is compiled and its caches filled by then.
  const started = performance.now() + WARM_UP_MS;
  const end = started + seconds * 1000;
  let cpuBefore: number | undefined;
  let postgresBefore: number | undefined;
  const mark = setTimeout(() => {
    cpuBefore = cpuSeconds(server.pid);
    postgresBefore = clusterCpuSeconds(postgresPort);
  }, WARM_UP_MS);
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < end) {
        const [path, headers, body] = next(client);
        const t0 = performance.now();
        const status = await sendOnce(agent, new URL(path, server.origin), headers, body);
        if (t0 < started) continue;
        if (status >= 200 && status < 300) latencies.push(performance.now() - t0);
        else failures[status] = (failures[status] ?? 0) + 1;
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  clearTimeout(mark);
  agent.destroy();
  const cpuAfter = cpuSeconds(server.pid);
  const postgresAfter = clusterCpuSeconds(postgresPort);
  const postgresCpu = postgresBefore !== undefined && postgresAfter !== undefined ? postgresAfter - postgresBefore : undefined;
  const cpuPercent = cpuBefore !== undefined && cpuAfter !== undefined ? ((cpuAfter - cpuBefore) * 100_000) / elapsedMs : undefined;
  const figure: CallFigure = {
    call,
    requests: latencies.length,
    requestsPerSec: (latencies.length / elapsedMs) * 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    serverCpuPercent: cpuPercent,
    postgresCpuPercent: postgresCpu !== undefined ? (postgresCpu * 100_000) / elapsedMs : undefined,
    requestsPerCpuSecond: cpuPercent ? (latencies.length / elapsedMs) * 1000 * (100 / cpuPercent) : undefined,
    failures,
  };
  process.stderr.write(`  [state] ${call}: ${int(figure.requestsPerSec)} requests/s\n`);
  return figure;
}

/** Signs in as the demo account through the form and returns the session secret and an access token. */
async function signIn(origin: string): Promise<{ session: string; accessToken: string }> {
  const form = new URLSearchParams({ email: 'ada@example.com', password: 'vidframe-ada' }).toString();
  const signedIn = await fetch(`${origin}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('vf_session='));
  if (signedIn.status !== 303 || !cookie) throw new Error(`POST /signin answered ${signedIn.status} without a session cookie`);
  const session = cookie.split(';')[0].slice('vf_session='.length);
  const answer = (await (
    await fetch(`${origin}/accounts/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session }) })
  ).json()) as {
    accessToken?: string;
  };
  if (!answer.accessToken) throw new Error(`POST /accounts/token gave no access token: ${JSON.stringify(answer)}`);
  return { session, accessToken: answer.accessToken };
}

function logRow(load: Load, label: string, eventsPerRequest: number, tokens: string[]) {
  const prefix = `bench-state-${Date.now().toString(36)}-${label.length}-`;
  let sent = 0;
  return drive(load, `log_event, ${eventsPerRequest} events (rate limits ${label})`, () => {
    sent += 1;
    return ['/youtubei/v1/log_event', { 'x-vidframe-stream-token': tokens[sent % tokens.length] }, logRequestBody(`${prefix}${sent}`, 0, eventsPerRequest)];
  });
}

/** Watchtime pings as the embed sends them every 10 s of playback: each client one playback, its sequence rising. */
function pingRow(load: Load, label: string) {
  const seqs = new Array<number>(load.clients).fill(0);
  const cpnPrefix = Date.now().toString(36).slice(-8).padStart(8, '0') + (label === 'off' ? 'f' : 'c');
  return drive(load, `GET /api/stats/watchtime (rate limits ${label})`, (client) => {
    const seq = ++seqs[client];
    const cpn = `${cpnPrefix}${String(client).padStart(7, '0')}`;
    const query = `docid=VFsunrise01&ei=bench&cpn=${cpn}&seq=${seq}&cmt=${seq * 10}&rt=${seq * 10}&len=1000000&state=playing&st=${seq * 10 - 10}&et=${seq * 10}&final=0`;
    return [`/api/stats/watchtime?${query}`, {}];
  });
}

async function benchDb(db: Db, dbEnv: Record<string, string>, shape: Omit<Load, 'server'>, eventsPerRequest: number): Promise<DbFigures> {
  const start = async (rateLimit: string) => {
    const data = tempDir(`vidframe-bench-state-${db}-`);
    const server = await startCurrentServer(
      {
        VIDFRAME_DATA_DIR: data.dir,
        VIDFRAME_ADMIN_TOKEN: CHAOS_ADMIN_TOKEN,
        VIDFRAME_STREAM_SECRET: CHAOS_STREAM_SECRET,
        VIDFRAME_ACCESS_TOKEN_SECRET: ACCESS_TOKEN_SECRET,
        VIDFRAME_RATE_LIMIT: rateLimit,
        ...dbEnv,
      },
      120_000,
    );
    return { load: { ...shape, server }, stop: () => server.stop().finally(() => data.remove()) };
  };
  const tokens = Array.from({ length: STREAM_TOKEN_POOL }, () => chaosTokens.issue().token);
  const figures: DbFigures = { db, calls: [] };
  const counting = await start(COUNTING_RATE_LIMIT);
  try {
    const { session, accessToken } = await signIn(counting.load.server.origin);
    const tokenBody = JSON.stringify({ session });
    figures.calls.push(await drive(counting.load, 'POST /accounts/token (session)', () => ['/accounts/token', {}, tokenBody]));
    const bearer = { authorization: `Bearer ${accessToken}`, 'x-youtube-bootstrap-logged-in': 'true' };
    const playerBody = () =>
      JSON.stringify({ context: { client: { clientName: 'WEB_EMBEDDED_PLAYER' } }, session_token: antiForgeryToken(), videoId: 'VFsunrise01' });
    const bodies = Array.from({ length: shape.clients }, playerBody);
    figures.calls.push(await drive(counting.load, 'POST /youtubei/v1/player (signed in)', (c) => ['/youtubei/v1/player', bearer, bodies[c]]));
    figures.calls.push(await logRow(counting.load, 'counting', eventsPerRequest, tokens));
    figures.calls.push(await pingRow(counting.load, 'counting'));
    figures.rssMiB = rssMiB(counting.load.server.pid);
  } finally {
    await counting.stop();
  }
  const off = await start('off');
  try {
    figures.calls.push(await logRow(off.load, 'off', eventsPerRequest, tokens));
    figures.calls.push(await pingRow(off.load, 'off'));
    figures.rssOffMiB = rssMiB(off.load.server.pid);
  } finally {
    await off.stop();
  }
  return figures;
}

/** Median milliseconds of one password hash with the server's scrypt costs: the CPU a sign-in spends besides its writes. */
async function scryptMs(rounds = 9): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await hashPassword('bench-password');
    times.push(performance.now() - t0);
  }
  return percentile(times, 0.5);
}

export async function runStateBench(print: (line: string) => void = console.log) {
  const clients = env('BENCH_STATE_CLIENTS', 16);
  const seconds = env('BENCH_STATE_SECONDS', 15);
  const eventsPerRequest = env('BENCH_STATE_EVENTS_PER_REQUEST', 10);
  const dbs = (process.env.BENCH_STATE_DBS ?? 'sqlite,postgres').split(',').map((d) => d.trim()) as Db[];
  const loadAtStart = loadAverage();
  const results: DbFigures[] = [];
  for (const db of dbs) {
    if (db === 'sqlite') results.push(await benchDb(db, {}, { clients, seconds }, eventsPerRequest));
    else if (db === 'postgres') {
      const pg = await startPostgres({ durable: true });
      try {
        const url = await pg.createDatabase('vidframe_bench_state');
        results.push(await benchDb(db, { VIDFRAME_DB: url }, { clients, seconds, postgresPort: pg.port }, eventsPerRequest));
      } finally {
        await pg.close();
      }
    } else throw new Error(`BENCH_STATE_DBS: unknown database "${db}" (sqlite, postgres)`);
  }
  const scrypt = await scryptMs();
  const result = {
    revision: serverRevision(),
    cpus: cpus().length,
    loadAtStart,
    loadAtEnd: loadAverage(),
    clients,
    seconds,
    eventsPerRequest,
    results,
    scryptMs: scrypt,
  };

  print('');
  print(`State calls: one server process per state database, ${clients} keep-alive clients, ${seconds} s per call; ${result.revision}`);
  print(
    `  (client, server and PostgreSQL share this machine's ${result.cpus} cores; load average ${loadAtStart} at the start, ${result.loadAtEnd} at the end)`,
  );
  print(
    `  ${'database'.padEnd(9)} ${'call'.padEnd(48)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'server CPU'.padStart(10)} ${'req/CPU-s'.padStart(9)} ${'PostgreSQL CPU'.padStart(14)}  not 2xx`,
  );
  for (const r of results) {
    for (const c of r.calls) {
      const fails = Object.entries(c.failures).map(([status, n]) => `${n} × ${status}`);
      const cpu = c.serverCpuPercent === undefined ? '?' : `${Math.round(c.serverCpuPercent)}%`;
      const pgCpu = c.postgresCpuPercent === undefined ? '–' : `${Math.round(c.postgresCpuPercent)}%`;
      print(
        `  ${r.db.padEnd(9)} ${c.call.padEnd(48)} ${int(c.requestsPerSec).padStart(7)} ${c.p50Ms.toFixed(1).padStart(7)} ${c.p99Ms.toFixed(1).padStart(7)} ${cpu.padStart(10)} ${(c.requestsPerCpuSecond ? int(c.requestsPerCpuSecond) : '?').padStart(9)} ${pgCpu.padStart(14)}  ${fails.join(', ') || 'none'}`,
      );
    }
    print(
      `  ${r.db.padEnd(9)} server RSS at the end: ${r.rssMiB?.toFixed(0) ?? '?'} MiB (the limits-off server after its log row: ${r.rssOffMiB?.toFixed(0) ?? '?'} MiB)`,
    );
  }
  print(`  one password hash (scrypt N=${SCRYPT_N}, r=${SCRYPT_R}, p=${SCRYPT_P}, what every sign-in spends): ${scrypt.toFixed(0)} ms median`);
  return result;
}
