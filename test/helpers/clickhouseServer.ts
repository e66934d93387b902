import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './freePort';

/**
 * Starts Debian's `clickhouse-server` (18.16, package `clickhouse-server`) for a test file: a child process on
 * 127.0.0.1 only, with a config of its own in a temporary folder (data, tmp, user files, format schemas and logs all
 * inside it; free ports for HTTP, native TCP and interserver; a `default` user without password reachable from
 * loopback only; small caches and a small background pool, since tests run beside others). It answers `GET /ping`
 * within a fraction of a second of starting. 18.16 runs as root without complaint (no `--` arguments or user switch
 * needed). `close()` stops it (SIGTERM, SIGKILL after 10 s) and removes the folder.
 */
export interface ClickHouseServer {
  /** `clickhouse://127.0.0.1:{httpPort}` — append `/{database}` for a store. */
  url: string;
  httpPort: number;
  close(): Promise<void>;
}

const INSTALL_HINT = "install it with `apt-get install -y clickhouse-server` (Debian's package; .ci/run does this)";

/** The server binary and the arguments before `--config-file`: Debian's `clickhouse-server`, or upstream's `clickhouse server`. */
function findBinary(): { command: string; args: string[] } {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/bin', '/usr/local/bin', '/usr/local/sbin'];
  const find = (name: string) =>
    dirs
      .filter(Boolean)
      .map((dir) => join(dir, name))
      .find((path) => {
        try {
          accessSync(path, constants.X_OK);
          return true;
        } catch {
          return false;
        }
      });
  const server = find('clickhouse-server');
  if (server) return { command: server, args: [] };
  const multi = find('clickhouse');
  if (multi) return { command: multi, args: ['server'] };
  throw new Error(`clickhouse-server is not installed (looked in ${[...new Set(dirs.filter(Boolean))].join(', ')}): ${INSTALL_HINT}`);
}

function configXml(dir: string, ports: { http: number; tcp: number; interserver: number }): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger>
    <level>information</level>
    <log>${dir}/log/clickhouse-server.log</log>
    <errorlog>${dir}/log/clickhouse-server.err.log</errorlog>
    <size>10M</size>
    <count>1</count>
    <console>0</console>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${ports.http}</http_port>
  <tcp_port>${ports.tcp}</tcp_port>
  <interserver_http_port>${ports.interserver}</interserver_http_port>
  <interserver_http_host>127.0.0.1</interserver_http_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>16777216</mark_cache_size>
  <uncompressed_cache_size>16777216</uncompressed_cache_size>
  <max_concurrent_queries>64</max_concurrent_queries>
  <max_connections>256</max_connections>
  <keep_alive_timeout>3</keep_alive_timeout>
  <mlock_executable>false</mlock_executable>
</yandex>
`;
}

const USERS_XML = `<?xml version="1.0"?>
<yandex>
  <profiles>
    <default>
      <max_memory_usage>1000000000</max_memory_usage>
      <background_pool_size>4</background_pool_size>
      <background_schedule_pool_size>4</background_schedule_pool_size>
      <max_threads>2</max_threads>
    </default>
  </profiles>
  <users>
    <default>
      <password></password>
      <networks>
        <ip>127.0.0.1</ip>
        <ip>::1</ip>
      </networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas>
    <default>
      <interval>
        <duration>3600</duration>
        <queries>0</queries>
        <errors>0</errors>
        <result_rows>0</result_rows>
        <read_rows>0</read_rows>
        <execution_time>0</execution_time>
      </interval>
    </default>
  </quotas>
</yandex>
`;

/**
 * Servers still running when the test process exits (a file that forgot `close()`, a run cut short) are killed with
 * it, and their folders removed.
 */
const running = new Map<ChildProcess, string>();
let exitHookInstalled = false;
function killOnExit(child: ChildProcess, dir: string): void {
  running.set(child, dir);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [c, folder] of running) {
      c.kill('SIGKILL');
      try {
        rmSync(folder, { recursive: true, force: true });
      } catch {
        /* the server may still hold files open: nothing more can be done synchronously */
      }
    }
  });
}

const tail = (path: string, chars = 2000): string => {
  try {
    const text = readFileSync(path, 'utf8');
    return text.slice(-chars);
  } catch {
    return '';
  }
};

async function startOnce(binary: { command: string; args: string[] }): Promise<ClickHouseServer> {
  const dir = mkdtempSync(join(tmpdir(), 'vidframe-clickhouse-'));
  for (const sub of ['data', 'tmp', 'user_files', 'format_schemas', 'log']) mkdirSync(join(dir, sub));
  const ports = { http: await freePort(), tcp: await freePort(), interserver: await freePort() };
  writeFileSync(join(dir, 'config.xml'), configXml(dir, ports));
  writeFileSync(join(dir, 'users.xml'), USERS_XML);

  const child = spawn(binary.command, [...binary.args, `--config-file=${join(dir, 'config.xml')}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TZ: 'UTC' },
  });
  killOnExit(child, dir);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      running.delete(child);
      resolve();
    });
    child.once('error', (error) => {
      output += `\n${error.message}`;
      exited = { code: null, signal: null };
      running.delete(child);
      resolve();
    });
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exit;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    })();
    return closing;
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) {
      const log = `${output}\n${tail(join(dir, 'log', 'clickhouse-server.err.log'))}`;
      await close();
      throw new Error(`clickhouse-server exited before answering (code ${exited.code}, signal ${exited.signal}):\n${log.trim()}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${ports.http}/ping`, { signal: AbortSignal.timeout(1000) });
      if (response.ok && (await response.text()) === 'Ok.\n') break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      const log = tail(join(dir, 'log', 'clickhouse-server.err.log'));
      await close();
      throw new Error(`clickhouse-server did not answer /ping on 127.0.0.1:${ports.http} within 30 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `clickhouse://127.0.0.1:${ports.http}`, httpPort: ports.http, close };
}

/**
 * Starts a private clickhouse-server. The free ports are picked just before the server binds them, so another
 * process may take one in between: a start that fails because an address is in use is tried again (3 times).
 */
export async function startClickHouse(): Promise<ClickHouseServer> {
  const binary = findBinary();
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(binary);
    } catch (error) {
      lastError = error;
      if (!/address already in use|Net Exception: Address/i.test((error as Error).message)) throw error;
    }
  }
  throw lastError;
}
