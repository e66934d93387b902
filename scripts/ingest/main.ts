/**
 * `npm run ingest -- <file> [options]`: the thin runner around {@link ingest}. It reads the command line, shows the
 * progress (a bar redrawn in place on a terminal, one line per step otherwise, both on stderr), turns Ctrl-C into a
 * clean stop, and exits with the code of what happened (`--help` lists them). The result goes to stdout.
 */
import { EXIT, IngestError } from './ingestErrors';
import { INGEST_USAGE, parseIngestArgs } from './ingestArgs';
import { ingest } from './ingest';
import type { Reporter } from './encodeVersion';
import { formatBar, overallFraction, stepLine, type Step } from './progress';
import { toolsFrom } from './runTool';

/** The bar is redrawn at most this often. */
const BAR_REDRAW_MS = 200;

/** A terminal's bar: one line, redrawn in place. */
function barReporter(out: NodeJS.WriteStream): Reporter & { end(): void } {
  const started = Date.now();
  let steps: readonly Step[] = [];
  let current = 0;
  let lastDraw = 0;
  const draw = (fraction: number, force: boolean) => {
    const now = Date.now();
    if (!force && now - lastDraw < BAR_REDRAW_MS) return;
    lastDraw = now;
    const state = {
      fraction: overallFraction(steps, current, fraction),
      label: steps[current]?.label ?? '',
      step: current + 1,
      steps: steps.length,
      elapsedMs: now - started,
    };
    out.write(`\r${formatBar(state, out.columns || 80)}\x1b[K`);
  };
  return {
    step(index, all) {
      steps = all;
      current = index;
      draw(0, true);
    },
    progress(index, fraction) {
      current = index;
      draw(fraction, fraction >= 1);
    },
    end: () => out.write('\r\x1b[K'),
  };
}

/** Anything but a terminal: one line as each step starts. */
function lineReporter(out: NodeJS.WritableStream): Reporter & { end(): void } {
  return {
    step: (index, steps) => void out.write(`${stepLine(index + 1, steps.length, steps[index]?.label ?? '')}\n`),
    progress: () => undefined,
    end: () => undefined,
  };
}

async function main(): Promise<number> {
  const parsed = parseIngestArgs(process.argv.slice(2), process.env, Boolean(process.stderr.isTTY));
  if (parsed.kind === 'help') {
    process.stdout.write(INGEST_USAGE);
    return EXIT.OK;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`ingest: ${parsed.message} (npm run ingest -- --help)\n`);
    return EXIT.BAD_ARGUMENTS;
  }
  const { options } = parsed;
  const reporter = options.progress === 'bar' ? barReporter(process.stderr) : lineReporter(process.stderr);
  const abort = new AbortController();
  const stop = (signal: string) => abort.abort(new IngestError(EXIT.INTERRUPTED, `interrupted by ${signal}: nothing was written`));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  try {
    const result = await ingest(options, { tools: toolsFrom(process.env), reporter, signal: abort.signal });
    reporter.end();
    const { entry } = result;
    const what = result.entryWritten
      ? `${result.encoded ? 'ingested' : 'entry rewritten'}: ${entry.adaptive.formats.length} formats, ${entry.durationSeconds} s`
      : 'already ingested with these settings: nothing changed';
    process.stdout.write(`ingest: ${result.id} (version ${result.version}) ${what}\n  entry: ${result.entryFile}\n`);
    return EXIT.OK;
  } catch (e) {
    reporter.end();
    const error = abort.signal.aborted ? (abort.signal.reason as IngestError) : e;
    if (error instanceof IngestError) {
      process.stderr.write(`ingest: ${error.message}\n`);
      return error.code;
    }
    process.stderr.write(`ingest: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.ENCODE_FAILED;
  }
}

void main().then((code) => process.exit(code));
