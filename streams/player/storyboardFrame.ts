import type { Storyboard } from '../config/streamingData';

/** One seek-preview thumbnail: its sheet, and the rectangle it fills on that sheet, in CSS pixels. */
export interface StoryboardFrame {
  sheetUrl: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The thumbnail for time `t`: number ⌊t / intervalSeconds⌋ (clamped to the ones there are), on sheet ⌊n / (columns·rows)⌋
 * at column n mod columns and row ⌊(n mod columns·rows) / columns⌋ of that sheet. Null without a storyboard, with no
 * thumbnail, or when the thumbnail's sheet is missing: no preview rather than a wrong one.
 */
export function storyboardFrame(storyboard: Storyboard | undefined | null, t: number): StoryboardFrame | null {
  if (!storyboard) return null;
  const { sheetUrls, intervalSeconds, columns, rows, thumbWidth: w, thumbHeight: h, count } = storyboard;
  const perSheet = columns * rows;
  if (!(count > 0) || !(perSheet > 0) || !(intervalSeconds > 0) || !Number.isFinite(t)) return null;
  const n = Math.min(count - 1, Math.max(0, Math.floor(t / intervalSeconds)));
  const sheetUrl = sheetUrls[Math.floor(n / perSheet)];
  if (sheetUrl === undefined) return null;
  const onSheet = n % perSheet;
  return { sheetUrl, x: (onSheet % columns) * w, y: Math.floor(onSheet / columns) * h, w, h };
}
