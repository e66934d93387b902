import { TestScheduler } from 'rxjs/testing';
import { ABR_STARTUP_FETCH_MS } from '../../../streams/timing';
import { type BandwidthSchedule, h264Ladder, type SimulationOptions, simulate, switchCount } from './abrSimulator';

/**
 * The decision rules in a simulated playback (abrSimulator.ts): a 120 s video in 2 s segments of the H.264 ladder
 * (tiny 110 kbps … hd1080 3.5 Mbps), fetched over one link that follows a bandwidth schedule, in virtual time.
 */
const SEGMENTS = 60;
const ladder = h264Ladder(SEGMENTS);
const [TINY, SMALL, MEDIUM, LARGE, HD720, HD1080] = [0, 1, 2, 3, 4, 5];

const run = (schedule: BandwidthSchedule, options: Partial<SimulationOptions> = {}) =>
  simulate(new TestScheduler(() => undefined), { ladder, schedule, segments: SEGMENTS, ...options });
const rebufferMs = (r: ReturnType<typeof run>) => r.segments.reduce((sum, s) => sum + s.rebufferMs, 0);
const rungs = (r: ReturnType<typeof run>) => r.segments.map((s) => s.rung);
const nonDecreasing = (xs: number[]) => xs.every((x, i) => i === 0 || x >= xs[i - 1]!);

const constant = (bps: number): BandwidthSchedule => [{ atS: 0, bps }];
const step = (fromBps: number, toBps: number, atS: number): BandwidthSchedule => [
  { atS: 0, bps: fromBps },
  { atS, bps: toBps },
];

