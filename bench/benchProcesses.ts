import { type ChildProcess, execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ServerStartError, startServerProcess } from '../test/helpers/serverProcess';

/**
 * Processes for the collector benchmark (`bench/collectorIngest.ts`): the server under test (today's, through
 * `test/helpers/serverProcess.ts`, or the baseline's from a temporary git worktree), what /proc says about them, and
 * the clean-up that also runs when the benchmark fails or is interrupted.
 */

export const ROOT = resolve(import.meta.dirname, '..');

/** A server process under test. */
export interface BenchServer {
  origin: string;
  pid: number;
  /** performance.now() just before the spawn. */
  spawnedAt: number;
  /** Milliseconds from the spawn to the "VidFrame is running" line (listening). */
  listenMs: number;
  output(): string;
  /** SIGTERM (the graceful stop), SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** A server that exited, or took too long, before it listened. */
export class StartFailure extends Error {
  constructor(
    message: string,
    readonly afterMs: number,
    readonly output: string,
  ) {
    super(message);
  }
}

// ── Clean-up of everything this benchmark starts ───────────────────────────────────────────────────────────────
const children = new Set<ChildProcess>();
const cleanups = new Set<() => void>();

/** Registers a synchronous clean-up that also runs on exit and on SIGINT/SIGTERM; returns its remover. */
export function onCleanup(fn: () => void): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

function cleanUpNow(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  for (const fn of [...cleanups].reverse()) {
    try {
      fn();
    } catch {
      /* best effort */
    }
  }
  cleanups.clear();
}
process.once('exit', cleanUpNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    cleanUpNow();
    process.exit(130);
  });
}

function track(child: ChildProcess): Promise<void> {
  children.add(child);
  return new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      children.delete(child);
      done();
      return;
    }
    child.once('exit', () => {
      children.delete(child);
      done();
    });
  });
}

function stopper(child: ChildProcess, exited: Promise<void>) {
  return async (graceMs = 30_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
}

/** The first line of a crash worth quoting (the error code or message), else the last line printed. */
export function crashLine(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  let line = lines.find((l) => /ERR_[A-Z_]+|^\w*Error\b|could not start|FATAL|heap out of memory/.test(l)) ?? lines.at(-1) ?? '(no output)';
  if (line.length > 160) line = `${line.slice(0, 157)}…`;
  const code = /\b(ERR_[A-Z_]+)\b/.exec(output)?.[1];
  return code && !line.includes(code) ? `${line} (${code})` : line;
}

// ── Servers: test/helpers/serverProcess.ts, today's checkout or the baseline's worktree ──────────────────────────
/** `server/main.ts` of the checkout in `cwd` (today's by default), as a process of its own on a free loopback port. */
async function startWith(env: Record<string, string>, timeoutMs: number, cwd?: string): Promise<BenchServer> {
  const spawnedAt = performance.now();
  let server;
  try {
    server = await startServerProcess(env, { timeoutMs, ...(cwd ? { cwd } : {}) });
  } catch (error) {
    if (!(error instanceof ServerStartError)) throw error;
    const reason = error.reason === 'timeout' ? `did not listen within ${timeoutMs / 1000} s` : `exited (code ${error.exitCode}) before it listened`;
    throw new StartFailure(`${reason}: ${crashLine(error.output)}`, performance.now() - spawnedAt, error.output);
  }
  const listenMs = performance.now() - spawnedAt;
  const exited = track(server.child);
  return { origin: server.origin, pid: server.child.pid!, spawnedAt, listenMs, output: server.output, stop: stopper(server.child, exited) };
}

/** Today's `server/main.ts`. */
export const startCurrentServer = (env: Record<string, string>, timeoutMs: number) => startWith(env, timeoutMs);

/** The `server/main.ts` of another checkout (the baseline's worktree). */
export const startServerIn = (cwd: string, env: Record<string, string>, timeoutMs: number) => startWith(env, timeoutMs, cwd);

/**
 * A detached worktree of `commit` in a temporary folder, with the repository's node_modules linked in; `remove()`
 * unlinks them and removes the worktree (also run on exit). Throws with the reason when git or the commit is missing.
 */
export function addWorktree(commit: string): { dir: string; remove(): void } {
  execFileSync('git', ['-C', ROOT, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'pipe' });
  const base = mkdtempSync(join(tmpdir(), 'vidframe-bench-baseline-'));
  const dir = join(base, 'worktree');
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try {
      unlinkSync(join(dir, 'node_modules')); // the link only: git must never walk into the real node_modules
    } catch {
      /* not linked yet */
    }
    try {
      execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', dir], { stdio: 'pipe' });
    } finally {
      rmSync(base, { recursive: true, force: true });
      try {
        execFileSync('git', ['-C', ROOT, 'worktree', 'prune'], { stdio: 'pipe' });
      } catch {
        /* nothing to prune */
      }
    }
  };
  const unregister = onCleanup(remove);
  try {
    execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', dir, commit], { stdio: 'pipe' });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  } catch (error) {
    remove();
    unregister();
    throw error;
  }
  return {
    dir,
    remove() {
      unregister();
      remove();
    },
  };
}

/** A temporary folder, removed by `remove()` or on exit. */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const unregister = onCleanup(remove);
  return {
    dir,
    remove() {
      unregister();
      remove();
    },
  };
}

// ── What /proc says ─────────────────────────────────────────────────────────────────────────────────────────────
/** Resident set size of a process in MiB (VmRSS), or undefined when it is gone. */
export function rssMiB(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds a process has used (clock ticks of 1/100 s, Linux's USER_HZ). */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** The clickhouse-server whose config listens on this HTTP port (the helper does not expose its process). */
export function findClickHousePid(httpPort: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!args.some((a) => a.includes('clickhouse'))) continue;
      const config = args.find((a) => a.startsWith('--config-file='))?.slice('--config-file='.length);
      if (config && readFileSync(config, 'utf8').includes(`<http_port>${httpPort}</http_port>`)) return Number(entry);
    } catch {
      /* gone, or not ours to read */
    }
  }
  return undefined;
}

/** Bytes of the files under `dir` (symbolic links not followed). */
export function dirBytes(dir: string): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of entries) {
    const path = join(dir, name);
    try {
      const stat = lstatSync(path);
      if (stat.isDirectory()) total += dirBytes(path);
      else if (stat.isFile()) total += stat.size;
    } catch {
      /* removed meanwhile */
    }
  }
  return total;
}
