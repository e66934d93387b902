import { chooseLanguage, matchLanguage, textDirection } from '../../../streams/i18n/language';

describe('the interface language', () => {
  it('hl: the tag, else its base language, else English', () => {
    expect(chooseLanguage('ja', ['de-DE'])).toBe('ja');
    expect(chooseLanguage('es-419', [])).toBe('es');
    expect(chooseLanguage('de-AT', [])).toBe('de');
    expect(chooseLanguage('de_CH', [])).toBe('de');
    expect(chooseLanguage('AR', [])).toBe('ar');
    // A language without a translation: English, not the browser's (the embedder chose it).
    expect(chooseLanguage('fr', ['es-ES'])).toBe('en');
  });

  it("without hl: the first of the browser's languages that has a translation, else English", () => {
    expect(chooseLanguage(undefined, ['es-ES', 'en-US'])).toBe('es');
    expect(chooseLanguage('', ['fr-FR', 'de', 'ja'])).toBe('de');
    expect(chooseLanguage(undefined, ['fr-FR', 'it'])).toBe('en');
    expect(chooseLanguage(undefined, [])).toBe('en');
    expect(chooseLanguage(42, ['ja-JP'])).toBe('ja');
  });

  it('matches a tag to a translation', () => {
    expect(matchLanguage('en-GB')).toBe('en');
    expect(matchLanguage('zh-Hans')).toBeNull();
  });

  it('Arabic (and the other right-to-left languages) is written right to left', () => {
    expect(textDirection('ar')).toBe('rtl');
    expect(textDirection('ar-EG')).toBe('rtl');
    expect(textDirection('he')).toBe('rtl');
    expect(textDirection('ja')).toBe('ltr');
    expect(textDirection('en')).toBe('ltr');
  });
});
