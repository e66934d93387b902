import { textDirection, type Language } from '../../../streams/i18n/language';
import { en, type Catalog, type MessageKey } from './catalogs/en';

/** The interface in one language: its words, and numbers, durations and language names written in it. */
export interface I18n {
  language: Language;
  dir: 'ltr' | 'rtl';
  /** The words of `key`, each `{name}` replaced by `params.name` (a placeholder without a value stays as written). */
  t(key: MessageKey, params?: Readonly<Record<string, string>>): string;
  /** A number in the language's notation, with Western digits (as the time display: `1:23 / 4:56` in every language). */
  number(n: number, options?: Intl.NumberFormatOptions): string;
  /** Whole seconds in words: "1 minute 5 seconds", "1 Minute und 5 Sekunden", "1 分5 秒" (the seek slider's value text). */
  duration(wholeSeconds: number): string;
  /** A language's name in the interface's language (`es` → "Spanish", "スペイン語"); `fallback` where the browser has none. */
  languageName(code: string, fallback: string): string;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** `language`'s interface from its catalog (English for a key the catalog lacks at run time, which its type forbids). */
export function createI18n(language: Language, catalog: Catalog = en): I18n {
  const numbers = new Map<string, Intl.NumberFormat>();
  const number = (n: number, options: Intl.NumberFormatOptions = {}) => {
    const id = JSON.stringify(options);
    let format = numbers.get(id);
    if (!format) numbers.set(id, (format = new Intl.NumberFormat(language, { ...options, numberingSystem: 'latn' })));
    return format.format(n);
  };
  const units = new Intl.ListFormat(language, { type: 'unit', style: 'narrow' });
  const unit = (n: number, name: 'hour' | 'minute' | 'second') => number(n, { style: 'unit', unit: name, unitDisplay: 'long' });
  let names: Intl.DisplayNames | null | undefined;
  return {
    language,
    dir: textDirection(language),
    t: (key, params) => (catalog[key] ?? en[key]).replace(PLACEHOLDER, (whole, name: string) => params?.[name] ?? whole),
    number,
    duration(wholeSeconds) {
      const s = Number.isFinite(wholeSeconds) && wholeSeconds > 0 ? Math.floor(wholeSeconds) : 0;
      const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
      const parts = [h > 0 ? unit(h, 'hour') : '', m > 0 ? unit(m, 'minute') : '', sec > 0 || s === 0 ? unit(sec, 'second') : ''];
      return units.format(parts.filter(Boolean));
    },
    languageName(code, fallback) {
      if (names === undefined) names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames([language], { type: 'language' }) : null;
      try {
        return names?.of(code) ?? fallback;
      } catch {
        return fallback; // not a well-formed language tag
      }
    },
  };
}
