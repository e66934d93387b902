import type { TimeseriesQuery } from './types';

/** A time range the charts can show: how far back, and how wide each bucket is. */
export interface TimeRange {
  key: TimeRangeKey;
  /** As the range picker shows it. */
  label: string;
  /** As a sentence says it ("in the last 5 minutes"). */
  phrase: string;
  rangeMs: number;
  bucketMs: number;
}
export type TimeRangeKey = '5m' | '15m' | '1h' | '6h' | '24h';

/** The ranges, shortest first; each gives 140–180 points, well under the collector's 1000 buckets per call. */
export const TIME_RANGES: readonly [TimeRange, ...TimeRange[]] = [
  { key: '5m', label: '5 min', phrase: 'the last 5 minutes', rangeMs: 5 * 60_000, bucketMs: 2000 },
  { key: '15m', label: '15 min', phrase: 'the last 15 minutes', rangeMs: 15 * 60_000, bucketMs: 5000 },
  { key: '1h', label: '1 hour', phrase: 'the last hour', rangeMs: 3_600_000, bucketMs: 20_000 },
  { key: '6h', label: '6 hours', phrase: 'the last 6 hours', rangeMs: 6 * 3_600_000, bucketMs: 120_000 },
  { key: '24h', label: '24 hours', phrase: 'the last 24 hours', rangeMs: 24 * 3_600_000, bucketMs: 600_000 },
];
export const DEFAULT_TIME_RANGE: TimeRangeKey = '5m';

export const timeRangeOf = (key: TimeRangeKey): TimeRange => TIME_RANGES.find((r) => r.key === key) ?? TIME_RANGES[0];

/**
 * The timeseries window of `range` at `nowMs`: bucket-aligned on both ends (so the collector's buckets and the
 * chart's slots coincide), ending with the bucket that holds `nowMs`.
 */
export function timeseriesWindow(range: TimeRange, nowMs: number): TimeseriesQuery {
  const { bucketMs } = range;
  const untilMs = (Math.floor(nowMs / bucketMs) + 1) * bucketMs;
  return { sinceMs: untilMs - Math.ceil(range.rangeMs / bucketMs) * bucketMs, untilMs, bucketMs };
}
