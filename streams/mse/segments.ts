import type { AdaptiveFormat } from '../config/playerConfig';
import { numberText } from '../shared/numberText';

/** The number of media segments of a format. */
export const segmentCount = (format: AdaptiveFormat): number => format.segmentBytes.length;

/** When segment `index` (0 for the first) starts, in seconds of media time. */
export const segmentStart = (format: AdaptiveFormat, index: number): number => index * format.segmentSeconds;

/**
 * The segment that holds media time `seconds` (0-based, at most the last one; a time on a boundary belongs to the
 * segment it starts). A tenth of a millisecond of slack absorbs the rounding of buffered ranges' ends.
 */
export function segmentIndexAt(format: AdaptiveFormat, seconds: number): number {
  const index = Math.floor(Math.max(0, seconds) / format.segmentSeconds + 1e-4);
  return Math.min(index, segmentCount(format) - 1);
}

/**
 * The URL of segment `index` (0-based): the template with `$Number$` (or `$Number%0Nd$`, zero-padded to N digits) set
 * to `startNumber + index`; `$$` is a literal dollar sign, as in a DASH `SegmentTemplate`.
 */
export function segmentUrl(format: AdaptiveFormat, index: number): string {
  const number = format.startNumber + index;
  return format.segmentUrl.replace(/\$(Number(?:%0(\d+)d)?)?\$/g, (whole, name: string | undefined, width: string | undefined) => {
    if (name === undefined) return '$';
    return width === undefined ? numberText(number) : numberText(number).padStart(Number(width), '0');
  });
}
