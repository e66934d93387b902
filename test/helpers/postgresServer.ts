import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { accessSync, chownSync, constants, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './freePort';

/**
 * Starts Debian's PostgreSQL (package `postgresql`, any major version) for a test file: a cluster of its own made by
 * `initdb` in a temporary folder (trust authentication, UTF-8, the C locale), started by `pg_ctl` on 127.0.0.1 and a
 * free port, its Unix socket inside the folder, with small memory settings since tests run beside others, and without
 * fsync unless asked (`durable: true`): its files are thrown away with the folder, and a test that must survive a
 * crash of PostgreSQL itself asks for it. PostgreSQL
 * refuses to run as root: under root, the folder is handed to the `postgres` user (which Debian's package creates) and
 * the binaries run as that user. `close()` stops the cluster (`pg_ctl stop -m fast`) and removes the folder; one left
 * running when the test process exits is stopped then (`-m immediate`).
 */
export interface PostgresServer {
  port: number;
  /** `postgres://postgres@127.0.0.1:{port}/{database}`, for `VIDFRAME_DB` or `openStateDatabase`. */
  urlOf(database: string): string;
  /**
   * Creates an empty database (owned by `postgres`) and returns its URL; with `locale` (`C.UTF-8`), collated and
   * case-folded by that locale rather than the cluster's `C`, as deployed databases usually are.
   */
  createDatabase(database: string, options?: { locale?: string }): Promise<string>;
  /** Drops a database, ending the connections still open to it. */
  dropDatabase(database: string): Promise<void>;
  /** Stops the cluster as a crash would (`pg_ctl stop -m immediate`): every connection drops, nothing is flushed. */
  crash(): Promise<void>;
  /** Starts the stopped cluster again, on the same folder and port; resolves once it accepts connections. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const INSTALL_HINT = "install it with `apt-get install -y postgresql` (Debian's package; .ci/run does this)";

const isExecutable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The folder of `initdb`, `pg_ctl` and `postgres`: `pg_config --bindir`, else the newest `/usr/lib/postgresql/<n>/bin`. */
export function findPostgresBinaries(): string {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (isExecutable(join(dir, 'initdb')) && isExecutable(join(dir, 'pg_ctl'))) return dir;
  } catch {
    /* no pg_config (or only the client's): look in Debian's folders */
  }
  const root = '/usr/lib/postgresql';
  let versions: string[] = [];
  try {
    versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  } catch {
    /* not installed */
  }
  const dir = versions.map((v) => join(root, v, 'bin')).find((d) => isExecutable(join(d, 'initdb')) && isExecutable(join(d, 'pg_ctl')));
  if (!dir)
    throw new Error(`PostgreSQL's server binaries (initdb, pg_ctl) are not installed (no pg_config --bindir, nothing in ${root}/*/bin): ${INSTALL_HINT}`);
  return dir;
}

/** Who runs the cluster: the current user, or `postgres` when that is root. */
function clusterUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const fields = line?.split(':');
  if (!fields || fields.length < 4)
    throw new Error(`Running as root, PostgreSQL needs a non-root user to run as, and there is no "postgres" user: ${INSTALL_HINT}`);
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

const running = new Map<string, () => void>();
let exitHookInstalled = false;
/** Clusters still running when the test process exits are stopped with it and their folders removed. */
function stopOnExit(dir: string, stop: () => void): void {
  running.set(dir, stop);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [folder, stopNow] of running) {
      stopNow();
      rmSync(folder, { recursive: true, force: true });
    }
  });
}

const tail = (path: string, chars = 2000): string => {
  try {
    return readFileSync(path, 'utf8').slice(-chars);
  } catch {
    return '';
  }
};

async function startOnce(bin: string, user: { uid: number; gid: number } | undefined, durable: boolean): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'vidframe-postgres-'));
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  mkdirSync(data);
  if (user) for (const path of [dir, data]) chownSync(path, user.uid, user.gid);
  const run = (command: string, args: string[], timeoutMs = 60_000) =>
    spawnSync(join(bin, command), args, { cwd: dir, encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' }, ...user });
  const failed = (what: string, result: ReturnType<typeof run>) =>
    new Error(`${what} failed (code ${result.status}, signal ${result.signal}):\n${`${result.stdout}\n${result.stderr}\n${tail(log)}`.trim()}`);

  const init = run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw failed('initdb', init);
  }
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c shared_buffers=16MB',
    '-c max_connections=60',
    '-c max_wal_size=64MB',
    '-c log_min_messages=warning',
    ...(durable ? [] : ['-c fsync=off', '-c full_page_writes=off']),
  ].join(' ');
  const stopNow = () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'], 20_000);
  stopOnExit(dir, stopNow);
  const start = run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', options, 'start'], 70_000);
  if (start.status !== 0) {
    stopNow();
    running.delete(dir);
    const error = failed('pg_ctl start', start);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: urlOf('postgres') });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const quoted = (name: string) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
    return `"${name}"`;
  };

  /** `pg_ctl` without blocking this process's event loop, for what happens while other work goes on. */
  const pgCtl = (args: string[]) =>
    new Promise<void>((resolve, reject) =>
      execFile(
        join(bin, 'pg_ctl'),
        ['-D', data, ...args],
        { cwd: dir, timeout: 70_000, env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' }, ...user },
        (error, stdout, stderr) =>
          error ? reject(new Error(`pg_ctl ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}\n${tail(log)}`)) : resolve(),
      ),
    );

  let closing: Promise<void> | undefined;
  return {
    port,
    urlOf,
    async createDatabase(database, { locale } = {}) {
      if (locale !== undefined && !/^[A-Za-z0-9_.@-]+$/.test(locale)) throw new Error(`not a locale name: ${locale}`);
      const collation = locale === undefined ? '' : ` TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE '${locale}' LC_CTYPE '${locale}'`;
      await admin((client) => client.query(`CREATE DATABASE ${quoted(database)}${collation}`));
      return urlOf(database);
    },
    async dropDatabase(database) {
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${quoted(database)} WITH (FORCE)`));
    },
    crash: () => pgCtl(['-m', 'immediate', '-w', 'stop']),
    restart: () => pgCtl(['-l', log, '-w', '-t', '60', '-o', options, 'start']),
    close() {
      closing ??= (async () => {
        const stop = run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'], 30_000);
        if (stop.status !== 0) stopNow();
        running.delete(dir);
        rmSync(dir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/**
 * Starts a private PostgreSQL cluster. The free port is picked just before the server binds it, so another process
 * may take it in between: a start that fails because the address is in use is tried again (3 times).
 */
export async function startPostgres({ durable = false }: { durable?: boolean } = {}): Promise<PostgresServer> {
  const bin = findPostgresBinaries();
  const user = clusterUser();
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(bin, user, durable);
    } catch (error) {
      lastError = error;
      if (!/address already in use|could not bind/i.test((error as Error).message)) throw error;
    }
  }
  throw lastError;
}
