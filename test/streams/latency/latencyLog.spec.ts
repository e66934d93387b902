import { latencySpan } from '../../../streams/latency/latencySpan';
import { type LatencyLog, latencyKey, recordLatencyTick } from '../../../streams/latency/recordLatencyTick';
import { LATENCY_MAX_ENTRIES_PER_KEY, LATENCY_STALE_ENTRY_MS } from '../../../streams/timing';

const record = (ticks: Array<[string, string, number]>, now = 0, options = {}) =>
  ticks.reduce<LatencyLog>((log, [action, name, time]) => recordLatencyTick(log, { action, name, time }, now, options), new Map());

describe('recordLatencyTick', () => {
  it('keeps the latest 5 entries per key (production constant)', () => {
    expect(LATENCY_MAX_ENTRIES_PER_KEY).toBe(5);
    const five = record(
      [1, 2, 3, 4, 5].map((t): [string, string, number] => ['watch', 'start', t]),
      5,
    );
    expect(five.get(latencyKey('watch', 'start'))).toEqual([1, 2, 3, 4, 5]);
    const six = recordLatencyTick(five, { action: 'watch', name: 'start', time: 6 }, 6);
    expect(six.get(latencyKey('watch', 'start'))).toEqual([2, 3, 4, 5, 6]);
    expect(five.get(latencyKey('watch', 'start'))).toEqual([1, 2, 3, 4, 5]); // the old log is unchanged
  });

  it('counts entries per (action, name), not per action', () => {
    const log = record(
      [
        ['watch', 'a', 1],
        ['watch', 'b', 2],
        ['embed', 'a', 3],
      ],
      3,
      { maxEntriesPerKey: 1 },
    );
    expect(log.size).toBe(3);
  });

  it('purges entries older than 60 s, keeping one exactly 60 s old (production constant)', () => {
    expect(LATENCY_STALE_ENTRY_MS).toBe(60_000);
    const log = record(
      [
        ['watch', 'start', 9_999],
        ['watch', 'start', 10_000],
        ['watch', 'other', 5_000],
      ],
      10_000,
    );
    const later = recordLatencyTick(log, { action: 'watch', name: 'ready', time: 70_000 }, 70_000);
    expect(later.get(latencyKey('watch', 'start'))).toEqual([10_000]); // 9 999 is 60 001 ms old
    expect(later.has(latencyKey('watch', 'other'))).toBe(false); // emptied keys are removed
    expect(later.get(latencyKey('watch', 'ready'))).toEqual([70_000]);
  });

  it('takes overrides, keeps entries sorted, and does not store a tick that is already stale', () => {
    const log = record(
      [
        ['a', 'n', 5],
        ['a', 'n', 3],
        ['a', 'n', 4],
      ],
      5,
      { maxEntriesPerKey: 2, staleEntryMs: 10 },
    );
    expect(log.get(latencyKey('a', 'n'))).toEqual([4, 5]);
    const stale = recordLatencyTick(new Map(), { action: 'a', name: 'n', time: 0 }, 11, { staleEntryMs: 10 });
    expect(stale.size).toBe(0);
  });

  it('keys cannot collide whatever the names contain', () => {
    expect(latencyKey('a/b', 'c')).not.toBe(latencyKey('a', 'b/c'));
  });
});

describe('latencySpan', () => {
  it('measures from the latest start at or before the latest end', () => {
    const log = record(
      [
        ['watch', 'navigationStart', 100],
        ['watch', 'playerReady', 700],
        ['watch', 'navigationStart', 900],
      ],
      900,
    );
    expect(latencySpan(log, 'watch', 'navigationStart', 'playerReady')).toEqual({ startMs: 100, endMs: 700, durationMs: 600 });
  });

  it('is undefined when a tick is missing or every start is after the end', () => {
    const log = record(
      [
        ['watch', 'navigationStart', 900],
        ['watch', 'playerReady', 700],
      ],
      900,
    );
    expect(latencySpan(log, 'watch', 'navigationStart', 'playerReady')).toBeUndefined();
    expect(latencySpan(log, 'watch', 'missing', 'playerReady')).toBeUndefined();
    expect(latencySpan(log, 'watch', 'navigationStart', 'missing')).toBeUndefined();
    expect(latencySpan(log, 'other', 'navigationStart', 'playerReady')).toBeUndefined();
  });

  it('measures a zero span when both ticks share a time', () => {
    const log = record(
      [
        ['a', 's', 5],
        ['a', 'e', 5],
      ],
      5,
    );
    expect(latencySpan(log, 'a', 's', 'e')).toEqual({ startMs: 5, endMs: 5, durationMs: 0 });
  });
});
