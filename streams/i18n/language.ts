/**
 * The interface language: which of the player's translations a viewer gets, and which way it is written. Pure, so the
 * page (`<html lang dir>`, the catalog it loads) and the server (the shell's fallback name) choose alike.
 */

/** The languages the interface is translated into; English is the source and the last fallback. */
export const LANGUAGES = ['en', 'es', 'de', 'ja', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Languages written right to left (by their base language subtag): the page mirrors for them. */
const RIGHT_TO_LEFT = ['ar', 'he', 'iw', 'fa', 'ur'];

/** A tag as the page compares it: `de_AT` and `DE-at` are `de-at`. */
const normalize = (tag: string) => tag.trim().replace(/_/g, '-').toLowerCase();

/** The translation for one BCP 47 tag: the tag itself (`ja`), else its base language (`de-AT` → `de`); null if neither. */
export function matchLanguage(tag: string): Language | null {
  const t = normalize(tag);
  const exact = LANGUAGES.find((l) => l === t);
  if (exact) return exact;
  const base = t.split('-')[0] ?? '';
  return LANGUAGES.find((l) => l === base) ?? null;
}

/**
 * The interface language. With the `hl` player variable: its language (`es-419` → `es`, `de-AT` → `de`), English when
 * the player has no translation for it — the embedder asked for that language, the viewer's others do not override it.
 * Without `hl`: the first of the browser's languages (`navigator.languages`, the viewer's order) that has one, as an
 * `Accept-Language` negotiation does; English when none has.
 */
export function chooseLanguage(hl: unknown, browserLanguages: readonly string[]): Language {
  if (typeof hl === 'string' && hl.trim() !== '') return matchLanguage(hl) ?? 'en';
  for (const tag of browserLanguages) {
    const found = typeof tag === 'string' ? matchLanguage(tag) : null;
    if (found) return found;
  }
  return 'en';
}

/** Which way `language` is written: `rtl` for Arabic (and the other right-to-left languages when they come), else `ltr`. */
export const textDirection = (language: string): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.includes(normalize(language).split('-')[0] ?? '') ? 'rtl' : 'ltr');
