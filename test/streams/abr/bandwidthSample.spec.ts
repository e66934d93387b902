import { sampleOf } from '../../../streams/abr/bandwidthSample';
import { ABR_SAMPLE_MIN_BYTES } from '../../../streams/timing';

describe('sampleOf', () => {
  it('measures from the first byte to the last: the request latency is not bandwidth', () => {
    // 100 000 bytes = 800 000 bits over the 1 000 ms after the first byte (the 400 ms before it do not count).
    expect(sampleOf({ bytes: 100_000, requestMs: 0, firstByteMs: 400, endMs: 1_400 })).toEqual({
      bps: 800_000,
      durationMs: 1_000,
      bytes: 100_000,
      endMs: 1_400,
    });
  });

  it('gives no sample for a completed transfer under 16 KB (production constant)', () => {
    expect(ABR_SAMPLE_MIN_BYTES).toBe(16_000);
    expect(sampleOf({ bytes: 15_999, requestMs: 0, firstByteMs: 10, endMs: 20 })).toBeNull();
    expect(sampleOf({ bytes: 16_000, requestMs: 0, firstByteMs: 10, endMs: 20 })?.bps).toBe(12_800_000);
    expect(sampleOf({ bytes: 1_000, requestMs: 0, firstByteMs: 10, endMs: 20 }, 500)?.bytes).toBe(1_000);
  });

  it('gives no sample for a transfer measured over no time', () => {
    expect(sampleOf({ bytes: 50_000, requestMs: 0, firstByteMs: 300, endMs: 300 })).toBeNull();
    expect(sampleOf({ bytes: 50_000, requestMs: 0, firstByteMs: 300, endMs: 200 })).toBeNull();
  });

  it('counts a failed transfer however small: the bytes it got over the time it had', () => {
    expect(sampleOf({ bytes: 1_000, requestMs: 0, firstByteMs: 100, endMs: 1_100, failed: true })).toEqual({
      bps: 8_000,
      durationMs: 1_000,
      bytes: 1_000,
      endMs: 1_100,
    });
  });

  it('counts a failed transfer that got nothing from its request: a dead link measures 0', () => {
    expect(sampleOf({ bytes: 0, requestMs: 0, firstByteMs: 5_000, endMs: 5_000, failed: true })).toEqual({ bps: 0, durationMs: 5_000, bytes: 0, endMs: 5_000 });
  });
});
