/**
 * Runs ffmpeg or ffprobe: every run has a time limit, stops when the ingest is aborted (Ctrl-C), hands its stdout to
 * the caller line by line (ffmpeg's `-progress` lines), and keeps the end of its stderr for the error message.
 */
import { spawn } from 'node:child_process';
import { EXIT, IngestError } from './ingestErrors';

/** The binaries: `FFMPEG` / `FFPROBE` from the environment, else the ones on the PATH. */
export interface Tools {
  ffmpeg: string;
  ffprobe: string;
}

export const toolsFrom = (env: Readonly<Record<string, string | undefined>>): Tools => ({ ffmpeg: env.FFMPEG || 'ffmpeg', ffprobe: env.FFPROBE || 'ffprobe' });

/** A finished run: its exit code, all of its stdout, the end of its stderr, and whether its time ran out. */
export interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface RunOptions {
  timeoutMs: number;
  /** Stops the run (the child is killed) and makes it reject with the abort's reason. */
  signal?: AbortSignal;
  /** Called with each complete line of stdout. */
  onLine?: (line: string) => void;
}

/** The most of stderr kept: the end, where ffmpeg says what went wrong. */
const STDERR_KEEP_CHARS = 4_000;
/** How long `-version` may take to answer. */
export const VERSION_CHECK_TIMEOUT_MS = 10_000;

const missing = (bin: string) =>
  new IngestError(EXIT.TOOLS_MISSING, `${bin} is not installed (or not runnable): install ffmpeg, which brings ffprobe (Debian: apt-get install ffmpeg)`);

/** Runs `bin args…`; resolves when it ends (whatever its exit code), rejects when it cannot start or is aborted. */
export function runTool(bin: string, args: readonly string[], { timeoutMs, signal, onLine }: RunOptions): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let pending = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!onLine) return;
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP_CHARS);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      done();
      reject(e.code === 'ENOENT' || e.code === 'EACCES' ? missing(bin) : e);
    });
    child.on('close', (code) => {
      done();
      if (signal?.aborted) reject(signal.reason);
      else resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** Fails with exit code 3 unless both tools answer `-version`. */
export async function checkTools(tools: Tools, signal?: AbortSignal): Promise<void> {
  for (const bin of [tools.ffprobe, tools.ffmpeg]) {
    const result = await runTool(bin, ['-version'], { timeoutMs: VERSION_CHECK_TIMEOUT_MS, signal });
    if (result.code !== 0) throw missing(bin);
  }
}

/** The last lines of a failed run's stderr, for an error message. */
export const lastLines = (text: string, count = 3): string =>
  text
    .trim()
    .split('\n')
    .slice(-count)
    .map((l) => l.trim())
    .join(' | ');
