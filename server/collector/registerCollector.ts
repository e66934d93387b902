import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CollectorEndpoint, CollectorStore, createCollectorStore, EventQuery } from './collectorStore';

/** Hot and cold client configuration handed out in `responseContext.globalConfigGroup` (spec §7). */
export interface GlobalConfig {
  hotConfig: Record<string, unknown>;
  coldConfig: Record<string, unknown>;
}

export interface CollectorOptions {
  /** The store lives in `{dataDir}/collector/`, created on first start. */
  dataDir: string;
  /** Largest request body on the wire (413 beyond). 1 MiB by default. */
  bodyLimitBytes?: number;
  /** Largest body after gunzip (413 beyond), against gzip bombs. 8 MiB by default. */
  maxDecompressedBytes?: number;
  /** What `log_event` answers with; `false` for no `globalConfigGroup`. */
  globalConfig?: GlobalConfig | false;
  /** Server clock (ms since the epoch). */
  now?: () => number;
  /**
   * Whether the routes that change the collector from outside (`DELETE /collector/events`, `/collector/faults`)
   * exist. Off by default, so a deployed server cannot be wiped or broken by a request; tests and
   * `VIDFRAME_TEST_HOOKS=1 npm start` turn them on.
   */
  testHooks?: boolean;
}

/** Statuses the fault injector can play back (spec §8: 400/415 on logs mean "compression failed"). */
export type InjectableFaultStatus = 500 | 415 | 400;

const errorBody = (code: number, message: string) => ({ error: { code, message } });

/** An error the collector answers with its own status and message. */
class CollectorHttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Request headers worth keeping with each log request. */
const KEPT_HEADERS = [
  'content-type',
  'content-encoding',
  'content-length',
  'user-agent',
  'origin',
  'referer',
  'x-goog-visitor-id',
  'x-youtube-client-name',
  'x-youtube-client-version',
  'x-youtube-utc-offset',
  'x-youtube-time-zone',
  'x-youtube-ad-signals',
  'x-youtube-bootstrap-logged-in',
];

const DEFAULT_GLOBAL_CONFIG: GlobalConfig = {
  hotConfig: { loggingHotConfig: { eventLoggingConfig: { enabled: true, logEventsPerRequestLimit: 100 } } },
  coldConfig: { configData: 'vidframe-reference-server', pageLoggingConfig: { compressionEnabled: true } },
};

const hashOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url');

/**
 * The log collector of the reference server (issue 6 §5), as an encapsulated Fastify plugin: its body parsing and
 * error format apply to its own routes only.
 *
 * - `POST /youtubei/v1/log_event`, `POST /youtubei/v1/video_stats`: JSON, plain or `Content-Encoding: gzip`;
 *   415 for another content type or encoding, 400 for bad gzip / JSON / shape, 413 beyond the size limits;
 *   200 `{responseContext: {…, globalConfigGroup}}`. Every event is stored once (de-duplicated by `clientEventId`).
 * - `GET /collector/events?name=&endpoint=&since=&afterSeq=&limit=`, `GET /collector/requests`, `GET /collector/errors`,
 *   `GET /collector/stats`, `DELETE /collector/events` (clears everything).
 * - `POST /collector/faults {status: 500|415|400, count}`: the next `count` log requests fail with `status`
 *   (415/400 only hit gzip bodies, to play "compression unsupported"); `DELETE /collector/faults` clears them.
 * - `POST /error_204`: the error-reporting endpoint (message ≤ 250 chars, url, file, stack), answers 204.
 * - `GET /generate_204`: the network probe, 204 and no body.
 *
 * @returns the store (the demo page or a test may read it directly).
 */
