import type { Browser, Frame, Page } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { frameWith } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * Issue 17 item 5, end to end: a plain host page on another origin, with only `/iframe_api`, drives the captions
 * module the way the public IFrame Player API documents it (`getOptions`, `getOption`, `setOption`), and the cue the
 * viewer sees in the embed changes: its size, its track, its colours; cue markup (`<i>`, `<b>`, `<c.yellow>`) is
 * rendered as elements, never as text. Needs `npm run build`. Every wait is on a condition in a page.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

interface HostPlayer {
  getOptions(module?: string): string[];
  getOption(module: string, option: string): unknown;
  setOption(module: string, option: string, value: unknown): void;
  playVideo(): void;
  pauseVideo(): void;
  getPlayerState(): number;
}
declare global {
  interface Window {
    player: HostPlayer;
    log: string[];
  }
}

const hostPage = (embedOrigin: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Captions host</title></head><body>
<div id="player"></div>
<script src="${embedOrigin}/iframe_api"></script>
<script>
  window.log = [];
  function onYouTubeIframeAPIReady() {
    window.player = new YT.Player('player', {
      width: '640', height: '360', videoId: 'VFsunrise01',
      playerVars: { playsinline: 1, mute: 1, cc_load_policy: 1, cc_lang_pref: 'en' },
      events: {
        onReady: function () { window.log.push('ready'); },
        onApiChange: function () { window.log.push('apiChange'); }
      }
    });
  }
</script></body></html>`;

/** The caption line the viewer sees in the embed: its text, its markup as elements, its computed style. */
const cueLine = (frame: Frame) =>
  frame.evaluate(() => {
    const line = document.querySelector('.vf-caption-line') as HTMLElement | null;
    if (!line) return null;
    const style = getComputedStyle(line);
    return {
      text: line.textContent ?? '',
      italic: line.querySelector('i')?.textContent ?? null,
      bold: line.querySelector('b')?.textContent ?? null,
      yellowClass: line.querySelector('span.yellow')?.textContent ?? null,
      yellowColor: line.querySelector('span.yellow') ? getComputedStyle(line.querySelector('span.yellow')!).color : null,
      fontSize: parseFloat(style.fontSize),
      color: style.color,
      background: style.backgroundColor,
    };
  });

/** Waits until the shown cue's computed font size is `px` (within half a pixel). */
const waitFontSize = (frame: Frame, px: number) =>
  frame.waitForFunction((want) => {
    const line = document.querySelector('.vf-caption-line');
    return !!line && Math.abs(parseFloat(getComputedStyle(line).fontSize) - want) < 0.5;
  }, px);

/** Waits until the host's `getOption(module, option)` satisfies the test given as source (`v` is the value). */
const waitOption = (page: Page, option: string, test: string) =>
  page.waitForFunction(`(function (v) { return ${test}; })(window.player.getOption('captions', ${JSON.stringify(option)}))`, undefined, { timeout: 15_000 });

describe('the captions module through the public IFrame API', () => {
  it('lists its options, changes size, track and colours of the shown cue, reloads, turns off, and ignores bad values', async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(host.page('/captions.html', hostPage(server.origin)));
    await page.waitForFunction(() => window.log.includes('ready'), null, { timeout: 20_000 });
    const frame = await frameWith(page, '/embed/');

    // getOptions() lists the module once the embed says captions are there; getOptions('captions') its options.
    await page.waitForFunction(() => window.player.getOptions().includes('captions'));
    expect(await page.evaluate(() => window.player.getOptions('captions'))).toEqual(['reload', 'fontSize', 'track', 'tracklist', 'displaySettings']);
    const tracklist = (await page.evaluate(() => window.player.getOption('captions', 'tracklist'))) as Record<string, unknown>[];
    expect(tracklist.map((t) => t.languageCode)).toEqual(['en', 'es']);
    expect(tracklist[1]).toMatchObject({ languageCode: 'es', languageName: 'Spanish', displayName: 'Spanish', kind: expect.any(String) });
    await waitOption(page, 'track', "v && v.languageCode === 'en'");
    expect(await page.evaluate(() => window.player.getOption('captions', 'fontSize'))).toBe(0);

    // The English cue shows, its markup as elements: "the <i>sun</i> rises over the <b>test pattern</b>".
    await page.evaluate(() => window.player.playVideo());
    await frame.waitForSelector('.vf-caption-line i', { timeout: 15_000 });
    await page.evaluate(() => window.player.pauseVideo());
    await page.waitForFunction(() => window.player.getPlayerState() === 2);
    const normal = (await cueLine(frame))!;
    expect(normal.text).toMatch(/^Caption \d of 6: the sun rises over the test pattern$/);
    expect(normal).toMatchObject({ italic: 'sun', bold: 'test pattern' });
    expect(normal.text).not.toContain('<');

    // fontSize 3 (largest) is 1.75 times normal, -1 (small) 0.75 times; the host reads the value back.
    await page.evaluate(() => window.player.setOption('captions', 'fontSize', 3));
    await waitFontSize(frame, normal.fontSize * 1.75);
    await waitOption(page, 'fontSize', 'v === 3');
    await page.evaluate(() => window.player.setOption('captions', 'fontSize', -1));
    await waitFontSize(frame, normal.fontSize * 0.75);
    await waitOption(page, 'fontSize', 'v === -1');

    // Bad values change nothing (the valid command sent after them is applied, so they were read first).
    await page.evaluate(() => {
      const p = window.player;
      p.setOption('captions', 'fontSize', 7);
      p.setOption('captions', 'fontSize', '2');
      p.setOption('captions', 'fontSize', 1.5);
      p.setOption('captions', 'noSuchOption', 1);
      p.setOption('captions', 'track', { languageCode: 'xx' });
      p.setOption('captions', 'track', 'es');
      p.setOption('captions', 'displaySettings', 'red');
      p.setOption('captions', 'displaySettings', { color: 'red; display: none', backgroundOpacity: 9 });
      p.setOption('nosuchmodule', 'fontSize', 2);
      p.setOption('captions', 'reload', 'yes');
      p.setOption('captions', 'fontSize', 1);
    });
    await waitFontSize(frame, normal.fontSize * 1.25);
    await waitOption(page, 'fontSize', 'v === 1');
    expect(await page.evaluate(() => (window.player.getOption('captions', 'track') as { languageCode: string }).languageCode)).toBe('en');
    const unchanged = (await cueLine(frame))!;
    expect(unchanged).toMatchObject({ color: normal.color, background: normal.background, italic: 'sun' });

    // track: Spanish, with its <c.yellow> class as a span of that class.
    await page.evaluate(() => window.player.setOption('captions', 'track', { languageCode: 'es' }));
    await frame.waitForFunction(() => /^Subtítulo \d de 6/.test(document.querySelector('.vf-caption-line')?.textContent ?? ''));
    await waitOption(page, 'track', "v && v.languageCode === 'es' && v.languageName === 'Spanish'");
    expect(await cueLine(frame)).toMatchObject({ italic: 'sol', yellowClass: 'carta de ajuste', yellowColor: 'rgb(255, 255, 0)' });

    // displaySettings: colours of the text and of its box; the host reads back the full, normalised settings.
    await page.evaluate(() => window.player.setOption('captions', 'displaySettings', { color: '#ff0', background: '#000080', backgroundOpacity: 0.5 }));
    await frame.waitForFunction(() => {
      const line = document.querySelector('.vf-caption-line');
      return !!line && getComputedStyle(line).color === 'rgb(255, 255, 0)' && getComputedStyle(line).backgroundColor === 'rgba(0, 0, 128, 0.5)';
    });
    await waitOption(
      page,
      'displaySettings',
      "v && v.color === '#ffff00' && v.background === '#000080' && v.backgroundOpacity === 0.5 && v.fontSizeIncrement === 1",
    );

    // reload: the shown track is fetched again, and its cue still shows.
    const before = requested.filter((u) => u.includes('captions.es.vtt')).length;
    await page.evaluate(() => window.player.setOption('captions', 'reload', true));
    for (;;) {
      if (requested.filter((u) => u.includes('captions.es.vtt')).length > before) break;
      await page.waitForEvent('request', { timeout: 15_000 });
    }
    await frame.waitForFunction(() => /^Subtítulo \d de 6/.test(document.querySelector('.vf-caption-line')?.textContent ?? ''));

    // track {}: captions off, and the host reads an empty track.
    await page.evaluate(() => window.player.setOption('captions', 'track', {}));
    await frame.waitForFunction(() => document.querySelector('.vf-caption-line') === null);
    await waitOption(page, 'track', 'v && Object.keys(v).length === 0');

    expect(errors).toEqual([]);
    await page.close();
  });
});
