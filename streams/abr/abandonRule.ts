import { ABR_ABANDON_IDLE_MS, ABR_ABANDON_MIN_ELAPSED_MS, ABR_SAMPLE_MIN_BYTES } from '../timing';
import { type Rung, segmentBytesOf } from './abrRules';

/** The transfer in flight, as the abandon rule sees it. Times are milliseconds since its request. */
export interface AbandonInput {
  bytesLoaded: number;
  /** The segment's size, or null when neither the manifest nor the response says. */
  bytesTotal: number | null;
  elapsedMs: number;
  /** When the first byte arrived, or null while none has. */
  firstByteMs: number | null;
  /** When the latest bytes arrived (`elapsedMs` when unknown). */
  lastBytesMs?: number;
  bufferSeconds: number;
  rungIndex: number;
  ladder: readonly Rung[];
  segmentIndex?: number;
  segmentSeconds: number;
}

export interface AbandonOptions {
  minElapsedMs?: number;
  minBytes?: number;
  idleMs?: number;
}

/**
 * Whether to abandon the transfer in flight, and for which rung: when, at the rate this transfer is getting, the rest
 * of its segment arrives after the buffer runs dry, the highest lower rung whose whole segment (after the same time to
 * first byte) arrives before that. Null otherwise, and always for the lowest rung, before `minElapsedMs`, before
 * `minBytes` arrived (no rate to trust), when no lower rung helps, and while no byte has come for `idleMs`: the link
 * is out, not slow, and a request for a lower segment would wait just as long.
 */
export function shouldAbandon(
  input: AbandonInput,
  { minElapsedMs = ABR_ABANDON_MIN_ELAPSED_MS, minBytes = ABR_SAMPLE_MIN_BYTES, idleMs = ABR_ABANDON_IDLE_MS }: AbandonOptions = {},
): number | null {
  const { bytesLoaded, bytesTotal, elapsedMs, firstByteMs, bufferSeconds, rungIndex, ladder, segmentIndex, segmentSeconds } = input;
  const lastBytesMs = input.lastBytesMs ?? elapsedMs;
  if (rungIndex <= 0 || bytesTotal === null || firstByteMs === null || elapsedMs < minElapsedMs || bytesLoaded < minBytes) return null;
  if (elapsedMs - lastBytesMs >= idleMs) return null;
  // The rate while bytes came; the rest is counted from now.
  const receivingMs = lastBytesMs - firstByteMs;
  if (receivingMs <= 0) return null;
  const bytesPerMs = bytesLoaded / receivingMs;
  const restMs = (bytesTotal - bytesLoaded) / bytesPerMs;
  const bufferMs = bufferSeconds * 1000;
  if (restMs <= bufferMs) return null;
  for (let i = Math.min(rungIndex, ladder.length) - 1; i >= 0; i--) {
    const rung = ladder[i];
    if (rung && firstByteMs + segmentBytesOf(rung, segmentSeconds, segmentIndex) / bytesPerMs <= bufferMs) return i;
  }
  return null;
}
