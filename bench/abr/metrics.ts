/**
 * The adaptive benchmark's figures for one play, from what the probe saw of the `<video>` element
 * (`bench/abr/probe.ts`), the same for every player:
 *
 * - startup: from the navigation to the first `playing` after which the media time advances;
 * - stalls and rebuffer time: each `waiting` after the start, until `playing` (or the media time advancing again, or
 *   the end of the play); the rebuffer ratio is the rebuffer time over the time since the start;
 * - the rendition on screen: `videoHeight`, mapped to the ladder's bitrate; the bitrate is weighted by the media time
 *   played at each height; switches are the changes of height after the start;
 * - the linear QoE of the ABR literature over the segments played: Σ q(R_k) − 4.3 × rebuffer seconds − Σ |q(R_k+1) −
 *   q(R_k)|, q in Mbit/s, R_k the bitrate shown in segment k (by media time); the startup is reported on its own, not
 *   counted as rebuffering. `qoePerSegment` divides by the segments played, so plays of different reach compare.
 */
import type { Probe } from './probe';

/** The rebuffer penalty per second of the linear QoE (MPC, Pensieve). */
export const QOE_REBUFFER_PENALTY = 4.3;

export interface PlayMetrics {
  played: boolean;
  startupMs: number;
  stalls: number;
  rebufferSeconds: number;
  rebufferRatio: number;
  /** Weighted by media time played, in kbit/s. */
  bitrateKbps: number;
  switches: number;
  segments: number;
  qoe: number;
  qoePerSegment: number;
  /** The heights shown after the start, each change with its time (ms since the navigation). */
  renditions: [ms: number, height: number][];
}

export interface PlayContext {
  /** Epoch ms of the navigation and of the end of the play. */
  navigationAt: number;
  endAt: number;
  /** The bitrate (bit/s) of the rendition of this height. */
  bitrateOf(height: number): number;
  segmentSeconds: number;
}

const NOT_PLAYED: PlayMetrics = {
  played: false,
  startupMs: NaN,
  stalls: NaN,
  rebufferSeconds: NaN,
  rebufferRatio: NaN,
  bitrateKbps: NaN,
  switches: NaN,
  segments: 0,
  qoe: NaN,
  qoePerSegment: NaN,
  renditions: [],
};

/** The epoch ms of the first `playing` after which the media time advances before the element waits again, or undefined. */
function startOf(probe: Probe): number | undefined {
  const later = [...probe.events.map(([, t, ct]) => [t, ct] as const), ...probe.samples.map(([t, ct]) => [t, ct] as const)];
  for (const [type, t, ct] of probe.events) {
    if (type !== 'playing') continue;
    const until = probe.events.find(([next, t2]) => t2 > t && (next === 'waiting' || next === 'pause' || next === 'ended'))?.[1] ?? Infinity;
    if (later.some(([t2, ct2]) => t2 >= t && t2 < until && ct2 > ct + 0.01)) return t;
  }
  return undefined;
}

/** The stalls after `start`: [from, to] epoch ms and the media time where each began. */
function stallsOf(probe: Probe, start: number, endAt: number): { from: number; to: number; ct: number }[] {
  const timeline = [
    ...probe.events.filter(([, t]) => t > start).map(([type, t, ct]) => ({ type, t, ct })),
    ...probe.samples.filter(([t]) => t > start).map(([t, ct]) => ({ type: 'sample', t, ct })),
  ].sort((a, b) => a.t - b.t);
  const stalls: { from: number; to: number; ct: number }[] = [];
  let open: { from: number; ct: number } | undefined;
  for (const { type, t, ct } of timeline) {
    if (!open && type === 'waiting') open = { from: t, ct };
    else if (open && (type === 'playing' || type === 'ended' || (type === 'sample' && ct > open.ct + 0.05))) {
      stalls.push({ ...open, to: t });
      open = undefined;
    }
  }
  if (open) stalls.push({ ...open, to: Math.max(open.from, endAt) });
  return stalls;
}

export function playMetrics(probe: Probe, { navigationAt, endAt, bitrateOf, segmentSeconds }: PlayContext): PlayMetrics {
  const start = startOf(probe);
  if (start === undefined || start > endAt) return NOT_PLAYED;
  const stalls = stallsOf(probe, start, endAt);
  const rebufferSeconds = stalls.reduce((sum, s) => sum + (Math.min(s.to, endAt) - s.from) / 1000, 0);

  // Media time played at each height, per segment.
  const samples = probe.samples.filter(([t]) => t >= start && t <= endAt);
  const perSegment = new Map<number, { weighted: number; seconds: number }>();
  let weighted = 0;
  let playedSeconds = 0;
  for (let i = 1; i < samples.length; i++) {
    const [, ct0, h0] = samples[i - 1];
    const [, ct1] = samples[i];
    const dct = ct1 - ct0;
    if (!(dct > 0 && dct < 2) || h0 === 0) continue; // not playing, or a jump
    const bps = bitrateOf(h0);
    weighted += bps * dct;
    playedSeconds += dct;
    const k = Math.floor(ct0 / segmentSeconds);
    const bin = perSegment.get(k) ?? { weighted: 0, seconds: 0 };
    bin.weighted += bps * dct;
    bin.seconds += dct;
    perSegment.set(k, bin);
  }
  const q = [...perSegment.entries()].sort(([a], [b]) => a - b).map(([, b]) => b.weighted / b.seconds / 1e6);
  let changes = 0;
  for (let k = 1; k < q.length; k++) changes += Math.abs(q[k] - q[k - 1]);
  const qoe = q.reduce((a, b) => a + b, 0) - QOE_REBUFFER_PENALTY * rebufferSeconds - changes;

  // The heights on screen after the start, from the samples and the `resize` events alike.
  const heights = [
    ...probe.samples.filter(([t, , h]) => t >= start && t <= endAt && h > 0).map(([t, , h]) => [t, h] as const),
    ...probe.events.filter(([type, t, , h]) => type === 'resize' && t >= start && t <= endAt && h > 0).map(([, t, , h]) => [t, h] as const),
  ].sort((a, b) => a[0] - b[0]);
  const renditions: [number, number][] = [];
  for (const [t, h] of heights) if (renditions.at(-1)?.[1] !== h) renditions.push([t - navigationAt, h]);

  return {
    played: true,
    startupMs: start - navigationAt,
    stalls: stalls.length,
    rebufferSeconds,
    rebufferRatio: endAt > start ? rebufferSeconds / ((endAt - start) / 1000) : 0,
    bitrateKbps: playedSeconds > 0 ? weighted / playedSeconds / 1000 : NaN,
    switches: Math.max(0, renditions.length - 1),
    segments: q.length,
    qoe,
    qoePerSegment: q.length > 0 ? qoe / q.length : NaN,
    renditions,
  };
}
