import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { LANGUAGES } from '../../streams/i18n/language';
import { SHELL_TEXT } from '../../streams/i18n/shellText';
import { en } from '../../src/embed/i18n/catalogs/en';

/**
 * The interface's translations are whole: a catalog per language (and none without one), each with every key of the
 * English catalog and no other, none empty, each with the same placeholders as the English words. The types catch a
 * missing key at build time; this also catches a placeholder translated by mistake (`{canal}`) or one dropped.
 */
const dir = resolve(__dirname, '../../src/embed/i18n/catalogs');
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the translation catalogs', () => {
  it('one catalog per language, and none for a language the page does not offer', () => {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(files).toEqual([...LANGUAGES].sort());
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, none empty, with the English placeholders', async (language) => {
    const catalog = ((await import(resolve(dir, `${language}.ts`))) as { default: Record<string, string> }).default;
    expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
    for (const [key, english] of Object.entries(en)) {
      const text = catalog[key] ?? '';
      expect({ key, empty: text.trim() === '' }).toEqual({ key, empty: false });
      expect({ key, placeholders: placeholders(text) }).toEqual({ key, placeholders: placeholders(english) });
    }
  });

  it('the first-load words are there for every language, none empty', () => {
    for (const language of LANGUAGES) {
      expect(Object.values(SHELL_TEXT[language]).every((text) => text.trim() !== '')).toBe(true);
      expect(Object.keys(SHELL_TEXT[language]).sort()).toEqual(Object.keys(SHELL_TEXT.en).sort());
    }
  });
});
