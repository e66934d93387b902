import type { FastifyInstance } from 'fastify';
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
export async function registerApi(app: FastifyInstance, { catalog, verifyApiRequest, tokens }: ApiOptions): Promise<void> {
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
