import { channelOf, findVideo, isValidVideoId } from '../media/catalog';
import { HttpError } from '../http/errors';
import type { VideoViewerStateOf } from '../api/nextRoute';
import { REPORT_REASONS } from '../tokens/feedbackTokens';
import type { PlatformContext } from './platformContext';

/**
 * What `POST /youtubei/v1/next {videoId}` answers (the route is the API's, `server/api/nextRoute.ts`): the video's
 * channel and, for a signed-in viewer, whether the account is subscribed (with the bell level) and whether the video
 * is in its watch later; absent for an anonymous one. Fresh feedback tokens for "not interested" and each report
 * reason come with it, whoever asks (anonymous viewers may send feedback).
 *
 * A delegated request reads the account's own state, as the writes do (see `requireAccount`).
 */
export function createVideoViewerState(context: Pick<PlatformContext, 'catalog' | 'store' | 'feedbackTokens'>): VideoViewerStateOf {
  return async (viewer, videoId) => {
    if (!isValidVideoId(videoId)) throw new HttpError(400, 'videoId must be a video id (11 characters of [A-Za-z0-9_-])');
    const video = findVideo(context.catalog.current(videoId), videoId);
    if (!video) throw new HttpError(404, `videoId: no video ${videoId}`);
    const channel = channelOf(video);
    const { accountId } = viewer;
    const level = accountId !== undefined ? await context.store.subscription(accountId, channel.id) : undefined;
    return {
      videoId: video.id,
      channel: {
        channelId: channel.id,
        title: channel.title,
        ...(accountId !== undefined && { subscribed: level !== undefined }),
        ...(level !== undefined && { notificationLevel: level }),
      },
      ...(accountId !== undefined && { inWatchLater: await context.store.isInWatchLater(accountId, video.id) }),
      feedback: {
        notInterested: context.feedbackTokens.issue({ videoId: video.id, kind: 'not_interested' }),
        report: REPORT_REASONS.map(({ reason, label }) => ({
          reason,
          label,
          token: context.feedbackTokens.issue({ videoId: video.id, kind: 'report', reason }),
        })),
      },
    };
  };
}
