import type { Browser, BrowserContext, Frame } from 'playwright-core';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { frameWith, reachForPlayer } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * The translated interface, where the viewer meets it: real Chromium framing the embed on another origin. The `hl`
 * player variable (or, without it, the browser's language) chooses the words of the controls, the settings menu and
 * the error screen, and `<html lang dir>`; only that language's catalog is fetched; Arabic mirrors the controls and
 * its seek bar fills from the right.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

/** The embed of `videoId` with `query`, framed by a host page in `context`; with the catalogs the page fetched. */
async function openFramed(videoId: string, query: string, context?: BrowserContext): Promise<{ frame: Frame; catalogs: string[] }> {
  const page = await (context ?? browser).newPage();
  const catalogs: string[] = [];
  page.on('request', (r) => {
    const m = /\/assets\/(en|es|de|ja|ar)-[\w-]+\.js$/.exec(r.url());
    if (m) catalogs.push(m[1]);
  });
  const embedUrl = `${server.origin}/embed/${videoId}?${query}`;
  await page.goto(host.page(`/translation-${Math.random().toString(36).slice(2)}.html`, framingPage(embedUrl)));
  const frame = await frameWith(page, '/embed/');
  await frame.waitForSelector('[data-readiness="ready"]');
  return { frame, catalogs };
}

const label = (frame: Frame, selector: string) => frame.getAttribute(selector, 'aria-label');
const htmlLanguage = (frame: Frame) => frame.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));

describe('the interface in the viewer’s language', () => {
  it('hl=ja: the controls, the settings menu (caption languages named in Japanese) and their names are Japanese', async () => {
    const { frame, catalogs } = await openFramed('VFsunrise01', 'hl=ja&autoplay=0');
    expect(await htmlLanguage(frame)).toEqual({ lang: 'ja', dir: 'ltr' });
    await reachForPlayer(frame);
    await frame.waitForSelector('.vf-cc');
    expect(await label(frame, '.vf-playpause')).toBe('再生 (k)');
    expect(await label(frame, '.vf-settings')).toBe('設定');
    expect(await label(frame, '.vf-controls')).toBe('プレーヤーの操作');
    expect(await label(frame, '.vf-seek')).toBe('シーク');
    expect(await frame.getAttribute('.vf-seek', 'aria-valuetext')).toMatch(/秒/);
    await frame.click('.vf-settings');
    await frame.waitForSelector('[role="menu"][aria-label="設定"]');
    const rows = await frame.$$eval('[role="menu"] .vf-menu-label', (els) => els.map((e) => e.textContent));
    expect(rows).toEqual(expect.arrayContaining(['再生速度', '字幕']));
    await frame.click('[role="menu"] .vf-menu-row:has-text("字幕")');
    await frame.waitForSelector('[role="menuitemradio"]');
    const choices = await frame.$$eval('[role="menuitemradio"]', (els) => els.map((e) => e.textContent));
    expect(choices).toEqual(['オフ', '英語', 'スペイン語']);
    // Only the viewer's catalog came (English is in the controls).
    expect(catalogs).toEqual(['ja']);
    await frame.page().close();
  });

  it('hl=ja: the error screen says what happened in Japanese', async () => {
    const { frame } = await openFramed('VFunknown00', 'hl=ja');
    await frame.waitForSelector('.vf-error');
    const text = await frame.$eval('.vf-error', (e) => ({
      message: e.querySelector('.vf-error-message')!.textContent,
      detail: e.querySelector('.vf-error-detail')!.textContent,
    }));
    expect(text.message).toMatch(/この動画/);
    expect(text.detail).toBe('エラー 5');
    await frame.page().close();
  });

  it('hl=de: the end screen’s report reasons are German', async () => {
    const { frame } = await openFramed('VFsunrise01', 'hl=de&autoplay=1&mute=1&start=11');
    await frame.waitForSelector('.vf-endscreen .vf-feedback', { timeout: 30_000 });
    await frame.click('.vf-feedback .vf-feedback-buttons button >> nth=1');
    await frame.waitForSelector('.vf-report-reason');
    expect(await frame.$$eval('.vf-report-reason', (labels) => labels.map((l) => l.textContent!.trim()))).toEqual([
      'Spam oder irreführend',
      'Gewalttätige oder abstoßende Inhalte',
      'Hasserfüllte oder beleidigende Inhalte',
      'Verletzt meine Rechte',
    ]);
    await frame.page().close();
  });

  it('hl=ja: the pause strip of suggestions and the chapter in the slider’s text are Japanese too', async () => {
    const { frame } = await openFramed('VFsunrise01', 'hl=ja&autoplay=1&mute=1');
    await frame.waitForFunction(() => document.querySelector('video')!.currentTime > 0.5);
    await reachForPlayer(frame);
    await frame.click('.vf-playpause');
    await frame.waitForSelector('.vf-player[data-state="2"]');
    await frame.waitForSelector('.vf-morevideos .vf-morevideos-list a.vf-suggestion');
    expect(await frame.textContent('.vf-morevideos-toggle')).toBe('その他の動画を非表示');
    expect(await label(frame, '.vf-morevideos-list')).toBe('おすすめの動画');
    expect(await frame.getAttribute('.vf-seek', 'aria-valuetext')).toMatch(/中.*、チャプター: /);
    await frame.page().close();
  });

  it('hl=de-AT: German (the base language of an Austrian tag)', async () => {
    const { frame, catalogs } = await openFramed('VFsunrise01', 'hl=de-AT&autoplay=0');
    expect(await htmlLanguage(frame)).toEqual({ lang: 'de', dir: 'ltr' });
    await reachForPlayer(frame);
    expect(await label(frame, '.vf-playpause')).toBe('Wiedergeben (k)');
    expect(await label(frame, '.vf-mute')).toMatch(/^Stummschalt/);
    expect(await label(frame, '.vf-settings')).toBe('Einstellungen');
    expect(catalogs).toEqual(['de']);
    await frame.page().close();
  });

  it('no hl: the browser’s language (a Spanish browser gets Spanish)', async () => {
    const context = await browser.newContext({ locale: 'es-ES' });
    const { frame } = await openFramed('VFsunrise01', 'autoplay=0', context);
    expect(await htmlLanguage(frame)).toEqual({ lang: 'es', dir: 'ltr' });
    await reachForPlayer(frame);
    expect(await label(frame, '.vf-playpause')).toBe('Reproducir (k)');
    expect(await label(frame, '.vf-settings')).toBe('Configuración');
    await context.close();
  });

  it('no hl, a browser in a language without a translation: English, and no catalog fetched', async () => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const { frame, catalogs } = await openFramed('VFsunrise01', 'autoplay=0', context);
    expect(await htmlLanguage(frame)).toEqual({ lang: 'en', dir: 'ltr' });
    await reachForPlayer(frame);
    expect(await label(frame, '.vf-playpause')).toBe('Play (k)');
    expect(catalogs).toEqual([]);
    await context.close();
  });
});