export function registerCollector(app: FastifyInstance, opts: CollectorOptions): CollectorStore {
  const {
    dataDir,
    bodyLimitBytes = 1_048_576,
    maxDecompressedBytes = 8_388_608,
    globalConfig = DEFAULT_GLOBAL_CONFIG,
    now = Date.now,
    testHooks = false,
  } = opts;
  const store = createCollectorStore(dataDir);
  let fault: { status: InjectableFaultStatus; remaining: number } | undefined;
  let faultsPlayed = 0;

  // Field names as the client's config store (streams/storage/createConfigStore) reads them.
  const globalConfigGroup = globalConfig
    ? {
        hotConfigGroup: globalConfig.hotConfig,
        hotHashData: hashOf(globalConfig.hotConfig),
        coldConfigGroup: globalConfig.coldConfig,
        coldHashData: hashOf(globalConfig.coldConfig),
        rawColdConfigGroup: { configData: hashOf({ cold: globalConfig.coldConfig }) },
      }
    : undefined;

  app.register(async (scope) => {
    // Every body arrives as raw bytes; the handlers decide what is acceptable (and answer in the collector's format).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: bodyLimitBytes }, (_request, body, done) => done(null, body));

    scope.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
      const message =
        error instanceof CollectorHttpError
          ? error.message
          : status === 413
            ? `Request body is larger than ${bodyLimitBytes} bytes`
            : (error.message ?? 'Internal error');
      return reply.code(status).send(errorBody(status, message));
    });

    const logHandler = (endpoint: CollectorEndpoint) => async (request: FastifyRequest, reply: FastifyReply) => {
      const contentType = String(request.headers['content-type'] ?? '');
      const encoding = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const compressed = encoding === 'gzip';

      if (fault && (fault.status === 500 || compressed)) {
        const { status } = fault;
        fault.remaining -= 1;
        if (fault.remaining <= 0) fault = undefined;
        faultsPlayed += 1;
        return reply.code(status).send(errorBody(status, `Injected fault (${status})`));
      }
      if (!contentType.toLowerCase().includes('json')) {
        throw new CollectorHttpError(415, `Content-Type must be application/json, not "${contentType || 'none'}"`);
      }
      if (!compressed && encoding !== 'identity') {
        throw new CollectorHttpError(415, `Unsupported Content-Encoding "${encoding}" (gzip or none)`);
      }

      let text: string;
      try {
        text = (compressed ? gunzipSync(raw, { maxOutputLength: maxDecompressedBytes }) : raw).toString('utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
          throw new CollectorHttpError(413, `Decompressed body is larger than ${maxDecompressedBytes} bytes`);
        }
        throw new CollectorHttpError(400, `Malformed gzip body: ${(error as Error).message}`);
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (error) {
        throw new CollectorHttpError(400, `Malformed JSON body: ${(error as Error).message}`);
      }
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new CollectorHttpError(400, 'Body must be a JSON object');
      const { events, context, requestTimeMs, serializedClientEventId } = body as Record<string, unknown>;
      if (!Array.isArray(events)) throw new CollectorHttpError(400, 'Body must have an "events" array');
      const bad = events.findIndex((e) => !e || typeof e !== 'object' || Array.isArray(e));
      if (bad !== -1) throw new CollectorHttpError(400, `events[${bad}] must be an object`);

      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = request.headers[name];
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      const { accepted, duplicates } = store.recordLogRequest(
        {
          requestId: randomUUID(),
          endpoint,
          receivedAtMs: now(),
          compressed,
          contentType,
          bodyBytes: raw.byteLength,
          decodedBytes: Buffer.byteLength(text),
          headers,
          serializedClientEventId,
          requestTimeMs,
          context,
        },
        events as Record<string, unknown>[],
      );
      request.log.debug({ endpoint, accepted, duplicates }, 'collector: log request stored');
      return reply.code(200).send({
        responseContext: {
          serviceTrackingParams: [],
          ...(globalConfigGroup && endpoint === 'log_event' ? { globalConfigGroup } : {}),
        },
      });
    };

    scope.post('/youtubei/v1/log_event', logHandler('log_event'));
    scope.post('/youtubei/v1/video_stats', logHandler('video_stats'));

    scope.get('/collector/events', async (request) => {
      const q = request.query as Record<string, string | undefined>;
      const number = (v: string | undefined, field: string) => {
        if (v === undefined || v === '') return undefined;
        const n = Number(v);
        if (!Number.isFinite(n)) throw new CollectorHttpError(400, `"${field}" must be a number`);
        return n;
      };
      const endpoint = q.endpoint as CollectorEndpoint | undefined;
      if (endpoint !== undefined && endpoint !== 'log_event' && endpoint !== 'video_stats') {
        throw new CollectorHttpError(400, '"endpoint" must be log_event or video_stats');
      }
      const query: EventQuery = {
        name: q.name || undefined,
        endpoint,
        since: number(q.since, 'since'),
        afterSeq: number(q.afterSeq, 'afterSeq'),
        limit: number(q.limit, 'limit'),
      };
      const events = store.listEvents(query);
      return { events, count: events.length, lastSeq: events.length > 0 ? events[events.length - 1].seq : (query.afterSeq ?? 0) };
    });
    scope.get('/collector/requests', async () => ({ requests: store.listRequests() }));
    scope.get('/collector/errors', async () => ({ errors: store.listErrors() }));
    scope.get('/collector/stats', async () => ({
      ...store.stats(),
      faultsPlayed,
      pendingFault: fault ? { status: fault.status, count: fault.remaining } : null,
    }));
    if (testHooks) scope.delete('/collector/events', async (_request, reply) => {
      store.clear();
      faultsPlayed = 0;
      return reply.code(200).send({ cleared: true });
    });

    if (testHooks) scope.post('/collector/faults', async (request, reply) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '');
      } catch {
        throw new CollectorHttpError(400, 'Body must be JSON: {"status": 500|415|400, "count": n}');
      }
      const { status, count } = (parsed ?? {}) as { status?: unknown; count?: unknown };
      if (status !== 500 && status !== 415 && status !== 400) throw new CollectorHttpError(400, '"status" must be 500, 415 or 400');
      if (!Number.isInteger(count) || (count as number) < 1) throw new CollectorHttpError(400, '"count" must be a whole number ≥ 1');
      fault = { status, remaining: count as number };
      return reply.code(200).send({ status, count });
    });
    if (testHooks) scope.delete('/collector/faults', async (_request, reply) => {
      fault = undefined;
      return reply.code(200).send({ cleared: true });
    });

    scope.post('/error_204', async (request, reply) => {
      const fields: Record<string, string> = {};
      const take = (source: Record<string, unknown>) => {
        for (const [k, v] of Object.entries(source)) {
          if (v !== undefined && v !== null) fields[k] = typeof v === 'string' ? v : JSON.stringify(v);
        }
      };
      take((request.query ?? {}) as Record<string, unknown>);
      const text = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
      const type = String(request.headers['content-type'] ?? '');
      if (text) {
        let parsed: unknown;
        if (type.includes('json')) {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
        } else if (type.includes('x-www-form-urlencoded')) {
          parsed = Object.fromEntries(new URLSearchParams(text));
        }
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) take(parsed as Record<string, unknown>);
        else fields.rawBody = text; // unreadable input is kept, not dropped
      }
      const { msg, message: m, url, file, line, stack, type: errorType, ...extra } = fields;
      const message = m ?? msg ?? '';
      store.recordError({
        receivedAtMs: now(),
        message: message.slice(0, 250),
        messageTruncated: message.length > 250,
        ...(url !== undefined ? { url } : {}),
        ...(file !== undefined ? { file } : {}),
        ...(line !== undefined ? { line } : {}),
        ...(stack !== undefined ? { stack } : {}),
        ...(errorType !== undefined ? { type: errorType } : {}),
        extra,
      });
      return reply.code(204).send();
    });

    scope.get('/generate_204', async (_request, reply) => reply.code(204).header('cache-control', 'no-store').send());
  });

  return store;
}
