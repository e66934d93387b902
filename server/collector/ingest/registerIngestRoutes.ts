import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VerifyApiRequest } from '../../api/verifyApiRequest';
import { responseContextFor } from '../../api/responseContext';
import type { Metrics } from '../../health/createMetrics';
import { errorBody, HttpError } from '../../http/errors';
import type { IdentityTokens } from '../../tokens/identityTokens';
import type { StreamTokens } from '../../tokens/streamTokens';
import { COLLECTOR_MAX_BODY_BYTES, COLLECTOR_MAX_CONTEXT_DEPTH, COLLECTOR_MAX_HEADER_CHARS, COLLECTOR_STORE_RETRY_AFTER_SEC } from '../limits';
import type { CollectorEndpoint, CollectorStore } from '../store';
import type { FaultInjector } from '../testHooks/faultInjector';
import { decodeLogBody } from './decodeLogBody';
import { logRateLimitHook, type LogRateLimits, streamVerdictOf } from './logRateLimits';
import { nestsDeeperThan, validateEvents } from './validateEvents';

/** Hot and cold client configuration handed out in `responseContext.globalConfigGroup` (spec §7). */
export interface GlobalConfig {
  hotConfig: Record<string, unknown>;
  coldConfig: Record<string, unknown>;
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

export interface IngestOptions {
  store: CollectorStore;
  streamTokens: StreamTokens;
  metrics: Metrics;
  faults: FaultInjector;
  /** `responseContext.globalConfigGroup` of `log_event` answers, or undefined for none. */
  globalConfigGroup?: Record<string, unknown>;
  /** The routes' rate limits (each route counts apart), or false for none. */
  rateLimit: LogRateLimits | false;
  now: () => number;
  /** The API's request-validation step (key, bearer token, visitor id, anti-forgery field, delegation: spec §6/§7). */
  verifyApiRequest: VerifyApiRequest;
  tokens: IdentityTokens;
}

/** The kept request headers, each cut to {@link COLLECTOR_MAX_HEADER_CHARS}. */
function keptHeadersOf(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = request.headers[name];
    if (value !== undefined) headers[name] = (Array.isArray(value) ? value.join(', ') : String(value)).slice(0, COLLECTOR_MAX_HEADER_CHARS);
  }
  return headers;
}

/** A small field kept as it came, or dropped when it is deep or large (it is metadata, never worth a refusal). */
const scalarOrSmall = (value: unknown) =>
  value === undefined || nestsDeeperThan(value, COLLECTOR_MAX_CONTEXT_DEPTH) || JSON.stringify(value).length > 1024 ? undefined : value;

/**
 * `POST /youtubei/v1/log_event` and `POST /youtubei/v1/video_stats` (spec §7), in this order:
 *
 * 1. rate limits, before the body is read (`logRateLimits.ts`): unverified requests per client address, verified ones
 *    per stream and per address (429 with `Retry-After`, which the client's retry queue honours);
 * 2. content type JSON (415), encoding gzip or none (415), body ≤ {@link COLLECTOR_MAX_BODY_BYTES} (413);
 * 3. the stream token (`X-VidFrame-Stream-Token`) verified: missing, forged or expired is 401 and nothing is stored;
 * 4. the body decoded and its shape checked (`decodeLogBody.ts`: 413 or 400); `credentialTransferTokens` are checked
 *    only: they are credentials, so nothing of them is stored, logged or counted;
 * 5. the API's request-validation step ({@link VerifyApiRequest}): a bad or expired bearer token is 401, a missing or
 *    wrong anti-forgery field 403, nothing stored; a verified account (and the channel it acts for) is stored with
 *    the request and its events, so the collector attributes them;
 * 6. each event validated on its own: the refused ones are listed in the reply (`collector.refused`), the rest stored;
 * 7. the store's transaction commits, then 200. A store failure is 503 with `Retry-After`: the client keeps the request.
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

    const verdict = streamVerdictOf(request, streamTokens);
    if (!verdict.ok) {
      metrics.collectorRequestsRefused.inc({ reason: 'token' });
      return reply.code(401).header('www-authenticate', 'VidFrame-Stream').send(errorBody(401, verdict.reason));
    }
    // Who sent it: the key and the bearer token before the body is decoded (a bad token is a 401 whatever the body),
    // the anti-forgery field in the body after.
    const identified = async <T>(check: () => Promise<T>): Promise<T> => {
      try {
        return await check();
      } catch (error) {
        metrics.collectorRequestsRefused.inc({ reason: 'identity' });
        throw error;
      }
    };
    await identified(() => verifyApiRequest.verifyCredentials(request));
    const decoded = decodeLogBody(raw, compressed, metrics);
    const headers = keptHeadersOf(request);
    const viewer = await identified(() => verifyApiRequest(request, decoded.body));
    const { valid, refused } = validateEvents(decoded.events, { stream: verdict.stream, endpoint, tooDeep: decoded.tooDeep });
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
            decodedBytes: decoded.decodedBytes,
            headers,
            serializedClientEventId: scalarOrSmall(decoded.serializedClientEventId),
            requestTimeMs: scalarOrSmall(decoded.requestTimeMs),
            contextJson: decoded.contextJson,
            eventCount: decoded.events.length,
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
    metrics.collectorEvents.inc({ outcome: 'conflict', endpoint }, outcome.conflicts);
    metrics.collectorEvents.inc({ outcome: 'refused', endpoint }, refused.length);
    return reply.code(200).send({
      responseContext: {
        ...responseContextFor(viewer, tokens.consistency),
        ...(globalConfigGroup && endpoint === 'log_event' ? { globalConfigGroup } : {}),
      },
      collector: { accepted: outcome.accepted, duplicates: outcome.duplicates, conflicts: outcome.conflicts, refused },
    });
  };

  const routeOptions = (route: string) => ({
    bodyLimit: COLLECTOR_MAX_BODY_BYTES,
    ...(rateLimit && { onRequest: logRateLimitHook(scope, { route, limits: rateLimit, streamTokens, metrics }) }),
  });
  for (const endpoint of ['log_event', 'video_stats'] as const) scope.post(`/youtubei/v1/${endpoint}`, routeOptions(endpoint), handler(endpoint));
}
