import { pageLoadSample } from '../../../streams/abr/pageLoadSample';

/** The page's own load as a bandwidth sample (streams/abr/pageLoadSample.ts). */
describe('pageLoadSample', () => {
  it('counts responses that shared the link over the time any of them was arriving', () => {
    // 40 kB from 100 to 200 ms and 20 kB from 150 to 250 ms: 60 kB over 150 ms.
    const sample = pageLoadSample([
      { transferSize: 40_000, responseStart: 100, responseEnd: 200 },
      { transferSize: 20_000, responseStart: 150, responseEnd: 250 },
    ]);
    expect(sample).toEqual({ bps: 3_200_000, durationMs: 150, bytes: 60_000, endMs: 250 });
  });

  it('leaves out the gaps between responses, and responses from the cache', () => {
    // 20 kB over 50 ms, an idle 500 ms, 20 kB over 50 ms; a cached response (0 bytes) adds no time.
    const sample = pageLoadSample([
      { transferSize: 20_000, responseStart: 600, responseEnd: 650 },
      { transferSize: 20_000, responseStart: 50, responseEnd: 100 },
      { transferSize: 0, responseStart: 200, responseEnd: 400 },
    ]);
    expect(sample).toEqual({ bps: 3_200_000, durationMs: 100, bytes: 40_000, endMs: 650 });
  });

  it('gives none for too few bytes, no measurable time, or entries without timings', () => {
    expect(pageLoadSample([{ transferSize: 10_000, responseStart: 10, responseEnd: 20 }])).toBeNull();
    expect(pageLoadSample([{ transferSize: 50_000, responseStart: 10, responseEnd: 10 }])).toBeNull();
    expect(pageLoadSample([{ transferSize: 50_000, responseStart: 0, responseEnd: 0 }])).toBeNull();
    expect(pageLoadSample([{ transferSize: 50_000, responseStart: NaN, responseEnd: 30 }])).toBeNull();
    expect(pageLoadSample([])).toBeNull();
  });
});
