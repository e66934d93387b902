import { parseRetryAfter, RETRY_AFTER_STATUSES } from '../../../streams/transport/parseRetryAfter';

/** Mon, 01 Jan 2024 00:00:00 GMT: the clock is a parameter, never Date.now(). */
const NOW = Date.UTC(2024, 0, 1, 0, 0, 0);

describe('parseRetryAfter (RFC 9110 §10.2.3)', () => {
  it('is read on 429 and 503 only', () => {
    expect(RETRY_AFTER_STATUSES).toEqual([429, 503]);
  });

  it.each([
    ['30', 30_000],
    [' 30 ', 30_000],
    ['0', 0],
    ['120', 120_000],
    ['86400', 86_400_000],
  ])('delay-seconds %j → %d ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it('an absurd number of seconds stays a finite number (the retry queue caps it)', () => {
    expect(parseRetryAfter('9'.repeat(400), NOW)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([
    ['IMF-fixdate', 'Mon, 01 Jan 2024 00:00:30 GMT'],
    ['RFC 850 date', 'Monday, 01-Jan-24 00:00:30 GMT'],
    ['asctime date', 'Mon Jan  1 00:00:30 2024'],
  ])('an HTTP-date (%s) → the time until then, measured from the given clock', (_form, value) => {
    expect(parseRetryAfter(value, NOW)).toBe(30_000);
    expect(parseRetryAfter(value, NOW + 10_000)).toBe(20_000);
  });

  it('without a clock, only delay-seconds are read: a date is ignored rather than measured from 1970', () => {
    expect(parseRetryAfter('30')).toBe(30_000);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:45 GMT')).toBeUndefined();
  });

  it('a date already past means no wait (0), not a negative one', () => {
    expect(parseRetryAfter('Sun, 31 Dec 2023 23:59:00 GMT', NOW)).toBe(0);
  });

  it.each([
    [null],
    [undefined],
    [''],
    ['   '],
    ['soon'],
    ['-5'],
    ['1.5'],
    ['30s'],
    ['3e2'],
    ['0x1e'],
    ['2024-01-01T00:00:30Z'],
    ['Mon, 01 Jan 2024 00:00:30 UTC'],
    ['Mon, 32 Jan 2024 00:00:30 GMT'],
    ['Mon, 01 Jan 2024 25:00:30 GMT'],
    ['30, 60'],
  ])('garbage %j → undefined (the caller keeps its own back-off)', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});
