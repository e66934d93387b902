/**
 * What the collector benchmark (`bench/collectorIngest.ts`) puts under load: one {@link Target} per store — today's
 * server on SQLite or on ClickHouse, and the JSONL baseline from a worktree of {@link BASELINE_COMMIT} — with how to
 * start it and what to ask it afterwards.
 */
import type { ClickHouseServer } from '../test/helpers/clickhouseServer';
import { adminJson, CHAOS_ADMIN_TOKEN, CHAOS_STREAM_SECRET, chaosTokens } from '../test/server/chaos/chaosClient';
import { type BenchServer, dirBytes, findClickHousePid, startCurrentServer, startServerIn } from './benchProcesses';

/** The collector before its stores: a JSONL file, everything in memory. */
export const BASELINE_COMMIT = '2f88168';

export type StoreKey = 'jsonl' | 'sqlite' | 'clickhouse';

/** The benchmark's settings (environment variables, read by `readConfig`). */
export interface Config {
  events: number;
  clients: number;
  eventsPerRequest: number;
  stores: StoreKey[];
  maxMs: number;
  starts: number;
  startupTimeoutMs: number;
}

/** One store under test: how to start its server, and what to ask it. */
export interface Target {
  key: StoreKey;
  label: string;
  readyPath: string;
  /** `variant` names the store within the target (ClickHouse: the database); the data folder holds the rest. */
  start(dataDir: string, variant: 'filled' | 'empty', timeoutMs: number): Promise<BenchServer>;
  tokens(count: number): string[];
  storedEvents(origin: string): Promise<number>;
  /** Bytes of the store on disk, and a note (e.g. ClickHouse's active parts). */
  disk(dataDir: string): Promise<{ bytes?: number; note?: string }>;
  /** Server-side timings of the log route and the store write, from the server's own metrics (today's server only). */
  serverTimings?(origin: string): Promise<string>;
  sidePid?: number;
  sideLabel?: string;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');

const currentEnv = (dataDir: string, store: string): Record<string, string> => ({
  VIDFRAME_DATA_DIR: dataDir,
  VIDFRAME_STORE: store,
  VIDFRAME_ADMIN_TOKEN: CHAOS_ADMIN_TOKEN,
  VIDFRAME_STREAM_SECRET: CHAOS_STREAM_SECRET,
  VIDFRAME_RATE_LIMIT: 'off',
});
const streamTokens = (count: number) => Array.from({ length: count }, () => chaosTokens.issue().token);
const currentStored = async (origin: string) => (await adminJson<{ events: number }>(origin, '/collector/api/stats')).events;

/** Mean of a Prometheus histogram series (`_sum / _count`) whose labels include `labels`, from the text format. */
function histogramMean(metrics: string, name: string, labels: string): { meanMs: number; count: number } | undefined {
  const value = (suffix: string) => {
    const line = metrics.split('\n').find((l) => l.startsWith(`${name}_${suffix}{`) && l.includes(labels));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const sum = value('sum');
  const count = value('count');
  return sum === undefined || !count ? undefined : { meanMs: (sum / count) * 1000, count };
}

/** From `/metrics`: the log route's mean time from request to reply, and the store write's mean until durable. */
async function currentServerTimings(origin: string): Promise<string> {
  const response = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${CHAOS_ADMIN_TOKEN}` } });
  if (!response.ok) return `metrics unavailable (${response.status})`;
  const text = await response.text();
  const route = histogramMean(text, 'vidframe_http_request_duration_seconds', 'log_event');
  const write = histogramMean(text, 'vidframe_collector_store_duration_seconds', 'operation="recordLogRequest"');
  const fmt = (h: { meanMs: number; count: number } | undefined) => (h ? `${h.meanMs.toFixed(1)} ms mean (${int(h.count)})` : '–');
  return `log route (request → reply) ${fmt(route)}, store write until durable ${fmt(write)}`;
}

export function sqliteTarget(): Target {
  return {
    key: 'sqlite',
    label: 'SQLite (today, default store)',
    readyPath: '/readyz',
    start: (dataDir, _variant, timeoutMs) => startCurrentServer(currentEnv(dataDir, 'sqlite'), timeoutMs),
    tokens: streamTokens,
    storedEvents: currentStored,
    serverTimings: currentServerTimings,
    disk: async (dataDir) => ({ bytes: dirBytes(dataDir) }),
  };
}

async function clickHouseQuery(server: ClickHouseServer, query: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${server.httpPort}/?query=${encodeURIComponent(query)}`);
  const text = await response.text();
  if (!response.ok) throw new Error(text.trim().split('\n')[0]);
  return text.trim();
}

export function clickHouseTarget(server: ClickHouseServer): Target {
  const pid = findClickHousePid(server.httpPort);
  const db = (variant: 'filled' | 'empty') => `vidframe_bench_${variant}`;
  return {
    key: 'clickhouse',
    label: 'ClickHouse (today, clickhouse-server 18.16 on loopback)',
    readyPath: '/readyz',
    start: (dataDir, variant, timeoutMs) => startCurrentServer(currentEnv(dataDir, `${server.url}/${db(variant)}`), timeoutMs),
    tokens: streamTokens,
    storedEvents: currentStored,
    serverTimings: currentServerTimings,
    disk: async () => {
      try {
        const where = `database = '${db('filled')}' AND active`;
        const [bytes, parts] = (await clickHouseQuery(server, `SELECT sum(bytes_on_disk), count() FROM system.parts WHERE ${where}`)).split('\t').map(Number);
        const eventParts = await clickHouseQuery(server, `SELECT count() FROM system.parts WHERE ${where} AND table = 'events'`);
        return { bytes, note: `${parts} active parts, ${eventParts} of them in events` };
      } catch (error) {
        return { note: `size unknown (${(error as Error).message})` };
      }
    },
    sidePid: pid,
    sideLabel: pid ? 'clickhouse-server RSS' : undefined,
  };
}

export function baselineTarget(worktree: string): Target {
  return {
    key: 'jsonl',
    label: `JSONL baseline (commit ${BASELINE_COMMIT}, the collector before its stores)`,
    readyPath: '/healthz',
    start: (dataDir, _variant, timeoutMs) => startServerIn(worktree, { VIDFRAME_DATA_DIR: dataDir }, timeoutMs),
    // Its log route reads no token; each client sends one all the same, so the requests are the same bytes.
    tokens: streamTokens,
    storedEvents: async (origin) => {
      const response = await fetch(`${origin}/collector/stats`);
      if (!response.ok) throw new Error(`/collector/stats: ${response.status}`);
      return ((await response.json()) as { events: number }).events;
    },
    disk: async (dataDir) => ({ bytes: dirBytes(dataDir) }),
  };
}
