/**
 * The command line of `npm run ingest -- <file> [options]`, read into options or a clear refusal. Pure: the
 * environment comes in as a parameter.
 */
import { EXIT_CODE_HELP } from './ingestErrors';
import { MAX_SOURCE_BYTES, MAX_SOURCE_HEIGHT, MAX_SOURCE_SECONDS, MAX_SOURCE_WIDTH, type Preset } from './ladder';

export interface IngestOptions {
  /** The source file, as given. */
  file: string;
  /** The video id; absent: derived from the source's bytes. */
  id?: string;
  /** The title; absent: from the file name. */
  title?: string;
  /** A chapter list file (`chapterList.ts`); absent: no chapters. */
  chapters?: string;
  /** The author, whose channel the video belongs to. */
  channel: string;
  /** The library folder (`entries/`, `videos/`). */
  library: string;
  preset: Preset;
  /** Encoder threads: 0 lets ffmpeg choose, 1 makes encodes reproducible byte for byte. */
  threads: number;
  /** `bar` redraws one line in place (a terminal); `lines` prints one line per step. */
  progress: 'bar' | 'lines';
}

export type ParsedArgs = { kind: 'run'; options: IngestOptions } | { kind: 'help' } | { kind: 'error'; message: string };

/** The author of a video when `--channel` is not given. */
export const DEFAULT_CHANNEL = 'VidFrame Library';
/** The library folder when neither `--library` nor `VIDFRAME_LIBRARY_DIR` names one. */
export const DEFAULT_LIBRARY = '.data/library';
/** A title or an author is at most this long. */
export const MAX_TEXT_CHARS = 200;

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const VALUE_OPTIONS = ['--id', '--title', '--channel', '--library', '--threads', '--chapters'] as const;
type ValueOption = (typeof VALUE_OPTIONS)[number];

/** `text` without control characters and surrounding blanks, or an error message. */
function cleanText(name: string, text: string): string | { error: string } {
  const clean = text.trim();
  // eslint-disable-next-line no-control-regex
  if (clean === '' || clean.length > MAX_TEXT_CHARS || /[\u0000-\u001f\u007f]/.test(clean)) {
    return { error: `${name} must be 1 to ${MAX_TEXT_CHARS} characters of text, without control characters` };
  }
  return clean;
}

/**
 * Reads the arguments after `npm run ingest --`. `--name value` and `--name=value` both work; `--` ends the options
 * (a file name that starts with a dash). `isTty`: whether stderr is a terminal (the progress bar's default).
 */
export function parseIngestArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, isTty: boolean): ParsedArgs {
  const values: Partial<Record<ValueOption, string>> = {};
  const files: string[] = [];
  let preset: Preset = 'normal';
  let progress: IngestOptions['progress'] = isTty ? 'bar' : 'lines';
  let onlyFiles = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyFiles || !arg.startsWith('-') || arg === '-') {
      files.push(arg);
      continue;
    }
    if (arg === '--') onlyFiles = true;
    else if (arg === '--help' || arg === '-h') return { kind: 'help' };
    else if (arg === '--fast') preset = 'fast';
    else if (arg === '--plain') progress = 'lines';
    else {
      const eq = arg.indexOf('=');
      const name = (eq < 0 ? arg : arg.slice(0, eq)) as ValueOption;
      if (!VALUE_OPTIONS.includes(name)) return { kind: 'error', message: `unknown option ${arg}` };
      const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) return { kind: 'error', message: `${name} needs a value` };
      values[name] = value;
    }
  }
  if (files.length !== 1) return { kind: 'error', message: files.length === 0 ? 'no source file given' : `one source file at a time (got ${files.length})` };
  if (values['--id'] !== undefined && !VIDEO_ID.test(values['--id'])) return { kind: 'error', message: '--id must be 11 characters of [A-Za-z0-9_-]' };
  const threads = values['--threads'] === undefined ? 0 : Number(values['--threads']);
  if (!Number.isInteger(threads) || threads < 0 || threads > 64)
    return { kind: 'error', message: '--threads must be a whole number from 0 (ffmpeg chooses) to 64' };
  const title = values['--title'] === undefined ? undefined : cleanText('--title', values['--title']);
  const channel = cleanText('--channel', values['--channel'] ?? DEFAULT_CHANNEL);
  if (typeof title === 'object') return { kind: 'error', message: title.error };
  if (typeof channel === 'object') return { kind: 'error', message: channel.error };
  const library = values['--library'] ?? env.VIDFRAME_LIBRARY_DIR ?? DEFAULT_LIBRARY;
  if (library.trim() === '') return { kind: 'error', message: '--library must name a folder' };
  const options: IngestOptions = { file: files[0]!, channel, library, preset, threads, progress };
  if (values['--id'] !== undefined) options.id = values['--id'];
  if (title !== undefined) options.title = title;
  if (values['--chapters'] !== undefined) {
    if (values['--chapters'].trim() === '') return { kind: 'error', message: '--chapters must name a file' };
    options.chapters = values['--chapters'];
  }
  return { kind: 'run', options };
}

const GIB = 1024 ** 3;

/** What `--help` prints. */
export const INGEST_USAGE = `Usage: npm run ingest -- <file> [options]

Turns a video file into a catalogue entry the server plays: an adaptive ladder (144p up to the source's height, at
most 1080p) in H.264/AAC fragmented MP4 (DASH and HLS) and VP9/Opus WebM (DASH), one progressive H.264 MP4, a poster
and seek-preview storyboards. Needs ffmpeg and ffprobe (Debian: apt-get install ffmpeg; FFMPEG / FFPROBE override).

Options:
  --id <id>          the video id, 11 characters of [A-Za-z0-9_-] (default: derived from the file's bytes)
  --title <text>     the title (default: from the file name)
  --channel <name>   the author, whose channel the video is in (default: "${DEFAULT_CHANNEL}")
  --chapters <file>  the video's chapters, one a line: "0:00 Intro", "1:05 Next part" (first at 0:00, in order)
  --library <dir>    the library folder (default: $VIDFRAME_LIBRARY_DIR, else ${DEFAULT_LIBRARY})
  --fast             the fastest encoder settings (tests, previews): larger files, lower quality
  --threads <n>      encoder threads (default 0: ffmpeg chooses; 1: byte-for-byte reproducible)
  --plain            one line per step, even on a terminal
  -h, --help         this text

Limits: at most ${MAX_SOURCE_SECONDS / 3600} h long, ${MAX_SOURCE_BYTES / GIB} GiB, ${MAX_SOURCE_WIDTH}×${MAX_SOURCE_HEIGHT} pixels.

Ingesting the same file again with the same settings changes nothing. The entry (entries/<id>.json) is written last,
so a failed or interrupted ingest leaves no entry behind.

Exit codes:
${EXIT_CODE_HELP}
`;
