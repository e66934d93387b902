import { randomBytes } from 'node:crypto';
import type { AdaptiveFormat, PlaybackTracking, PlayerResponse, StreamingData, Storyboard } from '../../streams/config/playerConfig';
import { isValidVideoId } from '../../streams/config/playerConfig';
import { PLAYER_HEARTBEAT_INTERVAL_MS } from '../../streams/timing';
import { type Catalog, type CatalogVideo, findVideo } from './catalog';
import type { CatalogAdaptive, CatalogStoryboard } from './catalogAdaptive';

const encodePath = (file: string): string => file.split('/').map(encodeURIComponent).join('/');

/** Root-relative URL of a file under the media folder (never built from the server's own host and port). */
export const mediaUrl = (file: string): string => `/media/${encodePath(file)}`;

/** Root-relative URL of one of a video's files: under `/media/` for the samples, `/library/` for an ingested video. */
export const fileUrl = (video: Pick<CatalogVideo, 'root'>, file: string): string => (video.root === 'library' ? `/library/${encodePath(file)}` : mediaUrl(file));

/** The URL template of a segment path template: the path encoded, its `$Number…$` placeholder kept as it is. */
const templateUrl = (video: Pick<CatalogVideo, 'root'>, template: string): string => {
  const [before, token, after] = template.split(/(\$Number(?:%0[1-9]d)?\$)/);
  return fileUrl(video, before!) + token! + encodePath(after ?? '');
};

/** The adaptive part of the streaming data: the ladder's formats and its manifests, every URL root-relative. */
function adaptiveStreamingData(video: CatalogVideo, adaptive: CatalogAdaptive): Omit<StreamingData, 'formats'> {
  const adaptiveFormats = adaptive.formats.map(
    (f): AdaptiveFormat => ({
      kind: f.kind,
      ...(f.kind === 'video' && { quality: f.quality, width: f.width, height: f.height }),
      bitrate: f.bitrate,
      mimeType: f.mimeType,
      initUrl: fileUrl(video, f.init),
      segmentUrl: templateUrl(video, f.segments),
      startNumber: f.startNumber,
      segmentSeconds: f.segmentSeconds,
      segmentBytes: [...f.segmentBytes],
    }),
  );
  const dashManifestUrls = Object.fromEntries(Object.entries(adaptive.dash).map(([family, file]) => [family, fileUrl(video, file)]));
  return { adaptiveFormats, dashManifestUrls, ...(adaptive.hls !== undefined && { hlsManifestUrl: fileUrl(video, adaptive.hls) }) };
}

const storyboardOf = (video: CatalogVideo, { sheets, ...layout }: CatalogStoryboard): Storyboard => ({
  sheetUrls: sheets.map((sheet) => fileUrl(video, sheet)),
  ...layout,
});

/** A new per-response id (`ei`): 16 random bytes, base64url (22 characters). */
export const newResponseEventId = (): string => randomBytes(16).toString('base64url');

/**
 * The ping beacons of a playable response (spec §7), root-relative, served by the collector (`server/collector/pings`).
 * `ei` ties every ping of one playback to this response, so two loads of the same video are told apart at the collector.
 * A looping playlist of one (`loop=1&playlist=<id>`) plays the same response again at each loop without asking for a
 * new one: its loops share the `ei`; each loop is a new playback (a new `cpn`).
 */
export function playbackTrackingFor(videoId: string, ei: string): PlaybackTracking {
  const query = new URLSearchParams({ docid: videoId, ei }).toString();
  return {
    videostatsPlaybackUrl: { baseUrl: `/api/stats/playback?${query}` },
    videostatsWatchtimeUrl: { baseUrl: `/api/stats/watchtime?${query}` },
  };
}

/** Who asks, as the player endpoint knows it: signed in or not, and the region of the request's client context. */
export interface PlayerViewer {
  signedIn: boolean;
  /** `context.client.gl`, upper case; absent when the request names none. */
  gl?: string;
}

