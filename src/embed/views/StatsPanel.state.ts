import type { AdaptiveFormat } from '../../../streams/config/streamingData';
import type { StreamStats } from '../../../streams/player/streamStats';
import { qualityLabel } from './SettingsMenu.state';

/** What the element says when the panel samples it: its picture size and, where the browser counts them, its frames. */
export interface ElementSample {
  videoWidth: number;
  videoHeight: number;
  frames: { dropped: number; total: number } | null;
}

/** Everything one reading of the panel shows. */
export interface StatsInputs {
  videoId: string;
  /** The quality of the rendition on screen ('' or `unknown` before a picture). */
  quality: string;
  /** The video renditions of the answer's ladder ([] for a progressive file). */
  ladder: readonly AdaptiveFormat[];
  stream: StreamStats;
  currentTime: number;
  buffered: readonly (readonly [number, number])[];
  element: ElementSample;
}

/** One line of the panel: its name and its value. */
export interface StatsRow {
  label: string;
  value: string;
}

const NONE = '—';

/** Seconds buffered ahead of `t`: to the end of the range that holds it (0 when none does). */
export function bufferAhead(buffered: readonly (readonly [number, number])[], t: number): number {
  for (const [start, end] of buffered) if (start <= t + 0.1 && t < end) return end - t;
  return 0;
}

/**
 * The MIME type of the rendition on screen: the one the stream decided for that quality (it names the codec family the
 * stream plays), else the first of the ladder with that quality; null before a picture or without a ladder.
 */
export function codecOnScreen(ladder: readonly AdaptiveFormat[], stream: StreamStats, quality: string): string | null {
  if (!quality || quality === 'unknown') return null;
  return stream.mimeTypes[quality] ?? ladder.find((f) => f.quality === quality)?.mimeType ?? null;
}

/** Bits per second as the panel writes them: `850 Kbps`, `4.2 Mbps`. */
export function formatBitrate(bps: number): string {
  return bps >= 1_000_000 ? `${(bps / 1_000_000).toFixed(1)} Mbps` : `${Math.round(bps / 1_000)} Kbps`;
}

const qualityOrNone = (q: string | null) => (q && q !== 'unknown' ? qualityLabel(q) : NONE);

/** The panel's lines, in the order it shows them. */
export function statsRows(s: StatsInputs): StatsRow[] {
  const { videoWidth: w, videoHeight: h, frames } = s.element;
  const optimal = s.stream.optimalQuality;
  const optimalFormat = optimal ? s.ladder.find((f) => f.quality === optimal) : undefined;
  return [
    { label: 'Video ID', value: s.videoId || NONE },
    { label: 'Current Res', value: `${w > 0 && h > 0 ? `${w}×${h}` : NONE} (${qualityOrNone(s.quality)})` },
    {
      label: 'Optimal Res',
      value:
        optimalFormat?.width && optimalFormat.height ? `${optimalFormat.width}×${optimalFormat.height} (${qualityOrNone(optimal)})` : qualityOrNone(optimal),
    },
    { label: 'Codecs', value: codecOnScreen(s.ladder, s.stream, s.quality) ?? NONE },
    { label: 'Connection Speed', value: s.stream.estimateBps !== null ? formatBitrate(s.stream.estimateBps) : NONE },
    { label: 'Buffer Health', value: `${bufferAhead(s.buffered, s.currentTime).toFixed(2)} s` },
    { label: 'Dropped Frames', value: frames ? `${frames.dropped} dropped of ${frames.total}` : NONE },
  ];
}
