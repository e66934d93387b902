/**
 * The adaptive samples, made from ffmpeg's synthetic sources and put through the same ingest as any site owner's
 * video (`scripts/make-media.sh` runs this):
 *
 *   tsx scripts/ingest/makeSamples.ts short <library>   the short sample committed in media/ (its entry in <library>/entries/)
 *   tsx scripts/ingest/makeSamples.ts long              the long samples, into the library (`npm run media -- --long`)
 *
 * Sources are rendered bit-exact and single-threaded, so the same ffmpeg gives the same bytes, hence the same version
 * folder. The long samples' sources are cached in `VIDFRAME_MEDIA_CACHE` (default `.data/media-cache`, outside git).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_LIBRARY } from './ingestArgs';
import { IngestError } from './ingestErrors';
import { ingest } from './ingest';
import { lineReporter } from './reporters';
import { lastLines, runTool, toolsFrom, type Tools } from './runTool';
import { LONG_SAMPLES, SHORT_SAMPLE, sourceGraph, type SampleSpec } from './samples';

/** Renders a sample's source, near-lossless H.264 and AAC, bit-exact and single-threaded, to `file`. */
async function renderSource(spec: SampleSpec, file: string, tools: Tools): Promise<void> {
  const seconds = spec.sceneSeconds * spec.scenes.length;
  const args = [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-filter_complex', sourceGraph(spec)],
    ...['-f', 'lavfi', '-i', `sine=frequency=${spec.toneHz}:sample_rate=48000:beep_factor=2`],
    ...['-map', '[v]', '-map', '0:a', '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '12', '-threads', '1'],
    ...['-c:a', 'aac', '-b:a', '192k', '-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact', '-map_metadata', '-1', file],
  ];
  const result = await runTool(tools.ffmpeg, args, { timeoutMs: 60_000 + seconds * 20_000 });
  if (result.code !== 0) throw new Error(`rendering the source of ${spec.id} failed: ${lastLines(result.stderr)}`);
}

/** Ingests a sample's source into `library`, as `npm run ingest` does. */
async function ingestSample(spec: SampleSpec, source: string, library: string, threads: number, tools: Tools): Promise<void> {
  const options = {
    file: source,
    id: spec.id,
    title: spec.title,
    channel: spec.author,
    library,
    preset: 'normal' as const,
    threads,
    progress: 'lines' as const,
  };
  const result = await ingest(options, { tools, reporter: lineReporter(process.stderr) });
  process.stderr.write(`make-media: ${spec.id} ${result.encoded ? 'ingested' : 'already ingested'} (version ${result.version})\n`);
}

async function main(mode: string | undefined, target: string | undefined): Promise<void> {
  const tools = toolsFrom(process.env);
  if (mode === 'short' && target) {
    const scratch = await mkdtemp(join(tmpdir(), 'vidframe-sample-'));
    try {
      const source = join(scratch, `${SHORT_SAMPLE.id}.mp4`);
      await renderSource(SHORT_SAMPLE, source, tools);
      // Single-threaded: the committed files are the same bytes on every run.
      await ingestSample(SHORT_SAMPLE, source, resolve(target), 1, tools);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    return;
  }
  if (mode !== 'long') throw new Error('usage: makeSamples.ts short <library> | long');
  const cache = resolve(process.env.VIDFRAME_MEDIA_CACHE || '.data/media-cache');
  const library = resolve(process.env.VIDFRAME_LIBRARY_DIR || DEFAULT_LIBRARY);
  await mkdir(cache, { recursive: true });
  for (const spec of LONG_SAMPLES) {
    const source = join(cache, `${spec.id}.mp4`);
    if (!existsSync(source)) {
      process.stderr.write(`make-media: rendering the source of ${spec.id} (${spec.sceneSeconds * spec.scenes.length} s) into ${cache}\n`);
      await renderSource(spec, `${source}.part.mp4`, tools);
      await rename(`${source}.part.mp4`, source);
    }
    await ingestSample(spec, source, library, 0, tools);
  }
  process.stderr.write(`make-media: the long samples are in ${library}\n`);
}

main(process.argv[2], process.argv[3]).catch((e: unknown) => {
  process.stderr.write(`make-media: ${e instanceof IngestError || e instanceof Error ? e.message : String(e)}\n`);
  process.exit(e instanceof IngestError ? e.code : 1);
});
