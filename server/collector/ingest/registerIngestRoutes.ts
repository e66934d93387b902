import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, HttpError } from '../../http/errors';
import type { Metrics } from '../../health/createMetrics';
import {
  COLLECTOR_MAX_BODY_BYTES,
  COLLECTOR_MAX_BODY_DEPTH,
  COLLECTOR_MAX_CONTEXT_BYTES,
  COLLECTOR_MAX_CONTEXT_DEPTH,
  COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKEN_CHARS,
  COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKENS,
  COLLECTOR_MAX_DECOMPRESSED_BYTES,
  COLLECTOR_MAX_EVENTS_PER_REQUEST,
  COLLECTOR_MAX_HEADER_CHARS,
  COLLECTOR_STORE_RETRY_AFTER_SEC,
} from '../limits';
import type { CollectorEndpoint, CollectorStore } from '../store';
import type { StreamTokens } from '../../tokens/streamTokens';
import type { FaultInjector } from '../testHooks/faultInjector';
import type { IdentityTokens } from '../../tokens/identityTokens';
import { responseContextFor } from '../../api/responseContext';
import type { VerifyApiRequest } from '../../api/verifyApiRequest';
import { credentialTransferTokensProblem } from '../../../streams/transport/credentialTransferTokens';
import { jsonTextNestsDeeperThan, nestsDeeperThan, validateEvents } from './validateEvents';

/** Hot and cold client configuration handed out in `responseContext.globalConfigGroup` (spec §7). */
export interface GlobalConfig {
  hotConfig: Record<string, unknown>;
  coldConfig: Record<string, unknown>;
}

/** The header a log request carries its stream token in (set by the client's transport). */
export const STREAM_TOKEN_HEADER = 'x-vidframe-stream-token';

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

export interface IngestOptions {
  store: CollectorStore;
  streamTokens: StreamTokens;
  metrics: Metrics;
  faults: FaultInjector;
  /** `responseContext.globalConfigGroup` of `log_event` answers, or undefined for none. */
  globalConfigGroup?: Record<string, unknown>;
  /** The route's rate limit (`@fastify/rate-limit` route config), or false for none. */
  rateLimit: Record<string, unknown> | false;
  now: () => number;
  /** The API's request-validation step (key, bearer token, visitor id, anti-forgery field, delegation: spec §6/§7). */
  verifyApiRequest: VerifyApiRequest;
  tokens: IdentityTokens;
}

/**
 * `POST /youtubei/v1/log_event` and `POST /youtubei/v1/video_stats` (spec §7), in this order:
 *
 * 1. rate limit per stream token and address (429 with `Retry-After`, which the client's retry queue honours);
 * 2. content type JSON (415), encoding gzip or none (415), body ≤ {@link COLLECTOR_MAX_BODY_BYTES} (413);
 * 3. the stream token (`X-VidFrame-Stream-Token`) verified: missing, forged or expired is 401 and nothing is stored;
 * 4. gunzip ≤ {@link COLLECTOR_MAX_DECOMPRESSED_BYTES} (413), JSON object with an `events` array (400), at most
 *    {@link COLLECTOR_MAX_EVENTS_PER_REQUEST} events and a bounded context (400); `credentialTransferTokens`, when
 *    present, an array of at most {@link COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKENS} objects of strings (400 naming it)
 *    — checked only: they are credentials, so nothing of them is stored, logged or counted;
 * 4a. the API's request-validation step ({@link VerifyApiRequest}): a bad or expired bearer token is 401, a missing or
 *    wrong anti-forgery field 403, nothing stored; a verified account (and the channel it acts for) is stored with
 *    the request and its events, so the collector attributes them;
 * 5. each event validated on its own: the refused ones are listed in the reply (`collector.refused`), the rest stored;
 * 6. the store's transaction commits, then 200. A store failure is 503 with `Retry-After`: the client keeps the request.
 */
