/**
 * The end screen's suggested videos, as the `next {videoId}` answer carries them (YouTube's shape:
 * `playerOverlays.playerOverlayRenderer.endScreen.watchNextEndScreenRenderer.results[].endScreenVideoRenderer`), and
 * the reader that turns that answer into what the views show.
 */

/** One suggested video as the `next` answer carries it (the fields YouTube's `endScreenVideoRenderer` has). */
export interface EndScreenVideoRenderer {
  videoId: string;
  title: { simpleText: string };
  thumbnail: { thumbnails: { url: string; width?: number; height?: number }[] };
  /** The duration as the viewer reads it (`1:05`), and its accessible wording. */
  lengthText: { simpleText: string; accessibility?: { accessibilityData: { label: string } } };
  lengthInSeconds: number;
  /** The channel: its title, and its id in the run's browse endpoint. */
  shortBylineText: { runs: { text: string; navigationEndpoint?: { browseEndpoint: { browseId: string } } }[] };
}

/** The part of the `next` answer that holds the end screen. */
export interface EndScreenOverlays {
  playerOverlayRenderer: {
    endScreen: { watchNextEndScreenRenderer: { results: { endScreenVideoRenderer: EndScreenVideoRenderer }[] } };
  };
}

/** A suggested video as the views show it. */
export interface Suggestion {
  videoId: string;
  title: string;
  channel: string;
  channelId: string;
  /** The duration as text (`0:12`). */
  length: string;
  /** The poster's URL, or empty when the video has none. */
  thumbnailUrl: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The suggestions a `next` answer holds, in its order: every well-formed `endScreenVideoRenderer`, never the video
 * that is showing (`currentVideoId`) and never one twice. Anything else in the answer (or no answer) gives none: the
 * end screen then shows its buttons alone.
 */
export function readEndScreenSuggestions(body: unknown, currentVideoId: string): Suggestion[] {
  const results = (body as { playerOverlays?: Partial<EndScreenOverlays> } | null)?.playerOverlays?.playerOverlayRenderer?.endScreen?.watchNextEndScreenRenderer
    ?.results;
  if (!Array.isArray(results)) return [];
  const seen = new Set<string>([currentVideoId]);
  const out: Suggestion[] = [];
  for (const result of results as { endScreenVideoRenderer?: Partial<EndScreenVideoRenderer> }[]) {
    const r = result?.endScreenVideoRenderer;
    const videoId = text(r?.videoId);
    const title = text(r?.title?.simpleText);
    if (!videoId || !title || seen.has(videoId)) continue;
    seen.add(videoId);
    const byline = r?.shortBylineText?.runs?.[0];
    out.push({
      videoId,
      title,
      channel: text(byline?.text),
      channelId: text(byline?.navigationEndpoint?.browseEndpoint?.browseId),
      length: text(r?.lengthText?.simpleText),
      thumbnailUrl: text(r?.thumbnail?.thumbnails?.[0]?.url),
    });
  }
  return out;
}
