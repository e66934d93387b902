/**
 * Numbers and times as the dashboard shows them: grouped digits, compact above ten thousand, units spelled the way a
 * reader says them. Every formatter takes the locale last (the reader's own by default), so tests can fix it.
 */

type Locale = string | undefined;

/** `1,234`, `12.3K`, `4.5M`. */
export function formatCount(n: number, locale?: Locale): string {
  if (!Number.isFinite(n)) return '–';
  return Math.abs(n) >= 10_000
    ? new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n)
    : new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(n);
}

/** A rate or a small measure: two significant decimals below 10 (`0.25`, `4.5`), whole above (`12`, `1,250`). */
export function formatRate(n: number, locale?: Locale): string {
  if (!Number.isFinite(n)) return '–';
  if (n === 0) return '0';
  if (Math.abs(n) >= 10) return formatCount(Math.round(n), locale);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: Math.abs(n) < 1 ? 2 : 1 }).format(n);
}

/** Seconds as `42 s`, `3 min 12 s`, `2 h 05 min`, `3 d 4 h`; fractions only below 10 s (`4.5 s`). */
export function formatDuration(totalSec: number, locale?: Locale): string {
  if (!Number.isFinite(totalSec) || totalSec <= 0) return '0 s';
  if (totalSec < 10) return `${formatRate(totalSec, locale)} s`;
  const s = Math.round(totalSec);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  return `${formatCount(Math.floor(s / 86_400), locale)} d ${Math.floor((s % 86_400) / 3600)} h`;
}

/** Milliseconds as `850 ms`, `1.2 s`, `14 s`. */
export function formatMs(ms: number, locale?: Locale): string {
  if (!Number.isFinite(ms)) return '–';
  if (Math.abs(ms) < 1000) return `${Math.round(ms)} ms`;
  return `${formatRate(ms / 1000, locale)} s`;
}

/** A share as `42%`, `0.5%`, `<0.1%`. */
export function formatPercent(part: number, whole: number, locale?: Locale): string {
  if (!whole || !Number.isFinite(part / whole)) return '–';
  const pct = (part / whole) * 100;
  if (pct > 0 && pct < 0.1) return '<0.1%';
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: pct < 10 ? 1 : 0 }).format(pct)}%`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** Local wall-clock time `14:03:07`, with milliseconds (`14:03:07.120`) when asked. */
export function formatClock(ms: number, { millis = false }: { millis?: boolean } = {}): string {
  const d = new Date(ms);
  const base = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  return millis ? `${base}.${String(d.getMilliseconds()).padStart(3, '0')}` : base;
}

/** Local date and time for a tooltip: `2025-03-14 14:03:07`. */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${formatClock(ms)}`;
}