export function registerIngestRoutes(scope: FastifyInstance, opts: IngestOptions): void {
  const { store, streamTokens, metrics, faults, globalConfigGroup, rateLimit, now, verifyApiRequest, tokens } = opts;

  const handler = (endpoint: CollectorEndpoint) => async (request: FastifyRequest, reply: FastifyReply) => {
    const contentType = String(request.headers['content-type'] ?? '');
    const encoding = String(request.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const compressed = encoding === 'gzip';

    const fault = faults.take(compressed);
    if (fault !== undefined) {
      if (fault.retryAfterSec !== undefined) reply.header('retry-after', String(fault.retryAfterSec));
      return reply.code(fault.status).send(errorBody(fault.status, `Injected fault (${fault.status})`));
    }

    if (!contentType.toLowerCase().includes('json')) {
      throw new HttpError(415, `Content-Type must be application/json, not "${contentType.slice(0, 100) || 'none'}"`);
    }
    if (!compressed && encoding !== 'identity') throw new HttpError(415, `Unsupported Content-Encoding "${encoding.slice(0, 40)}" (gzip or none)`);

    const verdict = streamTokens.verify(request.headers[STREAM_TOKEN_HEADER]);
    if (!verdict.ok) {
      metrics.collectorRequestsRefused.inc({ reason: 'token' });
      return reply.code(401).header('www-authenticate', 'VidFrame-Stream').send(errorBody(401, verdict.reason));
    }

    let text: string;
    try {
      text = (compressed ? gunzipSync(raw, { maxOutputLength: COLLECTOR_MAX_DECOMPRESSED_BYTES }) : raw).toString('utf8');
    } catch (error) {
      metrics.collectorRequestsRefused.inc({ reason: 'body' });
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw new HttpError(413, `Decompressed body is larger than ${COLLECTOR_MAX_DECOMPRESSED_BYTES} bytes`);
      }
      throw new HttpError(400, 'Malformed gzip body');
    }
    if (jsonTextNestsDeeperThan(text, COLLECTOR_MAX_BODY_DEPTH)) {
      metrics.collectorRequestsRefused.inc({ reason: 'body' });
      throw new HttpError(400, `The body nests deeper than ${COLLECTOR_MAX_BODY_DEPTH} levels`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      metrics.collectorRequestsRefused.inc({ reason: 'body' });
      throw new HttpError(400, `Malformed JSON body: ${(error as Error).message.slice(0, 200)}`);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'Body must be a JSON object');
    const { events, context, requestTimeMs, serializedClientEventId, credentialTransferTokens } = body as Record<string, unknown>;
    if (!Array.isArray(events)) throw new HttpError(400, 'Body must have an "events" array');
    if (events.length > COLLECTOR_MAX_EVENTS_PER_REQUEST) {
      throw new HttpError(400, `A request carries at most ${COLLECTOR_MAX_EVENTS_PER_REQUEST} events, not ${events.length}`);
    }
    // Spec §7 "optionally credentialTransferTokens": shape-checked here and then dropped — the stored request keeps
    // only the fields picked below, so a credential never reaches the store (never store secrets).
    if (credentialTransferTokens !== undefined) {
      const problem = credentialTransferTokensProblem(credentialTransferTokens, {
        maxTokens: COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKENS,
        maxTokenChars: COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKEN_CHARS,
      });
      if (problem !== undefined) {
        metrics.collectorRequestsRefused.inc({ reason: 'body' });
        throw new HttpError(400, problem);
      }
    }
    let contextJson: string | undefined;
    if (context !== undefined) {
      if (!context || typeof context !== 'object' || Array.isArray(context)) throw new HttpError(400, '"context" must be an object');
      if (nestsDeeperThan(context, COLLECTOR_MAX_CONTEXT_DEPTH)) throw new HttpError(400, `"context" nests deeper than ${COLLECTOR_MAX_CONTEXT_DEPTH} levels`);
      contextJson = JSON.stringify(context);
      if (Buffer.byteLength(contextJson) > COLLECTOR_MAX_CONTEXT_BYTES)
        throw new HttpError(400, `"context" is larger than ${COLLECTOR_MAX_CONTEXT_BYTES} bytes`);
    }
    /** A small field kept as it came, or dropped when it is deep or large (it is metadata, never worth a refusal). */
    const scalarOrSmall = (value: unknown) =>
      value === undefined || nestsDeeperThan(value, COLLECTOR_MAX_CONTEXT_DEPTH) || JSON.stringify(value).length > 1024 ? undefined : value;

    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = request.headers[name];
      if (value !== undefined) headers[name] = (Array.isArray(value) ? value.join(', ') : String(value)).slice(0, COLLECTOR_MAX_HEADER_CHARS);
    }

    // Who sent it (after the shape checks: a malformed body is a 400 whoever sends it).
    let viewer;
    try {
      viewer = verifyApiRequest(request, body);
    } catch (error) {
      metrics.collectorRequestsRefused.inc({ reason: 'identity' });
      throw error;
    }
    const { valid, refused } = validateEvents(events, { stream: verdict.stream, endpoint });
    let outcome;
    try {
      outcome = await metrics.timeStore(store.kind, 'recordLogRequest', () =>
        store.recordLogRequest(
          {
            requestId: randomUUID(),
            stream: verdict.stream,
            endpoint,
            receivedAtMs: now(),
            compressed,
            contentType: contentType.slice(0, COLLECTOR_MAX_HEADER_CHARS),
            bodyBytes: raw.byteLength,
            decodedBytes: Buffer.byteLength(text),
            headers,
            serializedClientEventId: scalarOrSmall(serializedClientEventId),
            requestTimeMs: scalarOrSmall(requestTimeMs),
            contextJson,
            eventCount: events.length,
            refused: refused.length,
            ...(viewer.accountId !== undefined && {
              viewer: { accountId: viewer.accountId, ...(viewer.channelId !== undefined && { channelId: viewer.channelId }) },
            }),
          },
          valid,
        ),
      );
    } catch (error) {
      request.log.error({ err: error }, 'collector: the store refused a write');
      return reply
        .code(503)
        .header('retry-after', String(COLLECTOR_STORE_RETRY_AFTER_SEC))
        .send(errorBody(503, 'The collector could not store the request now; send it again later'));
    }
    metrics.collectorEvents.inc({ outcome: 'accepted', endpoint }, outcome.accepted);
    metrics.collectorEvents.inc({ outcome: 'duplicate', endpoint }, outcome.duplicates);
    metrics.collectorEvents.inc({ outcome: 'refused', endpoint }, refused.length);
    return reply.code(200).send({
      responseContext: {
        ...responseContextFor(viewer, tokens.consistency),
        ...(globalConfigGroup && endpoint === 'log_event' ? { globalConfigGroup } : {}),
      },
      collector: { accepted: outcome.accepted, duplicates: outcome.duplicates, refused },
    });
  };

  const routeOptions = { bodyLimit: COLLECTOR_MAX_BODY_BYTES, config: rateLimit ? { rateLimit } : {} };
  scope.post('/youtubei/v1/log_event', routeOptions, handler('log_event'));
  scope.post('/youtubei/v1/video_stats', routeOptions, handler('video_stats'));
}
