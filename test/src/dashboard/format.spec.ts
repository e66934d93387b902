import { categoryOf, summarizeEvent } from '../../../src/dashboard/eventSummary';
import { formatClock, formatCount, formatDuration, formatMs, formatPercent, formatRate } from '../../../src/dashboard/format';
import type { DashboardEvent } from '../../../src/dashboard/types';

describe('numbers as the dashboard shows them', () => {
  it('counts: grouped, compact from ten thousand', () => {
    expect([0, 7, 1234, 9999, 12_345, 4_560_000].map((n) => formatCount(n, 'en-US'))).toEqual(['0', '7', '1,234', '9,999', '12.3K', '4.6M']);
    expect(formatCount(Number.NaN)).toBe('–');
  });
  it('rates: decimals only where they matter', () => {
    expect([0, 0.25, 0.333, 4.56, 12.4, 1250].map((n) => formatRate(n, 'en-US'))).toEqual(['0', '0.25', '0.33', '4.6', '12', '1,250']);
  });
  it('durations: seconds, minutes, hours, days', () => {
    expect([0, 4.5, 42, 192, 3600, 7500, 93_600].map((s) => formatDuration(s, 'en-US'))).toEqual([
      '0 s',
      '4.5 s',
      '42 s',
      '3 min 12 s',
      '1 h 00 min',
      '2 h 05 min',
      '1 d 2 h',
    ]);
    expect(formatDuration(120)).toBe('2 min');
  });
  it('milliseconds, shares and clock times', () => {
    expect([850.4, 1234, 14_000].map((ms) => formatMs(ms, 'en-US'))).toEqual(['850 ms', '1.2 s', '14 s']);
    expect([formatPercent(82, 100, 'en-US'), formatPercent(1, 30, 'en-US'), formatPercent(1, 5000, 'en-US'), formatPercent(0, 0)]).toEqual([
      '82%',
      '3.3%',
      '<0.1%',
      '–',
    ]);
    const at = new Date(2025, 2, 14, 9, 5, 7, 42).getTime();
    expect(formatClock(at)).toBe('09:05:07');
    expect(formatClock(at, { millis: true })).toBe('09:05:07.042');
  });
});

describe('event summaries', () => {
  const event = (name: string, payload: unknown): DashboardEvent => ({
    stream: 's',
    dedupeKey: 'k',
    name,
    endpoint: 'log_event',
    receivedAtMs: 0,
    requestId: 'r',
    event: { eventTimeMs: 1, [name]: payload },
  });
  it('say what the known events mean', () => {
    expect(summarizeEvent(event('playerStateChange', { videoId: 'VFcitylight', previousState: 1, state: 2, mediaTimeSec: 4.5 }))).toBe(
      'playing → paused · at 4.5 s · VFcitylight',
    );
    expect(summarizeEvent(event('watchTimeSegment', { videoId: 'VFcitylight', startSec: 0, endSec: 4.5, playbackRate: 1 }))).toBe(
      'watched 4.5 s · 0 s → 4.5 s · VFcitylight',
    );
    expect(summarizeEvent(event('latencyReport', { action: 'embed', from: 'navigationStart', to: 'playerReady', durationMs: 312 }))).toBe(
      'navigationStart → playerReady · 312 ms · embed',
    );
    expect(summarizeEvent(event('playerLoad', { videoId: 'VFsunrise01', autoplay: true, hostOrigin: 'http://localhost:1' }))).toBe(
      'VFsunrise01 · autoplay · on http://localhost:1',
    );
    expect(summarizeEvent(event('playerError', { internalError: 'fmt.unplayable', hostErrorCode: 5 }))).toBe('fmt.unplayable · code 5');
  });
  it('show the plain fields of other events, and survive odd payloads', () => {
    expect(summarizeEvent(event('customThing', { a: 1, b: 'x', nested: { no: 1 }, c: true }))).toBe('a 1 · b x · c true');
    expect(summarizeEvent(event('playerStateChange', 'not an object'))).toBe('? → ?');
    expect(summarizeEvent(event('customThing', { long: 'x'.repeat(500) }))).toHaveLength(200);
  });
  it('sort names into colour families', () => {
    expect(['playerError', 'watchTimeSegment', 'latencyReport', 'playerLoad', 'playerStateChange', 'volumeChange', 'visibilityChange'].map(categoryOf)).toEqual(
      ['error', 'watch', 'latency', 'lifecycle', 'playback', 'playback', 'other'],
    );
  });
});
