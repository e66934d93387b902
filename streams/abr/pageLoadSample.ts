import { ABR_SAMPLE_MIN_BYTES } from '../timing';
import type { BandwidthSample } from './bandwidthSample';

/** One response the page loaded, as Resource Timing reports it (times in ms on one clock). */
export interface LoadedResponse {
  /** Bytes over the wire, headers included; 0 when it came from a cache or its size is hidden (cross-origin). */
  transferSize: number;
  responseStart: number;
  responseEnd: number;
}

/**
 * What the page's own load says about the link: the bytes of every response that crossed the network over the time
 * any of them was arriving (the union of their first-byte-to-last-byte spans, so responses that shared the link
 * count once), ending at the last byte. None when fewer than `minBytes` crossed it (a page from the cache, or too
 * little to measure the link by) or when they took no measurable time.
 */
export function pageLoadSample(responses: readonly LoadedResponse[], minBytes = ABR_SAMPLE_MIN_BYTES): BandwidthSample | null {
  const spans = responses
    .filter((r) => r.transferSize > 0 && Number.isFinite(r.responseStart) && r.responseStart > 0 && r.responseEnd >= r.responseStart)
    .sort((a, b) => a.responseStart - b.responseStart);
  const bytes = spans.reduce((sum, r) => sum + r.transferSize, 0);
  if (bytes < minBytes) return null;
  let durationMs = 0;
  let from = spans[0]?.responseStart ?? 0;
  let to = from;
  for (const r of spans) {
    if (r.responseStart > to) {
      durationMs += to - from;
      from = r.responseStart;
    }
    to = Math.max(to, r.responseEnd);
  }
  durationMs += to - from;
  if (!(durationMs > 0)) return null;
  return { bps: (bytes * 8 * 1000) / durationMs, durationMs, bytes, endMs: to };
}
