import type { ApiViewer } from './verifyApiRequest';
import { CONSISTENCY_JAR_EXPIRATION_S } from '../tokens/limits';
import type { StreamTokens } from '../tokens/streamTokens';

/**
 * The `responseContext` of an API answer (spec §3, §7): the visitor id when the server hands out a new one (the
 * client keeps it and sends it back as `X-Goog-Visitor-Id` and `context.client.visitorData`), and, for a signed-in
 * viewer, a consistency token jar the client returns in `context.request.consistencyTokenJars` until it expires.
 */
export function responseContextFor(viewer: ApiViewer, consistency: StreamTokens): Record<string, unknown> {
  return {
    serviceTrackingParams: [],
    ...(viewer.visitorDataToReturn !== undefined && { visitorData: viewer.visitorDataToReturn }),
    ...(viewer.accountId !== undefined && {
      consistencyTokenJar: { encryptedTokenJarContents: consistency.issue().token, expirationSeconds: String(CONSISTENCY_JAR_EXPIRATION_S) },
    }),
  };
}
