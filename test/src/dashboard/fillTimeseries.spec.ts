import { DASHBOARD_TIMESERIES_MAX_BUCKETS } from '../../../src/dashboard/dashboardTiming';
import { fillTimeseries } from '../../../src/dashboard/fillTimeseries';
import { TIME_RANGES, timeRangeOf, timeseriesWindow } from '../../../src/dashboard/timeRanges';
import type { TimeseriesBucket } from '../../../src/dashboard/types';

const bucket = (startMs: number, patch: Partial<TimeseriesBucket> = {}): TimeseriesBucket => ({
  startMs,
  events: 0,
  sessions: 0,
  watchTimeSec: 0,
  stateChanges: 0,
  errors: 0,
  ...patch,
});

describe('timeseriesWindow', () => {
  it('is bucket-aligned, ends with the bucket holding now, and stays within the collector’s 1000 buckets', () => {
    for (const range of TIME_RANGES) {
      const now = 1_700_000_123_456;
      const w = timeseriesWindow(range, now);
      expect(w.sinceMs % range.bucketMs).toBe(0);
      expect(w.untilMs % range.bucketMs).toBe(0);
      expect(w.untilMs - range.bucketMs).toBeLessThanOrEqual(now);
      expect(w.untilMs).toBeGreaterThan(now);
      expect(w.untilMs - w.sinceMs).toBeGreaterThanOrEqual(range.rangeMs);
      expect((w.untilMs - w.sinceMs) / w.bucketMs).toBeLessThanOrEqual(DASHBOARD_TIMESERIES_MAX_BUCKETS);
      expect(w.bucketMs).toBeGreaterThanOrEqual(1000);
    }
  });

  it('5 minutes in 2-second buckets by default', () => {
    expect(timeseriesWindow(timeRangeOf('5m'), 1_000_000_001)).toEqual({ sinceMs: 999_702_000, untilMs: 1_000_002_000, bucketMs: 2000 });
  });
});

describe('fillTimeseries', () => {
  const window = { sinceMs: 10_000, untilMs: 20_000, bucketMs: 2000 }; // 5 slots: 10, 12, 14, 16, 18 s

  it('lays buckets onto the slots, filling gaps with zeros and missing latency with null', () => {
    const s = fillTimeseries(
      [
        bucket(14_000, { events: 6, sessions: 2, watchTimeSec: 3.5, stateChanges: 2, latencyMeanMs: 300 }),
        bucket(10_000, { events: 4, sessions: 1, errors: 1 }),
      ],
      window,
      25_000,
    );
    expect(s.xs).toEqual([10, 12, 14, 16, 18]);
    expect(s.eventsPerSec).toEqual([2, 0, 3, 0, 0]);
    expect(s.sessions).toEqual([1, 0, 2, 0, 0]);
    expect(s.watchTimeSec).toEqual([0, 0, 3.5, 0, 0]);
    expect(s.stateChanges).toEqual([0, 0, 2, 0, 0]);
    expect(s.errors).toEqual([1, 0, 0, 0, 0]);
    expect(s.latencyMeanMs).toEqual([null, null, 300, null, null]);
    expect(s.totals).toEqual({
      events: 10,
      latestEventsPerSec: 0,
      peakEventsPerSec: 3,
      recentSessions: 2, // every slot is within the last minute of 25000
      peakSessions: 2,
      watchTimeSec: 3.5,
      stateChanges: 2,
      errors: 1,
      latencyMeanMs: 300,
      activeSlots: 2,
    });
  });

  it('lays the quality of experience onto the slots: rebuffer ratio over watch time, bitrate and start-up percentiles', () => {
    const s = fillTimeseries(
      [
        bucket(12_000, { watchTimeSec: 20, rebufferSec: 1, bitrateMeanBps: 800_000, startupP50Ms: 400, startupP90Ms: 900, startupP99Ms: 1500 }),
        bucket(14_000, { watchTimeSec: 10 }),
        bucket(16_000, { events: 3 }),
      ],
      window,
      25_000,
    );
    expect(s.rebufferSec).toEqual([0, 1, 0, 0, 0]);
    // Nothing watched: no ratio; watched without rebuffering: 0.
    expect(s.rebufferRatio).toEqual([null, 0.05, 0, null, null]);
    expect(s.bitrateMeanBps).toEqual([null, 800_000, null, null, null]);
    expect(s.startupP50Ms).toEqual([null, 400, null, null, null]);
    expect(s.startupP90Ms).toEqual([null, 900, null, null, null]);
    expect(s.startupP99Ms).toEqual([null, 1500, null, null, null]);
  });

  it('ignores buckets outside the window and adds up two in one slot (a collector aligned otherwise)', () => {
    const s = fillTimeseries(
      [bucket(8000, { events: 9 }), bucket(20_000, { events: 9 }), bucket(16_000, { events: 2 }), bucket(17_000, { events: 2 })],
      window,
      25_000,
    );
    expect(s.totals.events).toBe(4);
    expect(s.eventsPerSec).toEqual([0, 0, 0, 2, 0]);
  });

  it('the live edge divides by the time elapsed in its slot (at least a second), so it does not dip while filling', () => {
    // now = 18500: the last slot (18 s) has run 0.5 s → divided by 1 s; at 19500 by 1.5 s.
    expect(fillTimeseries([bucket(18_000, { events: 3 })], window, 18_500).eventsPerSec[4]).toBe(3);
    expect(fillTimeseries([bucket(18_000, { events: 3 })], window, 19_500).eventsPerSec[4]).toBe(2);
  });

  it('the current rate comes from the last slot with a full second behind it', () => {
    const buckets = [bucket(16_000, { events: 8 }), bucket(18_000, { events: 1 })];
    // At 18500 the 18-s slot has run only 0.5 s: the headline reads the 16-s slot (8 / 2 s).
    expect(fillTimeseries(buckets, window, 18_500).totals.latestEventsPerSec).toBe(4);
    // At 19500 it reads the 18-s slot: 1 event in 1.5 s.
    expect(fillTimeseries(buckets, window, 19_500).totals.latestEventsPerSec).toBe(1 / 1.5);
  });

  it('recent sessions: the most in one slot among the slots of the last minute (by default)', () => {
    const buckets = [bucket(10_000, { sessions: 5 }), bucket(16_000, { sessions: 3 }), bucket(18_000, { sessions: 1 })];
    // The last 4 s of 19500: the slots ending after 15500 (14, 16 and 18 s) → 3; the 10-s slot is older.
    expect(fillTimeseries(buckets, window, 19_500, 4000).totals.recentSessions).toBe(3);
    expect(fillTimeseries(buckets, window, 19_500).totals.recentSessions).toBe(5);
    expect(fillTimeseries(buckets, window, 90_000).totals.recentSessions).toBe(0);
  });

  it('an empty answer is a window of zeros, and no latency', () => {
    const s = fillTimeseries([], window, 25_000);
    expect(s.eventsPerSec).toEqual([0, 0, 0, 0, 0]);
    expect(s.totals).toMatchObject({ events: 0, latencyMeanMs: null, activeSlots: 0, peakEventsPerSec: 0 });
  });
});
