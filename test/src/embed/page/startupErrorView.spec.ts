import { SHELL_TEXT } from '../../../../streams/i18n/shellText';
import { startupErrorView } from '../../../../src/embed/page/startupErrorView';
import { applyLanguage } from '../../../../src/embed/page/startPlayer';

describe('the page that could not start, in the interface language', () => {
  afterEach(() => {
    document.documentElement.removeAttribute('lang');
    document.documentElement.removeAttribute('dir');
  });

  it('says so in the language chosen, the error’s own message as the detail', () => {
    const view = startupErrorView(document, new Error('no configuration'), SHELL_TEXT.ja);
    expect(view.querySelector('[role="alert"] .vf-error-message')!.textContent).toBe('プレーヤーを起動できませんでした。');
    expect(view.querySelector('.vf-error-detail')!.textContent).toBe('no configuration');
    expect(startupErrorView(document, 'x').querySelector('.vf-error-message')!.textContent).toBe('The player could not start.');
  });

  it('sets <html lang dir> from hl, else the browser’s language', () => {
    expect(applyLanguage(document, 'ar-EG')).toBe('ar');
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['ar', 'rtl']);
    expect(applyLanguage(document, 'de-AT')).toBe('de');
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['de', 'ltr']);
    // jsdom's browser language is en-US.
    expect(applyLanguage(document, null)).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});
