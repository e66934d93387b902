/**
 * `text` cut to at most `maxChars` UTF-16 code units (the unit of `String.length`, as the collector counts), cut
 * cleanly: never between the two halves of a surrogate pair (an emoji is dropped whole, leaving one unit fewer).
 * Text that fits is returned as it is.
 *
 * ```
 * truncateText('abcdef', 4)  → 'abcd'
 * truncateText('abc😀', 4)   → 'abc'   (the emoji would be split)
 * ```
 */
export function truncateText(text: string, maxChars: number): string {
  const max = Math.max(0, Math.floor(maxChars));
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  // A high surrogate as the last kept unit would leave half a character.
  const end = max > 0 && last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  return text.slice(0, end);
}
