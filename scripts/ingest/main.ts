/**
 * `npm run ingest -- <file> [options]`: the thin runner around {@link ingest}. It reads the command line, shows the
 * progress (a bar redrawn in place on a terminal, one line per step otherwise, both on stderr), turns Ctrl-C into a
 * clean stop, and exits with the code of what happened (`--help` lists them). The result goes to stdout.
 */
import { resolve } from 'node:path';
import { EXIT, IngestError } from './ingestErrors';
import { INGEST_USAGE, parseIngestArgs } from './ingestArgs';
import { ingest } from './ingest';
import { barReporter, lineReporter } from './reporters';
import { toolsFrom } from './runTool';

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
  // npm runs the script in the package's folder; paths typed on the command line are relative to where it was typed.
  const typedIn = process.env.INIT_CWD || process.cwd();
  const options = { ...parsed.options, file: resolve(typedIn, parsed.options.file) };
  if (process.argv.some((a) => a === '--library' || a.startsWith('--library='))) options.library = resolve(typedIn, options.library);
  const reporter = options.progress === 'bar' ? barReporter(process.stderr) : lineReporter(process.stderr);
  const abort = new AbortController();
  // The first signal stops the run and lets it clean up; a second one leaves at once.
  const stop = (signal: string) =>
    abort.signal.aborted ? process.exit(EXIT.INTERRUPTED) : abort.abort(new IngestError(EXIT.INTERRUPTED, `interrupted by ${signal}: nothing was written`));
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