/** A video whose answer depends on who asks: the page, which does not know the viewer yet, gives only its details. */
const dependsOnViewer = (video: CatalogVideo): boolean => video.requiresSignIn === true || (video.blockedRegions?.length ?? 0) > 0;

/**
 * What the player needs to know about a video before loading media (spec §3, §8): playable with its details,
 * formats (and its adaptive ladder, storyboard and chapters, when it has them) and captions, or an error with its internal error name — `api.invalidparam` for a malformed id,
 * `video.unavailable` for an id the catalogue does not hold, `embedder.identity.denied` for a video its owner does
 * not allow to be embedded, `mrm.blocked` for a video blocked in the viewer's region (`gl`), and `LOGIN_REQUIRED`
 * (the player's `auth`) for one only signed-in viewers may play. A broken file is only found out by the browser when
 * it tries to decode it.
 *
 * `viewer` is who asks the player endpoint; without it (the embed page, served before the viewer is known) a video
 * whose answer depends on the viewer gets its details only (`viewerDependent`), and the player asks the endpoint.
 * A video whose playback needs the server's heartbeat carries `heartbeatParams` (`server/api/heartbeatRoute.ts`).
 */
export function playerResponseFor(
  catalog: Catalog,
  videoId: unknown,
  { ei = newResponseEventId(), viewer }: { ei?: string; viewer?: PlayerViewer } = {},
): PlayerResponse {
  if (!isValidVideoId(videoId)) {
    return { playabilityStatus: { status: 'ERROR', errorCode: 'api.invalidparam', reason: 'Invalid video id.' } };
  }
  const video = findVideo(catalog, videoId);
  if (!video) {
    return { playabilityStatus: { status: 'ERROR', errorCode: 'video.unavailable', reason: 'Video unavailable.' } };
  }
  const videoDetails = {
    videoId: video.id,
    title: video.title,
    author: video.author,
    channelId: video.channelId,
    lengthSeconds: video.durationSeconds,
    thumbnailUrl: video.poster ? fileUrl(video, video.poster) : undefined,
  };
  if (video.embeddable === false) {
    return {
      playabilityStatus: {
        status: 'UNPLAYABLE',
        errorCode: 'embedder.identity.denied',
        reason: 'The owner of this video does not allow it to be played on other websites.',
      },
      videoDetails,
    };
  }
  if (dependsOnViewer(video) && !viewer) return { playabilityStatus: { status: 'OK' }, videoDetails, viewerDependent: true };
  if (viewer?.gl !== undefined && video.blockedRegions?.includes(viewer.gl)) {
    return {
      playabilityStatus: { status: 'UNPLAYABLE', errorCode: 'mrm.blocked', reason: 'The uploader has not made this video available in your country.' },
      videoDetails,
    };
  }
  if (video.requiresSignIn === true && !viewer?.signedIn) {
    return { playabilityStatus: { status: 'LOGIN_REQUIRED', reason: 'Sign in to watch this video.' }, videoDetails };
  }
  return {
    playabilityStatus: { status: 'OK' },
    videoDetails,
    ...(video.heartbeatStopAfterSeconds !== undefined && {
      heartbeatParams: { intervalMilliseconds: String(PLAYER_HEARTBEAT_INTERVAL_MS), heartbeatToken: ei, softFailOnError: false },
    }),
    streamingData: {
      formats: video.renditions.map((r) => ({
        quality: r.quality,
        width: r.width,
        height: r.height,
        url: fileUrl(video, r.file),
        mimeType: r.mimeType,
        contentLength: r.bytes,
      })),
      ...(video.adaptive && adaptiveStreamingData(video, video.adaptive)),
    },
    ...(video.storyboard && { storyboard: storyboardOf(video, video.storyboard) }),
    captions: {
      tracks: (video.captions ?? []).map((c) => ({ languageCode: c.languageCode, languageName: c.languageName, url: fileUrl(video, c.file) })),
    },
    ...(video.chapters && {
      chapters: video.chapters.map((c) => ({ title: c.title, timeRangeStartMillis: Math.round(c.startSeconds * 1000) })),
    }),
    playbackTracking: playbackTrackingFor(video.id, ei),
  };
}
