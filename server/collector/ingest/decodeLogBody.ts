import { gunzipSync } from 'node:zlib';
import { credentialTransferTokensProblem } from '../../../streams/transport/credentialTransferTokens';
import type { Metrics } from '../../health/createMetrics';
import { HttpError } from '../../http/errors';
import {
  COLLECTOR_MAX_BODY_DEPTH,
  COLLECTOR_MAX_CONTEXT_BYTES,
  COLLECTOR_MAX_CONTEXT_DEPTH,
  COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKEN_CHARS,
  COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKENS,
  COLLECTOR_MAX_DECOMPRESSED_BYTES,
  COLLECTOR_MAX_EVENT_DEPTH,
  COLLECTOR_MAX_EVENTS_PER_REQUEST,
} from '../limits';
import { cutDeepEvents } from './cutDeepEvents';
import { nestsDeeperThan } from './validateEvents';

/** A log request body once decoded and its shape checked; its events are not validated yet. */
export interface LogBody {
  /** The parsed body, which the API's request-validation step reads too (anti-forgery field, delegation). */
  body: Record<string, unknown>;
  events: unknown[];
  /** Indices of the events cut for nesting deeper than {@link COLLECTOR_MAX_EVENT_DEPTH}: validation refuses them. */
  tooDeep: ReadonlySet<number>;
  /** The request `context`, serialised, when it has one. */
  contextJson?: string;
  /** Bytes after gunzip. */
  decodedBytes: number;
  serializedClientEventId: unknown;
  requestTimeMs: unknown;
}

/**
 * A log request body from its raw bytes: gunzip ≤ {@link COLLECTOR_MAX_DECOMPRESSED_BYTES} (413), then one bounded pass
 * before parsing (`cutDeepEvents.ts`): syntax (400), nesting ≤ {@link COLLECTOR_MAX_BODY_DEPTH} outside the events (400),
 * and each event nested deeper than {@link COLLECTOR_MAX_EVENT_DEPTH} cut, so that validation refuses it alone; a JSON object with an `events` array of at most
 * {@link COLLECTOR_MAX_EVENTS_PER_REQUEST} (400), `credentialTransferTokens`, when present, an array of at most
 * {@link COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKENS} objects of strings (400 naming it), and a bounded `context` (400).
 *
 * @throws HttpError with the status and what is wrong; a refusal of the body as such is counted in `metrics`.
 */
export function decodeLogBody(raw: Buffer, compressed: boolean, metrics: Metrics): LogBody {
  const refuseBody = (status: number, message: string) => {
    metrics.collectorRequestsRefused.inc({ reason: 'body' });
    return new HttpError(status, message);
  };
  let text: string;
  try {
    text = (compressed ? gunzipSync(raw, { maxOutputLength: COLLECTOR_MAX_DECOMPRESSED_BYTES }) : raw).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw refuseBody(413, `Decompressed body is larger than ${COLLECTOR_MAX_DECOMPRESSED_BYTES} bytes`);
    }
    throw refuseBody(400, 'Malformed gzip body');
  }
  const cut = cutDeepEvents(text, { maxEventDepth: COLLECTOR_MAX_EVENT_DEPTH, maxBodyDepth: COLLECTOR_MAX_BODY_DEPTH });
  if (!cut.ok) throw refuseBody(400, cut.problem === 'depth' ? cut.message : `Malformed JSON body: ${cut.message.slice(0, 200)}`);
  let body: unknown;
  try {
    body = JSON.parse(cut.text);
  } catch (error) {
    throw refuseBody(400, `Malformed JSON body: ${(error as Error).message.slice(0, 200)}`);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'Body must be a JSON object');
  const { events, context, requestTimeMs, serializedClientEventId, credentialTransferTokens } = body as Record<string, unknown>;
  if (!Array.isArray(events)) throw new HttpError(400, 'Body must have an "events" array');
  if (events.length > COLLECTOR_MAX_EVENTS_PER_REQUEST) {
    throw new HttpError(400, `A request carries at most ${COLLECTOR_MAX_EVENTS_PER_REQUEST} events, not ${events.length}`);
  }
  // Spec §7 "optionally credentialTransferTokens": shape-checked here and then dropped — the stored request keeps
  // only the fields the route picks, so a credential never reaches the store (never store secrets).
  if (credentialTransferTokens !== undefined) {
    const problem = credentialTransferTokensProblem(credentialTransferTokens, {
      maxTokens: COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKENS,
      maxTokenChars: COLLECTOR_MAX_CREDENTIAL_TRANSFER_TOKEN_CHARS,
    });
    if (problem !== undefined) throw refuseBody(400, problem);
  }
  return {
    body: body as Record<string, unknown>,
    events,
    tooDeep: cut.tooDeep,
    contextJson: contextJsonOf(context),
    decodedBytes: Buffer.byteLength(text),
    serializedClientEventId,
    requestTimeMs,
  };
}

/** The request `context` serialised: an object, nested at most {@link COLLECTOR_MAX_CONTEXT_DEPTH}, of bounded size. */
function contextJsonOf(context: unknown): string | undefined {
  if (context === undefined) return undefined;
  if (!context || typeof context !== 'object' || Array.isArray(context)) throw new HttpError(400, '"context" must be an object');
  if (nestsDeeperThan(context, COLLECTOR_MAX_CONTEXT_DEPTH)) throw new HttpError(400, `"context" nests deeper than ${COLLECTOR_MAX_CONTEXT_DEPTH} levels`);
  const json = JSON.stringify(context);
  if (Buffer.byteLength(json) > COLLECTOR_MAX_CONTEXT_BYTES) throw new HttpError(400, `"context" is larger than ${COLLECTOR_MAX_CONTEXT_BYTES} bytes`);
  return json;
}
