import { playMetrics, QOE_REBUFFER_PENALTY } from '../../bench/abr/metrics';
import type { Probe, ProbeEvent, ProbeSample } from '../../bench/abr/probe';

/**
 * The adaptive benchmark's figures for one play (bench/abr/metrics.ts), from a `<video>` element's story written by
 * hand: navigation at 0, the first `playing` at 1 s, heights 360p then 720p, one stall.
 */
const BITRATE: Record<number, number> = { 360: 500_000, 720: 2_000_000 };
const context = { navigationAt: 0, endAt: 11_000, bitrateOf: (h: number) => BITRATE[h] ?? NaN, segmentSeconds: 2 };

/** Samples every 200 ms from `from` to `to` (ms), the media time advancing from `ct` at real speed, at `height`. */
function playing(from: number, to: number, ct: number, height: number): ProbeSample[] {
  const out: ProbeSample[] = [];
  for (let t = from; t < to; t += 200) out.push([t, ct + (t - from) / 1000, height, 0, 4]);
  return out;
}

function frozen(from: number, to: number, ct: number, height: number): ProbeSample[] {
  const out: ProbeSample[] = [];
  for (let t = from; t < to; t += 200) out.push([t, ct, height, 0, 2]);
  return out;
}

describe('adaptive benchmark metrics', () => {
  it('reads startup, stalls, rebuffer, bitrate, switches and the linear QoE from the element alone', () => {
    // 1–5 s: 4 s of media at 360p; 5–7 s: a stall at 4 s of media; 7–11 s: 4 s more at 720p.
    const events: ProbeEvent[] = [
      ['loadedmetadata', 600, 0, 360, 1],
      ['playing', 1000, 0, 360, 3],
      ['waiting', 5000, 4, 360, 2],
      ['resize', 6900, 4, 720, 2],
      ['playing', 7000, 4, 720, 3],
    ];
    const samples = [...frozen(0, 1000, 0, 0), ...playing(1000, 5000, 0, 360), ...frozen(5000, 7000, 4, 360), ...playing(7000, 11_000, 4, 720)];
    const m = playMetrics({ found: true, events, samples }, context);

    expect(m.played).toBe(true);
    expect(m.startupMs).toBe(1000);
    expect(m.stalls).toBe(1);
    expect(m.rebufferSeconds).toBeCloseTo(2, 5);
    expect(m.rebufferRatio).toBeCloseTo(2 / 10, 5);
    // Half the media time at 500 kbit/s, half at 2,000 (within a sample interval at the edges).
    expect(m.bitrateKbps).toBeGreaterThan(1200);
    expect(m.bitrateKbps).toBeLessThan(1300);
    expect(m.switches).toBe(1);
    expect(m.renditions).toEqual([
      [1000, 360],
      [6900, 720],
    ]);
    // Segments 0–1 at 0.5 Mbit/s, 2–3 at 2 (the last partly played): 4 segments, one change of 1.5, 2 s rebuffering.
    expect(m.segments).toBe(4);
    expect(m.qoe).toBeCloseTo(0.5 + 0.5 + 2 + 2 - QOE_REBUFFER_PENALTY * 2 - 1.5, 1);
    expect(m.qoePerSegment).toBeCloseTo(m.qoe / 4, 5);
  });

  it('counts a stall that lasts to the end of the play, and no start for a `playing` without progress', () => {
    const events: ProbeEvent[] = [
      ['playing', 500, 0, 360, 3],
      ['waiting', 600, 0, 360, 2],
      ['playing', 2000, 0, 360, 3],
      ['waiting', 8000, 6, 360, 2],
    ];
    const samples = [...frozen(0, 2000, 0, 360), ...playing(2000, 8000, 0, 360), ...frozen(8000, 11_000, 6, 360)];
    const m = playMetrics({ found: true, events, samples }, context);
    expect(m.startupMs).toBe(2000);
    expect(m.stalls).toBe(1);
    expect(m.rebufferSeconds).toBeCloseTo(3, 5);
    expect(m.switches).toBe(0);
  });

  it('reports a play that never started as not played', () => {
    const probe: Probe = { found: true, events: [['waiting', 100, 0, 0, 0]], samples: frozen(0, 11_000, 0, 0) };
    expect(playMetrics(probe, context)).toMatchObject({ played: false, segments: 0 });
    expect(playMetrics(probe, context).startupMs).toBeNaN();
  });
});
