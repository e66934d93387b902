import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { FastifyBaseLogger } from 'fastify';
import { chartValueOf } from './ingest/validateEvents';
import type { CollectorEndpoint, CollectorStore, IncomingEvent } from './store';

/** The stream that events of the JSONL collector (the collector's earlier file format) are filed under: they carry no stream of their own. */
export const LEGACY_STREAM = 'legacy-jsonl';
const BATCH = 1_000;
const PROGRESS_EVERY = 100_000;

/**
 * Moves what the JSONL collector of earlier versions kept (`{dataDir}/collector/events.jsonl` and `errors.jsonl`)
 * into the store, so an upgrade loses nothing. Line by line (a file of any size, never read whole), in batches of
 * {@link BATCH}, logging progress every {@link PROGRESS_EVERY} lines; a torn or unreadable line is skipped and
 * counted. Events keep their de-duplication key under the stream {@link LEGACY_STREAM}, so an import cut short and
 * run again stores nothing twice (error reports have no key: an import stopped inside the error file stores the
 * reports before that point again). A file is renamed `*.imported` once all of it is stored.
 */
export async function importLegacyJsonl(
  store: CollectorStore,
  dataDir: string,
  { log, shouldStop = () => false }: { log: FastifyBaseLogger; shouldStop?: () => boolean },
): Promise<{ events: number; errors: number; skippedLines: number }> {
  const dir = join(dataDir, 'collector');
  const result = { events: 0, errors: 0, skippedLines: 0 };
  const eventsFile = join(dir, 'events.jsonl');
  const errorsFile = join(dir, 'errors.jsonl');

  const eachLine = async (file: string, take: (record: Record<string, unknown>) => Promise<void>, flush: () => Promise<void>) => {
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    let n = 0;
    for await (const line of lines) {
      if (shouldStop()) return false;
      if (!line.trim()) continue;
      n += 1;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        result.skippedLines += 1;
        continue;
      }
      if (record && typeof record === 'object' && !Array.isArray(record)) await take(record as Record<string, unknown>);
      else result.skippedLines += 1;
      if (n % PROGRESS_EVERY === 0) log.info({ file, lines: n }, 'collector: importing the JSONL store of an earlier version');
    }
    await flush();
    return true;
  };

  if (existsSync(eventsFile)) {
    log.info({ file: eventsFile }, 'collector: importing the JSONL store of an earlier version');
    let batch: IncomingEvent[] = [];
    let receivedAtMs = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const outcome = await store.recordLogRequest(
        {
          requestId: `legacy-${randomUUID()}`,
          stream: LEGACY_STREAM,
          endpoint: 'log_event',
          receivedAtMs,
          compressed: false,
          contentType: 'application/x-ndjson',
          bodyBytes: 0,
          decodedBytes: 0,
          headers: {},
          eventCount: batch.length,
          refused: 0,
        },
        batch,
      );
      result.events += outcome.accepted;
      batch = [];
    };
    const done = await eachLine(
      eventsFile,
      async (r) => {
        const event = r.event as Record<string, unknown> | undefined;
        if (!event || typeof event !== 'object' || typeof r.dedupeKey !== 'string' || typeof r.name !== 'string') {
          result.skippedLines += 1;
          return;
        }
        receivedAtMs = typeof r.receivedAtMs === 'number' ? r.receivedAtMs : receivedAtMs;
        const value = chartValueOf(r.name, event[r.name]);
        batch.push({
          stream: LEGACY_STREAM,
          dedupeKey: r.dedupeKey,
          ...(typeof r.clientEventId === 'string' ? { clientEventId: r.clientEventId } : {}),
          name: r.name,
          endpoint: (r.endpoint === 'video_stats' ? 'video_stats' : 'log_event') as CollectorEndpoint,
          ...(typeof r.eventTimeMs === 'number' ? { eventTimeMs: r.eventTimeMs } : {}),
          ...(value !== undefined ? { value } : {}),
          json: JSON.stringify(event),
        });
        if (batch.length >= BATCH) await flush();
      },
      flush,
    );
    if (done) renameSync(eventsFile, `${eventsFile}.imported`);
  }

  if (existsSync(errorsFile) && !shouldStop()) {
    const done = await eachLine(
      errorsFile,
      async (r) => {
        const text = (key: string) => (typeof r[key] === 'string' ? { [key]: r[key] as string } : {});
        await store.recordError({
          receivedAtMs: typeof r.receivedAtMs === 'number' ? r.receivedAtMs : 0,
          message: typeof r.message === 'string' ? r.message : '',
          messageTruncated: r.messageTruncated === true,
          ...text('url'),
          ...text('file'),
          ...text('line'),
          ...text('stack'),
          ...text('type'),
          extra: r.extra && typeof r.extra === 'object' ? (r.extra as Record<string, string>) : {},
        });
        result.errors += 1;
      },
      async () => undefined,
    );
    if (done) renameSync(errorsFile, `${errorsFile}.imported`);
  }
  if (result.events + result.errors + result.skippedLines > 0) log.info(result, 'collector: JSONL store of an earlier version imported');
  return result;
}
