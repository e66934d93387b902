import type { FastifyInstance } from 'fastify';
import { PLATFORM_ENDPOINTS, type FeedbackAnswer } from '../../streams/platform/payloads';
import { badField, fieldsOf, isRecord, requireBoolean } from './fields';
import { FEEDBACK_TOKENS_MAX } from './limits';
import type { PlatformContext } from './platformContext';
import type { FeedbackRecord } from './platformStore';

/** The client playback nonce: 16 characters of `[A-Za-z0-9_-]`, one per playback of a video. */
const CPN = /^[A-Za-z0-9_-]{16}$/;

/**
 * `POST /youtubei/v1/feedback` (spec §7): "not interested" and reports, as tokens the server issued with the video's
 * viewer state (`next {videoId}`); a token it did not sign, or one past its lifetime, is a 400 naming it
 * (`feedbackTokens[1]`). Anonymous viewers may send feedback too: it is recorded under their verified visitor id, a
 * signed-in viewer's under the account. With `shouldMerge`, a token this viewer already sent is merged into its
 * record (counted, not recorded twice), so a resent request does not double a report.
 *
 * Every token is checked before anything is recorded: a request is recorded whole or not at all.
 */
export function registerFeedbackRoute(app: FastifyInstance, context: PlatformContext, bodyLimit: number): void {
  app.post(`/youtubei/v1/${PLATFORM_ENDPOINTS.feedback}`, { bodyLimit }, async (request) => {
    const { viewer, responseContext } = await context.verify(request);
    const fields = fieldsOf(request.body);
    const tokens = fields.feedbackTokens;
    if (!Array.isArray(tokens) || tokens.length === 0 || tokens.length > FEEDBACK_TOKENS_MAX) {
      throw badField('feedbackTokens', `must be a non-empty list of at most ${FEEDBACK_TOKENS_MAX} feedback tokens`);
    }
    const records = tokens.map((token: unknown, i): FeedbackRecord => {
      const verdict = context.feedbackTokens.verify(token);
      if (!verdict.ok) throw badField(`feedbackTokens[${i}]`, verdict.reason);
      return { tokenId: verdict.tokenId, videoId: verdict.videoId, kind: verdict.kind, ...(verdict.kind === 'report' && { reason: verdict.reason }) };
    });
    const feedbackContext = fields.feedbackContext;
    if (!isRecord(feedbackContext)) throw badField('feedbackContext', 'must be an object with the cpn');
    const { cpn } = feedbackContext;
    if (typeof cpn !== 'string' || !CPN.test(cpn)) throw badField('feedbackContext.cpn', 'must be the client playback nonce: 16 characters of [A-Za-z0-9_-]');
    // Signed, not encrypted: either value is accepted, but it must be one of the two.
    requireBoolean(fields, 'isFeedbackTokenUnencrypted');
    const shouldMerge = requireBoolean(fields, 'shouldMerge');
    await context.store.recordFeedback(
      viewer.accountId !== undefined ? { accountId: viewer.accountId } : { visitorId: viewer.visitorId },
      records,
      cpn,
      shouldMerge,
    );
    const answer: FeedbackAnswer = { feedbackResponses: (tokens as string[]).map((token) => ({ token, isProcessed: true })) };
    return { responseContext, ...answer };
  });
}