describe('right to left (hl=ar)', () => {
  it('the page is rtl, the control bar mirrored, the seek bar fills from the right and ← moves forward', async () => {
    const { frame } = await openFramed('VFsunrise01', 'hl=ar&autoplay=0');
    expect(await htmlLanguage(frame)).toEqual({ lang: 'ar', dir: 'rtl' });
    await reachForPlayer(frame);
    expect(await label(frame, '.vf-playpause')).toBe('تشغيل (k)');
    const box = (selector: string) =>
      frame.$eval(selector, (e) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.right, width: r.width };
      });
    // The play button starts the row on the right; the volume (mute) button follows on its left; settings on the left.
    const [play, mute, settings] = [await box('.vf-playpause'), await box('.vf-mute'), await box('.vf-settings')];
    expect(play.left).toBeGreaterThanOrEqual(mute.right - 0.5);
    expect(settings.right).toBeLessThanOrEqual(mute.left);

    // Halfway through: the played part is the right half of the bar.
    await frame.evaluate(() => window.vidframePlayer!.command({ type: 'seek', seconds: 6, allowSeekAhead: true }));
    await frame.waitForFunction(() => document.querySelector<HTMLElement>('.vf-seek-played')!.getBoundingClientRect().width > 10);
    const [seek, played] = [await box('.vf-seek-track'), await box('.vf-seek-played')];
    expect(Math.abs(played.right - seek.right)).toBeLessThanOrEqual(1);
    expect(played.left).toBeGreaterThan(seek.left + 10);

    // The slider's arrows follow the bar: ← forward, → back.
    const time = () => frame.evaluate(() => document.querySelector('video')!.currentTime);
    const before = await time();
    await frame.focus('.vf-seek');
    await frame.press('.vf-seek', 'ArrowLeft');
    await frame.waitForFunction((t) => document.querySelector('video')!.currentTime > t + 2, before);
    const after = await time();
    await frame.press('.vf-seek', 'ArrowRight');
    await frame.waitForFunction((t) => document.querySelector('video')!.currentTime < t - 2, after);

    // The settings menu opens on the left, where its button is.
    await frame.click('.vf-settings');
    await frame.waitForSelector('[role="menu"]');
    const menu = await box('[role="menu"]');
    const frameWidth = await frame.evaluate(() => innerWidth);
    expect(menu.left).toBeLessThan(frameWidth / 2);
    // Its chevrons point left, and ← (the way they point) opens a row's list; → goes back.
    expect(await frame.$eval('.vf-menu-chevron', (e) => getComputedStyle(e).transform)).toBe('matrix(-1, 0, 0, 1, 0, 0)');
    await frame.press('[role="menu"] [role="menuitem"]:focus', 'ArrowLeft');
    await frame.waitForSelector('[role="menu"][aria-label="سرعة التشغيل"]');
    await frame.press('[role="menu"] :focus', 'ArrowRight');
    await frame.waitForSelector('[role="menu"][aria-label="الإعدادات"]');
    await frame.page().close();
  });
});
