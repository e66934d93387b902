import { map, merge, type Observable, scan, startWith } from 'rxjs';

/** The stream events the stats read (the adaptive engine's decisions and bandwidth estimates; others are ignored). */
export type StreamStatsEvent = { type: 'decision'; quality: string; mimeType?: string } | { type: 'estimate'; bps: number } | { type: string };

/** What the adaptive stream of the current video said last: its bandwidth estimate, its decision, each rung's type. */
export interface StreamStats {
  /** The latest bandwidth estimate in bits per second (null before the first). */
  estimateBps: number | null;
  /** The quality of the latest decision: the rendition the stream fetches now (null before the first). */
  optimalQuality: string | null;
  /** The MIME type of each quality decided so far, by quality: the codec family the stream plays. */
  mimeTypes: Readonly<Record<string, string>>;
}

export const NO_STREAM_STATS: StreamStats = { estimateBps: null, optimalQuality: null, mimeTypes: {} };

/** One event folded into the stats. */
export function reduceStreamStats(stats: StreamStats, event: StreamStatsEvent): StreamStats {
  if (event.type === 'estimate' && 'bps' in event) return { ...stats, estimateBps: event.bps };
  if (event.type === 'decision' && 'quality' in event) {
    const mimeTypes =
      event.mimeType && stats.mimeTypes[event.quality] !== event.mimeType ? { ...stats.mimeTypes, [event.quality]: event.mimeType } : stats.mimeTypes;
    return { ...stats, optimalQuality: event.quality, mimeTypes };
  }
  return stats;
}

/**
 * The stats of the stream playing: `events$` folded by {@link reduceStreamStats}, starting afresh at each value of
 * `resets$` (a new video's answer), so a video never shows the figures of the one before. Starts with no stats.
 */
export function streamStats(events$: Observable<StreamStatsEvent>, resets$: Observable<unknown>): Observable<StreamStats> {
  return merge(events$.pipe(map((e) => (s: StreamStats) => reduceStreamStats(s, e))), resets$.pipe(map(() => () => NO_STREAM_STATS))).pipe(
    scan((s, f) => f(s), NO_STREAM_STATS),
    startWith(NO_STREAM_STATS),
  );
}
