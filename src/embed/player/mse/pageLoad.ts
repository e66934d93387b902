import type { BandwidthSample } from '../../../../streams/abr/bandwidthSample';
import { pageLoadSample } from '../../../../streams/abr/pageLoadSample';

/**
 * What the embed's own load measured of the link (the document and every resource fetched so far, from Resource
 * Timing), as a sample on the `Date.now()` clock the engine's transfers use; none when the page came from the cache.
 */
export function pageLoadSamples(perf: Performance = performance): BandwidthSample[] {
  const entries = [...perf.getEntriesByType('navigation'), ...perf.getEntriesByType('resource')] as PerformanceResourceTiming[];
  const sample = pageLoadSample(entries.map(({ transferSize, responseStart, responseEnd }) => ({ transferSize, responseStart, responseEnd })));
  return sample ? [{ ...sample, endMs: perf.timeOrigin + sample.endMs }] : [];
}