describe('adaptive decisions under bandwidth schedules', () => {
  it('starts at the lowest rung and climbs on a fast link (constant 5 Mbps), never stepping down', () => {
    const r = run(constant(5_000_000));
    expect(r.segments[0]!.rung).toBe(TINY);
    expect(r.startupMs).toBeLessThan(150);
    expect(nonDecreasing(rungs(r))).toBe(true);
    expect(r.segments.find((s) => s.rung === HD1080)!.index).toBeLessThan(15);
    expect(rebufferMs(r)).toBe(0);
    expect(switchCount(r.segments)).toBeLessThanOrEqual(3);
  });

  it('starts higher when the page load measured the link: large at 5 Mbps, the lowest at 300 kbps, within the budget', () => {
    const fast = run(constant(5_000_000), { pageBytes: 60_000 });
    // 2 s of large (225 kB) arrive in 400 ms at 5 Mbps; hd720 would take 760 ms.
    expect(fast.segments[0]!.rung).toBe(LARGE);
    expect(fast.startupMs).toBeLessThan(40 + ABR_STARTUP_FETCH_MS);
    expect(nonDecreasing(rungs(fast))).toBe(true);
    expect(fast.segments[1]!.rung).toBeGreaterThan(LARGE);
    expect(rebufferMs(fast)).toBe(0);
    const slow = run(constant(300_000), { pageBytes: 60_000 });
    expect(slow.segments[0]!.rung).toBe(TINY);
    expect(rebufferMs(slow)).toBe(0);
  });

  it('plays what a slow link carries without a stall (constant 300 kbps)', () => {
    const r = run(constant(300_000));
    expect(Math.max(...rungs(r))).toBe(SMALL);
    expect(r.segments[SEGMENTS - 1]!.rung).toBe(SMALL);
    expect(rebufferMs(r)).toBe(0);
    expect(switchCount(r.segments)).toBe(1);
  });

  it('steps down without a stall when the link drops from 5 Mbps to 500 kbps at 20 s', () => {
    const r = run(step(5_000_000, 500_000, 20));
    expect(r.segments.filter((s) => s.endMs < 20_000).some((s) => s.rung === HD1080)).toBe(true);
    expect(r.segments.filter((s) => s.requestMs > 40_000).every((s) => s.rung <= MEDIUM)).toBe(true);
    expect(rebufferMs(r)).toBe(0);
    expect(switchCount(r.segments)).toBeLessThanOrEqual(5);
  });

  it('climbs to the top within 2 s when the link rises from 500 kbps to 5 Mbps at 20 s (a rise that lasts)', () => {
    const r = run(step(500_000, 5_000_000, 20));
    expect(r.segments.filter((s) => s.requestMs < 20_000).every((s) => s.rung <= SMALL)).toBe(true);
    // The averages alone would believe the 5 Mbps only after seconds of fast transfers: hd1080 at about 28 s.
    expect(r.segments.find((s) => s.rung === HD1080)!.requestMs).toBeLessThan(22_000);
    expect(nonDecreasing(rungs(r))).toBe(true);
    expect(rebufferMs(r)).toBe(0);
  });

  it('does not oscillate when the link swings between 1 and 3 Mbps every 10 s', () => {
    const swing: BandwidthSchedule = Array.from({ length: 30 }, (_, i) => ({ atS: i * 10, bps: i % 2 ? 3_000_000 : 1_000_000 }));
    const r = run(swing);
    // The buffer absorbs the swings: the rung only climbs, to the one the mean rate (2 Mbps) carries.
    expect(nonDecreasing(rungs(r))).toBe(true);
    expect(r.segments[SEGMENTS - 1]!.rung).toBe(HD720);
    expect(switchCount(r.segments)).toBeLessThanOrEqual(3);
    expect(rebufferMs(r)).toBe(0);
  });

  it('holds through a 10 s outage: no decision and no abandon while the link is out, no stall', () => {
    const r = run([
      { atS: 0, bps: 3_000_000 },
      { atS: 20, bps: 0 },
      { atS: 30, bps: 3_000_000 },
    ]);
    expect(r.decisions.filter((d) => d.atMs > 20_000 && d.atMs < 30_000)).toEqual([]);
    expect(r.abandons).toEqual([]);
    expect(rebufferMs(r)).toBe(0);
    // Back where it was before the outage within 10 s of its end, each switch after it going up.
    expect(r.segments.find((s) => s.requestMs > 30_000 && s.rung === HD720)!.requestMs).toBeLessThan(40_000);
    expect(nonDecreasing(rungs(r).slice(r.segments.findIndex((s) => s.requestMs > 30_000)))).toBe(true);
  });

  it('abandons a segment that would arrive too late, where keeping it stalls', () => {
    const crash = step(3_000_000, 300_000, 12);
    const kept = run(crash, { abandon: false });
    expect(rebufferMs(kept)).toBeGreaterThan(2_000);
    const r = run(crash);
    expect(r.abandons).toEqual([expect.objectContaining({ from: HD720 })]);
    expect(r.abandons[0]!.atMs).toBeGreaterThan(12_000);
    expect(r.decisions).toContainEqual(expect.objectContaining({ reason: 'abandon', index: r.abandons[0]!.to }));
    expect(rebufferMs(r)).toBe(0);
  });

  it('respects a cap at any bandwidth', () => {
    const r = run(constant(5_000_000), { preferences: [{ atMs: 0, preference: { cap: LARGE } }] });
    expect(Math.max(...rungs(r))).toBe(LARGE);
    expect(r.decisions).toContainEqual(expect.objectContaining({ reason: 'cap', index: LARGE }));
  });

  it('plays a fixed rung until auto is asked again, then climbs', () => {
    const r = run(constant(5_000_000), {
      preferences: [
        { atMs: 0, preference: { fixed: SMALL } },
        { atMs: 30_000, preference: 'auto' },
      ],
    });
    expect(r.segments.filter((s) => s.requestMs < 30_000).every((s) => s.rung === SMALL)).toBe(true);
    expect(r.segments[SEGMENTS - 1]!.rung).toBe(HD1080);
    expect(rebufferMs(r)).toBe(0);
  });
});
