import { createI18n } from '../../../../src/embed/i18n/translate';
import { en } from '../../../../src/embed/i18n/catalogs/en';
import es from '../../../../src/embed/i18n/catalogs/es';
import de from '../../../../src/embed/i18n/catalogs/de';
import ja from '../../../../src/embed/i18n/catalogs/ja';
import ar from '../../../../src/embed/i18n/catalogs/ar';
import { loadCatalog } from '../../../../src/embed/i18n/loadCatalog';
import { errorMessageKey, errorText } from '../../../../src/embed/views/errorText';
import { everyShortcutTranslated, shortcutText } from '../../../../src/embed/views/shortcutText';
import { SHORTCUT_LIST } from '../../../../streams/player/shortcutCommand';
import { LIST_UNAVAILABLE } from '../../../../streams/player/playerEngine';
import { seekValueIn } from '../../../../src/embed/views/Chapters';

describe('t: the words of a key in the interface language', () => {
  it('fills placeholders; leaves one without a value as written', () => {
    const i18n = createI18n('de', de);
    expect(i18n.t('settings')).toBe('Einstellungen');
    expect(i18n.t('subscribeTo', { channel: 'Ada' })).toBe('Ada abonnieren');
    expect(i18n.t('subscribeTo')).toBe('{channel} abonnieren');
    expect(createI18n('en').t('actingAs', { channel: 'Lectures', name: 'Ada' })).toBe('Lectures (as Ada)');
  });

  it('says which way it is written', () => {
    expect(createI18n('ar', ar).dir).toBe('rtl');
    expect(createI18n('ja', ja).dir).toBe('ltr');
  });
});

describe('numbers and durations', () => {
  it('writes numbers in the language, with Western digits (as the time display) also in Arabic', () => {
    expect(createI18n('de', de).number(1234.5)).toBe('1.234,5');
    expect(createI18n('en').number(1234.5)).toBe('1,234.5');
    expect(createI18n('ar', ar).number(123)).toBe('123');
    expect(createI18n('es', es).number(0.05, { style: 'percent' })).toMatch(/^5\s?%$/);
  });

  it('says a duration in words, with the language’s plural forms', () => {
    const english = createI18n('en');
    expect(english.duration(0)).toBe('0 seconds');
    expect(english.duration(NaN)).toBe('0 seconds');
    expect(english.duration(1)).toBe('1 second');
    expect(english.duration(65)).toBe('1 minute 5 seconds');
    expect(english.duration(3720)).toBe('1 hour 2 minutes');
    expect(createI18n('de', de).duration(65)).toBe('1 Minute, 5 Sekunden');
    expect(createI18n('es', es).duration(125)).toBe('2 minutos 5 segundos');
    expect(createI18n('ja', ja).duration(65)).toMatch(/^1\s?分5\s?秒$/);
    // Arabic's dual: two minutes is one word.
    expect(createI18n('ar', ar).duration(120)).toBe('دقيقتان');
  });

  it('the seek slider’s value text', () => {
    const i18n = createI18n('es', es);
    expect(i18n.t('seekValue', { current: i18n.duration(7), total: i18n.duration(65) })).toBe('7 segundos de 1 minuto 5 segundos');
  });
});

describe('language names (caption tracks)', () => {
  it('names a language in the interface language; the track’s own name where the tag is none', () => {
    expect(createI18n('ja', ja).languageName('es', 'Spanish')).toBe('スペイン語');
    expect(createI18n('de', de).languageName('en', 'English')).toBe('Englisch');
    expect(createI18n('en').languageName('fr', 'French')).toBe('French');
    expect(createI18n('en').languageName('not a tag!', 'Mystery')).toBe('Mystery');
  });
});

describe('the error screen’s words', () => {
  it('maps each failure to its words', () => {
    expect(errorMessageKey('fmt.decode', 'x')).toBe('errorDecode');
    expect(errorMessageKey('net.timeout', 'x')).toBe('errorNetwork');
    expect(errorMessageKey('embedder.identity.denied', 'x')).toBe('errorEmbedder');
    expect(errorMessageKey('host.notallowed', 'x')).toBe('errorEmbedder');
    expect(errorMessageKey('api.invalidparam', 'x')).toBe('errorInvalidParam');
    expect(errorMessageKey('api.invalidparam', LIST_UNAVAILABLE.search)).toBe('errorNoMatch');
    expect(errorMessageKey('something.new', 'x')).toBe('errorUnavailable');
  });

  it('English keeps the failure’s own message; another language says its translation', () => {
    const error = { internal: 'mrm.blocked', message: 'Blocked by the server for this region.' };
    expect(errorText(error, createI18n('en'))).toBe('Blocked by the server for this region.');
    expect(errorText(error, createI18n('ja', ja))).toBe(ja.errorBlocked);
  });
});

describe('the shortcut list’s words', () => {
  it('every shortcut has its words', () => {
    expect(everyShortcutTranslated(SHORTCUT_LIST)).toBe(true);
  });

  it('English as the list had it; other languages with their own durations and percentages', () => {
    const english = createI18n('en');
    for (const entry of SHORTCUT_LIST) expect(shortcutText(entry, english)).toBe(entry.action);
    const german = createI18n('de', de);
    expect(SHORTCUT_LIST.map((e) => shortcutText(e, german))).toContain('10 Sekunden zurück');
  });
});

describe('loading a catalog', () => {
  it('English is in the controls (null); any other is its own module', async () => {
    await expect(loadCatalog('en')).resolves.toBeNull();
    await expect(loadCatalog('ar')).resolves.toBe(ar);
    expect(Object.keys(en).length).toBeGreaterThan(50);
  });
});

describe('the chapters’ slider text in the interface language', () => {
  it('the time in words, then the chapter playing', () => {
    const german = seekValueIn(createI18n('de', de));
    expect(german(4, 12, { title: 'Der Horizont', start: 0 })).toBe('4 Sekunden von 12 Sekunden, Kapitel: Der Horizont');
    expect(german(4, 12, null)).toBe('4 Sekunden von 12 Sekunden');
    expect(seekValueIn(createI18n('en'))(4, 12, { title: 'The horizon', start: 0 })).toBe('4 seconds of 12 seconds, Chapter: The horizon');
  });
});
