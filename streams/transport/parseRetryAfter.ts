/**
 * The statuses whose `Retry-After` the transport reads: 429 Too Many Requests (a rate limit) and 503 Service
 * Unavailable (RFC 9110 §10.2.3, RFC 6585 §4). On any other status the header means nothing to the retry queue.
 */
import { numberText } from '../shared/numberText';
export const RETRY_AFTER_STATUSES: readonly number[] = [429, 503];

/** RFC 9110 delay-seconds: one or more digits, nothing else. */
const DELAY_SECONDS = /^\d+$/;
/**
 * The three HTTP-date forms RFC 9110 §5.6.7 asks a recipient to accept, all starting with a day name:
 * IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`, asctime
 * `Sun Nov  6 08:49:37 1994` (GMT implied).
 */
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC850_DATE =
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(\d{2}) (\d{2}:\d{2}:\d{2}) GMT$/;
const ASCTIME_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ( \d|\d{2}) (\d{2}:\d{2}:\d{2}) (\d{4})$/;

/**
 * Reads a `Retry-After` header value (RFC 9110 §10.2.3) as a delay in milliseconds from `nowMs`, or `undefined`
 * when it is missing or malformed (the caller then keeps its own back-off).
 *
 * - delay-seconds (`30`) → 30 000; an absurdly large number gives `Number.MAX_SAFE_INTEGER` (the caller caps it);
 * - an HTTP-date in any of the three forms → the time until then, 0 when it is already past;
 * - anything else (`soon`, `-5`, `1.5`, `30s`, an ISO date, an empty string) → `undefined`.
 *
 * Pure: the clock is a parameter (the transport passes its scheduler's `now()`), so marble tests control it;
 * without one, only delay-seconds are read.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs?: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (DELAY_SECONDS.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER);
  if (nowMs === undefined) return undefined; // a date means nothing without a clock to measure it from
  const at = parseHttpDate(text, nowMs);
  if (at === undefined) return undefined;
  return Math.max(0, at - nowMs);
}

/** An HTTP-date as milliseconds since the epoch, or `undefined`. */
function parseHttpDate(text: string, nowMs: number): number | undefined {
  let normalised: string | undefined;
  if (IMF_FIXDATE.test(text)) normalised = text;
  const rfc850 = RFC850_DATE.exec(text);
  if (rfc850) {
    // RFC 9110: a two-digit year that would be more than 50 years in the future is the last one in the past.
    const [, , day, month, yy, time] = rfc850;
    const thisYear = new Date(nowMs).getUTCFullYear();
    let year = thisYear - (thisYear % 100) + Number(yy);
    if (year > thisYear + 50) year -= 100;
    normalised = `${day} ${month} ${numberText(year)} ${time} GMT`;
  }
  const asctime = ASCTIME_DATE.exec(text);
  if (asctime) {
    const [, , month, day = '', time, year] = asctime; // every group is required: `day` is always there
    normalised = `${day.trim()} ${month} ${year} ${time} GMT`;
  }
  if (normalised === undefined) return undefined;
  const ms = Date.parse(normalised);
  return Number.isFinite(ms) ? ms : undefined;
}
