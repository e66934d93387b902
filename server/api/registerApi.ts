import type { FastifyInstance } from 'fastify';
import type { CurrentCatalog } from '../media/catalogSource';
import { HttpError } from '../http/errors';
import { playerResponseFor } from '../media/playerResponse';
import { playerViewerOf } from './playerViewer';
import { registerHeartbeatRoute } from './heartbeatRoute';
import { decodeGzipBodies } from './gzipBodies';
import type { IdentityTokens } from '../tokens/identityTokens';
import { registerNextRoute, type VideoViewerStateOf } from './nextRoute';
import { responseContextFor } from './responseContext';
import { apiCredentialsHook, type ApiViewer, type VerifyApiRequest } from './verifyApiRequest';

export interface ApiOptions {
  catalog: CurrentCatalog;
  verifyApiRequest: VerifyApiRequest;
  tokens: IdentityTokens;
  /** A video's state for a viewer, which `next {videoId}` answers (the platform domain's `videoViewerState`). */
  videoViewerState?: VideoViewerStateOf;
  /** Signs the heartbeat's server data (shared by several servers); default: a key of this process. */
  heartbeatSecret?: string;
  now?: () => number;
}

/**
 * The reference `/youtubei/v1/…` calls besides logging (the collector owns `log_event` and `video_stats`): one file
 * per call, each running the one request-validation step ({@link VerifyApiRequest}: key, bearer token, logged-in
 * flag, visitor id, anti-forgery field, delegation) on its parsed body before it answers (its credential steps before
 * the body is read), and each answer carrying the `responseContext` of {@link responseContextFor}.
 */
export async function registerApi(root: FastifyInstance, options: ApiOptions): Promise<void> {
  await root.register(async (app) => registerCalls(app, options));
}

/** Bodies decompress to at most this much (the client gzips bodies of 500–500000 bytes, spec §5). */
const MAX_DECODED_BODY_BYTES = 1024 * 1024;

async function registerCalls(app: FastifyInstance, { catalog, verifyApiRequest, tokens, videoViewerState, heartbeatSecret, now }: ApiOptions): Promise<void> {
  app.addHook('preParsing', apiCredentialsHook(verifyApiRequest));
  decodeGzipBodies(app, MAX_DECODED_BODY_BYTES);
  const verify = async (request: Parameters<VerifyApiRequest>[0]): Promise<{ viewer: ApiViewer; responseContext: Record<string, unknown> }> => {
    const viewer = await verifyApiRequest(request, request.body);
    return { viewer, responseContext: responseContextFor(viewer, tokens.consistency) };
  };

  // The player endpoint: what the embed asks when a host loads another video.
  // The answer depends on the viewer: signed in or not, and the region of the client context.
  app.post<{ Body: unknown }>('/youtubei/v1/player', async (request) => {
    const { viewer, responseContext } = await verify(request);
    const body = request.body as { videoId?: unknown } | undefined;
    if (!body || typeof body !== 'object' || !('videoId' in body)) throw new HttpError(400, 'The request body must be a JSON object with a videoId.');
    return { ...playerResponseFor(catalog.current(body.videoId), body.videoId, { viewer: playerViewerOf(viewer, body) }), responseContext };
  });
  registerHeartbeatRoute(app, { catalog, verify, viewerOf: playerViewerOf, secret: heartbeatSecret, now });
  registerNextRoute(app, catalog, verify, videoViewerState);
}
