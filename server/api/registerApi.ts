import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../media/catalog';
import { HttpError } from '../http/errors';
import { playerResponseFor } from '../media/playerResponse';
import { decodeGzipBodies } from './gzipBodies';
import type { IdentityTokens } from '../tokens/identityTokens';
import { registerNextRoute, type VideoViewerStateOf } from './nextRoute';
import { responseContextFor } from './responseContext';
import type { ApiViewer, VerifyApiRequest } from './verifyApiRequest';

export interface ApiOptions {
  catalog: Catalog;
  verifyApiRequest: VerifyApiRequest;
  tokens: IdentityTokens;
  /** A video's state for a viewer, which `next {videoId}` answers (the platform domain's `videoViewerState`). */
  videoViewerState?: VideoViewerStateOf;
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

async function registerCalls(app: FastifyInstance, { catalog, verifyApiRequest, tokens, videoViewerState }: ApiOptions): Promise<void> {
  decodeGzipBodies(app, MAX_DECODED_BODY_BYTES);
  const verify = (request: Parameters<VerifyApiRequest>[0]): { viewer: ApiViewer; responseContext: Record<string, unknown> } => {
    const viewer = verifyApiRequest(request, request.body);
    return { viewer, responseContext: responseContextFor(viewer, tokens.consistency) };
  };
  const respond = (request: Parameters<VerifyApiRequest>[0]) => verify(request).responseContext;

  // The player endpoint: what the embed asks when a host loads another video.
  app.post<{ Body: unknown }>('/youtubei/v1/player', (request) => {
    const responseContext = respond(request);
    const body = request.body as { videoId?: unknown } | undefined;
    if (!body || typeof body !== 'object' || !('videoId' in body)) throw new HttpError(400, 'The request body must be a JSON object with a videoId.');
    return { ...playerResponseFor(catalog, body.videoId), responseContext };
  });
  registerNextRoute(app, catalog, verify, videoViewerState);
}
