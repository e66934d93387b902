/** What the document says about itself: the two values of `document.visibilityState` this product acts on. */
export type DocumentVisibility = 'visible' | 'hidden';

/**
 * Reads the document's visibility through an injected getter (usually `() => document.visibilityState`) and
 * normalises it: `'visible'` and `'hidden'` pass, anything else (no getter, a getter that throws, `'prerender'`, a
 * non-string) is `undefined`, meaning "not known". Never throws.
 */
export function documentVisibility(read?: () => unknown): DocumentVisibility | undefined {
  if (!read) return undefined;
  try {
    const value = read();
    return value === 'visible' || value === 'hidden' ? value : undefined;
  } catch {
    return undefined;
  }
}
