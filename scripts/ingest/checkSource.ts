/**
 * The checks a source passes before anything is encoded: it exists and can be read, is within the byte bound, the
 * tools are installed, ffprobe reads a video from it within the other bounds, and its video decodes at the start, the
 * middle and the end. Each refusal is an {@link IngestError} with its own exit code.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { EXIT, IngestError } from './ingestErrors';
import { decodeCheckArgs } from './ffmpegArgs';
import { checkSourceBytes, probeArgs, probeFailure, readProbe, type SourceInfo } from './probeSource';
import { checkTools, lastLines, runTool, type Tools } from './runTool';
import { readHead } from './library';

/** How long ffprobe may take to read a source. */
export const PROBE_TIMEOUT_MS = 60_000;
/** How long the decode check (three short windows) may take. */
export const DECODE_CHECK_TIMEOUT_MS = 120_000;
/** Bytes read to tell a damaged media file from something that is not media at all. */
const HEAD_BYTES = 512;

/** The source's size, or the refusal of a missing, unreadable or out-of-bounds file. */
async function sourceBytes(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new IngestError(EXIT.SOURCE_UNREADABLE, `${file} is not a file`);
    await access(file, constants.R_OK);
    return info.size;
  } catch (e) {
    if (e instanceof IngestError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new IngestError(EXIT.SOURCE_UNREADABLE, code === 'ENOENT' ? `${file} does not exist` : `${file} cannot be read (${code ?? String(e)})`);
  }
}

/** Runs every check; resolves with what ffprobe says about the source. */
export async function checkSource(file: string, tools: Tools, signal?: AbortSignal): Promise<SourceInfo & { bytes: number }> {
  const bytes = await sourceBytes(file);
  checkSourceBytes(bytes);
  await checkTools(tools, signal);
  const probe = await runTool(tools.ffprobe, probeArgs(file), { timeoutMs: PROBE_TIMEOUT_MS, signal });
  if (probe.timedOut) throw new IngestError(EXIT.CORRUPT, `ffprobe could not read the source within ${PROBE_TIMEOUT_MS / 1000} s`);
  if (probe.code !== 0) throw probeFailure(probe.stderr, await readHead(file, HEAD_BYTES));
  const info = readProbe(probe.stdout);
  const decode = await runTool(tools.ffmpeg, decodeCheckArgs(file, info.durationSeconds), { timeoutMs: DECODE_CHECK_TIMEOUT_MS, signal });
  if (decode.timedOut) throw new IngestError(EXIT.CORRUPT, `the source's video did not decode within ${DECODE_CHECK_TIMEOUT_MS / 1000} s`);
  if (decode.code !== 0)
    throw new IngestError(EXIT.CORRUPT, `the source's video does not decode: ${lastLines(decode.stderr) || `ffmpeg exited with ${decode.code}`}`);
  return { ...info, bytes };
}
