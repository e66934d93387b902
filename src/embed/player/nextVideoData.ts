import type { PlayerModel } from '../../../streams/player/playerModel';

/** What the views and the page show about the current video. */
export interface VideoData {
  videoId: string;
  title: string;
  author: string;
  durationSeconds: number;
  posterUrl?: string;
}

/**
 * What the views show of the video, from the model: the same object as long as it says the same. While the video
 * that shows is loaded again (a loop, the same id loaded by the host), it stays: its response is on its way, and
 * nothing the viewer sees of it has changed. The title, the channel bar's state (asked per video) and the poster then
 * do not blink and are not asked for again.
 */
export function nextVideoData(shown: VideoData | null, model: PlayerModel): VideoData | null {
  const d = model.response?.videoDetails;
  if (!d) return model.response === null && model.error === null && shown?.videoId === model.videoId ? shown : null;
  if (
    shown &&
    shown.videoId === d.videoId &&
    shown.title === d.title &&
    shown.author === d.author &&
    shown.durationSeconds === d.lengthSeconds &&
    shown.posterUrl === d.thumbnailUrl
  ) {
    return shown;
  }
  return { videoId: d.videoId, title: d.title, author: d.author, durationSeconds: d.lengthSeconds, posterUrl: d.thumbnailUrl };
}
