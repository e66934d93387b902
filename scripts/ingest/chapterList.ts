/**
 * `--chapters <file>`: a video's chapters as a site owner writes them, one a line, its start then its title, the way
 * a YouTube description lists them:
 *
 * ```
 * 0:00 Intro
 * 1:05 The first part
 * 1:02:30 The last part
 * ```
 *
 * Blank lines are skipped. The list is then checked as the catalogue checks it (`checkChapters`: first at 0, ascending,
 * before the video's end, titles bounded), so a list ingest accepts is one the server loads.
 */
import { readFile } from 'node:fs/promises';
import { type CatalogChapter, checkChapters } from '../../server/media/catalogChecks';
import { EXIT, IngestError } from './ingestErrors';

/** `m:ss`, `mm:ss` or `h:mm:ss` (seconds may have a fraction), then the title after blanks. */
const LINE = /^(?:(\d+):)?(\d{1,2}):(\d{2}(?:\.\d+)?)\s+(.*)$/;

/** The chapters of a chapter list's text, unchecked against the video, or the first line that is not one. */
export function parseChapterList(text: string): CatalogChapter[] | { error: string } {
  const chapters: CatalogChapter[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const m = LINE.exec(line);
    if (!m) return { error: `line ${i + 1} is not "<m:ss or h:mm:ss> <title>": ${JSON.stringify(line.slice(0, 60))}` };
    const [, h, min, sec, title] = m;
    if (h !== undefined && Number(min) > 59) return { error: `line ${i + 1}: the minutes of ${line.split(/\s/)[0]} are over 59` };
    if (Number(sec) >= 60) return { error: `line ${i + 1}: the seconds of ${line.split(/\s/)[0]} are 60 or more` };
    chapters.push({ title: title!, startSeconds: Number(h ?? 0) * 3600 + Number(min) * 60 + Number(sec) });
  }
  return chapters;
}

/**
 * Reads and checks the chapter list `file` for a video `durationSeconds` long. Throws an {@link IngestError} (bad
 * arguments) naming the file and what is wrong.
 */
export async function readChapterList(file: string, durationSeconds: number): Promise<CatalogChapter[]> {
  const bad = (what: string): never => {
    throw new IngestError(EXIT.BAD_ARGUMENTS, `--chapters ${file}: ${what}`);
  };
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => bad(`cannot be read (${e.code ?? e.message})`));
  const parsed = parseChapterList(text);
  if ('error' in parsed) return bad(parsed.error);
  return checkChapters('chapters', parsed, durationSeconds, (where, what) => bad(`${where}: ${what}`));
}
