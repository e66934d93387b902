/**
 * A number as text, exactly as `String(n)` writes it, without touching V8's number-to-text caches.
 *
 * `String(n)`, `` `${n}` ``, `'…' + n`, `n.toString()` and `[…].join()` on numbers go through two caches of V8's
 * (small integers, and other numbers), each of which grows for good from about 1–1.5 KB to 64 KB (integers) or 48 KB
 * (others) at the first collision of two values in it: a page that writes a few hundred different numbers as text
 * keeps about 110 KB more heap for its whole life than one that does not. `JSON.stringify` writes a number through its
 * own buffer and never consults them, and writes every finite number as `String` does (the JSON grammar's number is
 * `ToString(n)`). Measured in Chromium 156: a thousand `String(i * 257)` grow the integer cache to 64 KB, a thousand
 * `JSON.stringify(i * 257)` leave it at 1 KB.
 *
 * The page's code (`streams/`, `src/embed/`) writes numbers as text through this. `test/tooling/numberText.spec.ts`
 * checks the modules the page runs before its controls come (what a video playing on its own runs) for conversions of
 * values typed as numbers; a value typed `unknown` that holds a number at run time is for the writer to see.
 */
export function numberText(n: number): string {
  // Not a number after all (an untyped value reaching here): what String writes, never a wrong number.
  if (typeof n !== 'number') return String(n);
  if (Number.isFinite(n)) return JSON.stringify(n);
  return n !== n ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
}

/**
 * The whole numbers 1, 2, 3, … as text, one per call, counted in the text itself: no number is converted, so a counter
 * that writes one number per event (the log sink's `clientEventId`) neither goes through V8's caches nor pays a
 * `JSON.stringify` call each time (faster than {@link numberText}: docs/performance.md).
 */
export function decimalCounter(): () => string {
  let digits = '0';
  return () => {
    let i = digits.length - 1;
    while (i >= 0 && digits.charCodeAt(i) === 57 /* '9' */) i--;
    digits = i < 0 ? '1' + '0'.repeat(digits.length) : digits.slice(0, i) + String.fromCharCode(digits.charCodeAt(i) + 1) + '0'.repeat(digits.length - 1 - i);
    return digits;
  };
}
