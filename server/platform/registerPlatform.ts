import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CurrentCatalog } from '../media/catalogSource';
import { migrateState } from '../db/migrateState';
import { openStateDatabase, type StateDatabase } from '../db/openStateDatabase';
import { decodeGzipBodies } from '../api/gzipBodies';
import type { IdentityTokens } from '../tokens/identityTokens';
import { responseContextFor } from '../api/responseContext';
import { apiCredentialsHook, type VerifyApiRequest } from '../api/verifyApiRequest';
import type { VideoViewerStateOf } from '../api/nextRoute';
import { registerChannelPreferenceRoute } from './channelPreferenceRoute';
import { registerEditPlaylistRoute } from './editPlaylistRoute';
import { createFeedbackTokensFor } from '../tokens/feedbackTokens';
import { registerFeedbackRoute } from './feedbackRoute';
import { PLATFORM_BODY_MAX_BYTES } from './limits';
import { platformMigrations } from './migrations';
import type { PlatformContext, VerifyAttestation } from './platformContext';
import { createPlatformStore } from './platformStore';
import { registerShareRoutes } from './shareRoutes';
import { registerSubscriptionRoutes } from './subscriptionRoutes';
import { createVideoViewerState } from './videoViewerState';

export type { VerifyAttestation } from './platformContext';

export interface PlatformOptions {
  /** The data folder: the feedback-token key lives in `secrets/`, and the platform's tables in its SQLite file unless `database` is given. */
  dataDir: string;
  /** The state database (`openStateDatabase`), opened and closed by the caller; without it, the data folder's SQLite file. */
  database?: StateDatabase;
  catalog: CurrentCatalog;
  /** The one request-validation step every call runs first. */
  verifyApiRequest: VerifyApiRequest;
  /** The identity tokens (the consistency jar of the answers' `responseContext`). */
  tokens: IdentityTokens;
  /** Checks a subscribe's attestation response (`server/attestation/`; a fake in tests). */
  verifyAttestation: VerifyAttestation;
  /**
   * A secret shared by several servers (`VIDFRAME_STREAM_SECRET`): the feedback-token key is derived from it with a
   * purpose suffix, so every server verifies the tokens any of them issued. Otherwise a key file in the data folder.
   */
  sharedSecret?: string;
  /** The shared secret `sharedSecret` replaced (or its staged successor): feedback tokens under it still verify. */
  previousSharedSecret?: string;
  /** The clock of records and feedback tokens (ms since the epoch); tests fix it. */
  now?: () => number;
}

/** What other domains ask the platform: a video's state for a viewer (answered by `POST /youtubei/v1/next {videoId}`). */
export interface Platform {
  videoViewerState: VideoViewerStateOf;
}

/**
 * The platform calls of spec §7: subscriptions with their bells, watch later, feedback and sharing, with
 * real state per account in the state database (domain `platform` of `migrateState`; SQLite or PostgreSQL). One file
 * per call group:
 *
 * - `subscriptionRoutes.ts`: `subscription/subscribe`, `subscription/unsubscribe` (signed in; subscribe attested);
 * - `channelPreferenceRoute.ts`: `notification/modify_channel_preference` (signed in and subscribed);
 * - `editPlaylistRoute.ts`: `browse/edit_playlist` on watch later (signed in);
 * - `feedbackRoute.ts`: `feedback` with server-issued tokens (anonymous too);
 * - `shareRoutes.ts`: `share/get_share_panel`, `share/get_web_player_share_panel` (anonymous too) and `GET /watch`;
 * - `videoViewerState.ts`: what `next {videoId}` answers, returned to the API domain, which owns that route.
 *
 * Every POST runs the shared verifier first (401 bad token, 403 anti-forgery, …), is bounded to
 * {@link PLATFORM_BODY_MAX_BYTES} compressed or not, and answers a 400 naming the field for anything malformed.
 */
export async function registerPlatform(
  app: FastifyInstance,
  { dataDir, database, catalog, verifyApiRequest, tokens, verifyAttestation, sharedSecret, previousSharedSecret, now = Date.now }: PlatformOptions,
): Promise<Platform> {
  const state = database ?? (await openStateDatabase({ engine: 'sqlite' }, dataDir));
  try {
    await migrateState(state, 'platform', platformMigrations);
  } catch (error) {
    if (!database) await state.close();
    throw error;
  }
  const store = createPlatformStore(state, { now });
  const feedbackTokens = createFeedbackTokensFor({ dataDir, sharedSecret, previousSharedSecret, now });
  const context: PlatformContext = {
    catalog,
    store,
    feedbackTokens,
    verifyAttestation,
    async verify(request: FastifyRequest) {
      const viewer = await verifyApiRequest(request, request.body);
      return { viewer, responseContext: responseContextFor(viewer, tokens.consistency) };
    },
  };

  await app.register(async (scope) => {
    scope.addHook('preParsing', apiCredentialsHook(verifyApiRequest));
    decodeGzipBodies(scope, PLATFORM_BODY_MAX_BYTES);
    if (!database) scope.addHook('onClose', () => state.close());
    registerSubscriptionRoutes(scope, context, PLATFORM_BODY_MAX_BYTES);
    registerChannelPreferenceRoute(scope, context, PLATFORM_BODY_MAX_BYTES);
    registerEditPlaylistRoute(scope, context, PLATFORM_BODY_MAX_BYTES);
    registerFeedbackRoute(scope, context, PLATFORM_BODY_MAX_BYTES);
    registerShareRoutes(scope, context, PLATFORM_BODY_MAX_BYTES);
  });
  return { videoViewerState: createVideoViewerState(context) };
}
