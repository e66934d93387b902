import type { EndScreenOverlays, EndScreenVideoRenderer } from '../../streams/player/endScreenSuggestions';
import { formatTime } from '../../streams/shared/formatTime';
import { END_SCREEN_MAX_SUGGESTIONS } from '../../streams/timing';
import type { Catalog, CatalogVideo } from '../media/catalog';
import { fileUrl, type PlayerViewer } from '../media/playerResponse';

function renderer(video: CatalogVideo): { endScreenVideoRenderer: EndScreenVideoRenderer } {
  const length = formatTime(video.durationSeconds);
  return {
    endScreenVideoRenderer: {
      videoId: video.id,
      title: { simpleText: video.title },
      thumbnail: { thumbnails: video.poster ? [{ url: fileUrl(video, video.poster) }] : [] },
      lengthText: { simpleText: length, accessibility: { accessibilityData: { label: length } } },
      lengthInSeconds: Math.floor(video.durationSeconds),
      shortBylineText: { runs: [{ text: video.author, navigationEndpoint: { browseEndpoint: { browseId: video.channelId } } }] },
    },
  };
}

/**
 * The end screen of `next {videoId}` (YouTube's `playerOverlays`): the catalogue's other videos an embed can play
 * (embeddable, with a length), the video's own channel first, at most {@link END_SCREEN_MAX_SUGGESTIONS}; never the
 * video itself, nor one this viewer could not play (sign-in only for an anonymous viewer, blocked in the viewer's
 * region). `sameChannelOnly` (the player's `rel=0`) keeps only the video's channel. The server filters, not the
 * embed: it caps the list, and a cap taken before a filter in the embed could leave a `rel=0` end screen empty while
 * the channel has more videos.
 */
export function endScreenOverlays(
  catalog: Catalog,
  video: CatalogVideo,
  sameChannelOnly: boolean,
  viewer: PlayerViewer = { signedIn: false },
): EndScreenOverlays {
  const playable = (v: CatalogVideo) =>
    v.embeddable &&
    v.durationSeconds > 0 &&
    !(v.requiresSignIn === true && !viewer.signedIn) &&
    !(viewer.gl !== undefined && v.blockedRegions?.includes(viewer.gl));
  const candidates = catalog.videos.filter((v) => v.id !== video.id && playable(v));
  const own = candidates.filter((v) => v.channelId === video.channelId);
  const others = sameChannelOnly ? [] : candidates.filter((v) => v.channelId !== video.channelId);
  const results = [...own, ...others].slice(0, END_SCREEN_MAX_SUGGESTIONS).map(renderer);
  return { playerOverlayRenderer: { endScreen: { watchNextEndScreenRenderer: { results } } } };
}
