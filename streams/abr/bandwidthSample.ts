import { ABR_SAMPLE_MIN_BYTES } from '../timing';

/**
 * One segment request as the network saw it, times in milliseconds on the engine's scheduler clock. A transfer that
 * failed or was aborted reports the bytes it got before it stopped and `failed: true`.
 */
export interface SegmentTransfer {
  /** Bytes received (all of them, or as many as arrived before the failure). */
  bytes: number;
  /** When the request left. */
  requestMs: number;
  /** When the response's first byte arrived (equal to `endMs` when none did). */
  firstByteMs: number;
  /** When the last byte arrived, or when the transfer failed. */
  endMs: number;
  /** The segment's number in the rendition (counting from 0), when the transfer fetched a media segment. */
  segmentIndex?: number;
  /** The transfer stopped before the end: a network failure, an abort, an error status. */
  failed?: boolean;
}

/** What one transfer says about the link: a rate and how long it was measured over. */
export interface BandwidthSample {
  bps: number;
  durationMs: number;
  bytes: number;
  /** When the measurement ended (the transfer's `endMs`). */
  endMs: number;
}

/**
 * The bandwidth sample of a transfer: its bytes over the time from the first byte to the last, so the request's
 * latency never counts as bandwidth. A completed transfer under `minBytes` gives none (it measures the connection's
 * first burst, not the link), nor does one measured over no time.
 *
 * A failed transfer is evidence however small: its bytes over the time it had (from the first byte, or from the
 * request when no byte came), so a link that went dead lowers the estimate instead of leaving it where it was.
 */
export function sampleOf(transfer: SegmentTransfer, minBytes = ABR_SAMPLE_MIN_BYTES): BandwidthSample | null {
  const { bytes, requestMs, firstByteMs, endMs, failed = false } = transfer;
  const from = failed && bytes <= 0 ? requestMs : firstByteMs;
  const durationMs = endMs - from;
  if (!(durationMs > 0) || !(bytes >= 0)) return null;
  if (!failed && bytes < minBytes) return null;
  return { bps: (bytes * 8 * 1000) / durationMs, durationMs, bytes, endMs };
}
