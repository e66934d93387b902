import type { FastifyInstance } from 'fastify';
import { createGunzip } from 'node:zlib';
import type { Catalog } from '../catalog';
import { HttpError } from '../errors';
import { playerResponseFor } from '../playerResponse';
import type { IdentityTokens } from './identityTokens';
import { registerNextRoute } from './nextRoute';
import { responseContextFor } from './responseContext';
import type { VerifyApiRequest } from './verifyApiRequest';

export interface ApiOptions {
  catalog: Catalog;
  verifyApiRequest: VerifyApiRequest;
  tokens: IdentityTokens;
}

/**
 * The reference `/youtubei/v1/…` calls besides logging (the collector owns `log_event` and `video_stats`): one file
 * per call, each running the one request-validation step ({@link VerifyApiRequest}: key, bearer token, logged-in
 * flag, visitor id, anti-forgery field, delegation) on its parsed body before it answers, and each answer carrying
 * the `responseContext` of {@link responseContextFor}.
 */
export async function registerApi(root: FastifyInstance, options: ApiOptions): Promise<void> {
  await root.register(async (app) => registerCalls(app, options));
}

/** Bodies decompress to at most this much (the client gzips bodies of 500–500000 bytes, spec §5). */
const MAX_DECODED_BODY_BYTES = 1024 * 1024;

async function registerCalls(app: FastifyInstance, { catalog, verifyApiRequest, tokens }: ApiOptions): Promise<void> {
  // The client's transport gzips bodies of 500 bytes and more (spec §5), for every call: decompressed before parsing,
  // bounded, and a body that is not gzip is a clear 400.
  app.addHook('preParsing', async (request, _reply, payload) => {
    const encoding = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (encoding === 'identity') return payload;
    if (encoding !== 'gzip') throw new HttpError(415, `Unsupported Content-Encoding "${encoding.slice(0, 40)}" (gzip or none)`);
    let decoded = 0;
    const gunzip = createGunzip();
    gunzip.on('data', (chunk: Buffer) => {
      decoded += chunk.byteLength;
      if (decoded > MAX_DECODED_BODY_BYTES) gunzip.destroy(new HttpError(413, `Decompressed body is larger than ${MAX_DECODED_BODY_BYTES} bytes`));
    });
    const output = payload.pipe(gunzip) as typeof gunzip & { receivedEncodedLength?: number };
    payload.on('data', (chunk: Buffer) => {
      output.receivedEncodedLength = (output.receivedEncodedLength ?? 0) + chunk.byteLength;
    });
    gunzip.on('error', (error) => {
      if (!(error instanceof HttpError)) gunzip.destroy(new HttpError(400, 'Malformed gzip body'));
    });
    return output;
  });
  const respond = (request: Parameters<VerifyApiRequest>[0]) => responseContextFor(verifyApiRequest(request, request.body), tokens.consistency);

  // The player endpoint: what the embed asks when a host loads another video.
  app.post<{ Body: unknown }>('/youtubei/v1/player', (request) => {
    const responseContext = respond(request);
    const body = request.body as { videoId?: unknown } | undefined;
    if (!body || typeof body !== 'object' || !('videoId' in body)) throw new HttpError(400, 'The request body must be a JSON object with a videoId.');
    return { ...playerResponseFor(catalog, body.videoId), responseContext };
  });
  registerNextRoute(app, catalog, respond);
}
