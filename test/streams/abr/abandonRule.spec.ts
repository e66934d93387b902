import { type AbandonInput, shouldAbandon } from '../../../streams/abr/abandonRule';
import { ABR_ABANDON_IDLE_MS, ABR_ABANDON_MIN_ELAPSED_MS } from '../../../streams/timing';
import { ladder } from './fixtures';

// hd720 (450 kB a segment) at 500 kbps after a drop: 1 s in, 62 500 bytes arrived after a 100 ms first byte.
const slow = (overrides: Partial<AbandonInput> = {}): AbandonInput => ({
  bytesLoaded: 56_250,
  bytesTotal: 450_000,
  elapsedMs: 1_000,
  firstByteMs: 100,
  bufferSeconds: 4,
  rungIndex: 4,
  ladder,
  segmentSeconds: 2,
  ...overrides,
});

describe('shouldAbandon', () => {
  it('switches to the highest lower rung whose segment arrives before the buffer runs dry', () => {
    // 62.5 bytes/ms: the rest (393 750 bytes) needs 6.3 s, the buffer lasts 4 s. medium (125 kB) needs 0.1 + 2 s,
    // large (225 kB) 0.1 + 3.6 s: large is the highest that arrives in time.
    expect(shouldAbandon(slow())).toBe(3);
    expect(shouldAbandon(slow({ bufferSeconds: 2.5 }))).toBe(2);
  });

  it('keeps a transfer that arrives in time', () => {
    expect(shouldAbandon(slow({ bufferSeconds: 6.5 }))).toBeNull();
  });

  it('keeps a transfer when no lower rung would arrive in time either', () => {
    expect(shouldAbandon(slow({ bufferSeconds: 0.2 }))).toBeNull();
  });

  it('never abandons the lowest rung, an unknown size, or before a byte came', () => {
    expect(shouldAbandon(slow({ rungIndex: 0, bytesTotal: 27_500 }))).toBeNull();
    expect(shouldAbandon(slow({ bytesTotal: null }))).toBeNull();
    expect(shouldAbandon(slow({ firstByteMs: null, bytesLoaded: 0 }))).toBeNull();
  });

  it('never abandons within 500 ms of the request (production constant)', () => {
    expect(ABR_ABANDON_MIN_ELAPSED_MS).toBe(500);
    // 499 ms in, 24 938 bytes at the same rate: everything else says abandon.
    expect(shouldAbandon(slow({ elapsedMs: 499, bytesLoaded: 24_938 }))).toBeNull();
    expect(shouldAbandon(slow({ elapsedMs: 500, bytesLoaded: 25_000 }))).toBe(3);
  });

  it('never abandons while no byte came for 2 s (production constant): the link is out, not slow', () => {
    expect(ABR_ABANDON_IDLE_MS).toBe(2_000);
    // The bytes stopped at 1 s; the rate is counted up to then and the rest from now.
    expect(shouldAbandon(slow({ elapsedMs: 2_999, lastBytesMs: 1_000, bufferSeconds: 2 }))).toBe(1);
    expect(shouldAbandon(slow({ elapsedMs: 3_000, lastBytesMs: 1_000, bufferSeconds: 2 }))).toBeNull();
  });
});
