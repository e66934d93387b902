import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The reference server as its users run it: `server/main.ts` in a process of its own. */
export interface ServerProcess {
  /** e.g. `http://127.0.0.1:41234` */
  origin: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGKILL: no graceful stop, no flush, as a crash or an OOM kill would. */
  kill9(): Promise<void>;
  /** SIGTERM: the graceful stop; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** The project folder: this file's grandparent under Jest (CommonJS); the working folder under tsx (ESM, `npm run bench`). */
const ROOT = typeof __dirname === 'string' ? resolve(__dirname, '..', '..') : process.cwd();

/** The server did not start: it exited first (`exitCode`), or did not listen in time; `output` is what it printed. */
export class ServerStartError extends Error {
  constructor(
    readonly reason: 'exited' | 'timeout',
    readonly output: string,
    readonly exitCode: number | string | null,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Starts `node --import tsx server/main.ts` (of this checkout, or of the one in `cwd`) on a free loopback port with
 * `env` added, and resolves once it prints that it is running; rejects with a {@link ServerStartError} when it exits
 * first or takes longer than `timeoutMs`.
 */
export function startServerProcess(env: Record<string, string>, { timeoutMs = 60_000, cwd = ROOT } = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd,
    // No access log unless asked (`LOG: '1'`): a load test's lines would fill this process's memory.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  return new Promise<ServerProcess>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new ServerStartError('timeout', output, null, `the server did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = () => {
      const match = /VidFrame is running: (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolvePromise({
        origin: match[1],
        child,
        output: () => output,
        kill9: async () => {
          child.kill('SIGKILL');
          await exited;
        },
        stop: async () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new ServerStartError('exited', output, code ?? child.signalCode, `the server exited (${code}) before it started:\n${output}`));
    });
  });
}
