import type { Browser, Frame, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { frameWith, servicesStarted } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * Issue 17 items 2, 3 and 6, end to end in the real embed framed by a host on another origin: the settings menu at
 * every embed size, keyboard focus kept in the player with the shortcut list, the WAI-ARIA menu and slider patterns,
 * the time display's markup and the author line's contrast over the poster. Keys go through the browser's keyboard
 * (to the focused frame), clicks through the mouse; every wait is on a condition in the page.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

/** Screenshots of the settings menu at each size land here (for a look, not asserted). */
const SHOTS = process.env.A11Y_SHOTS_DIR ?? join(tmpdir(), 'vidframe-a11y-shots');

async function openFramed(videoId: string, query = '', size = { width: 640, height: 360 }): Promise<Frame> {
  const page = await browser.newPage({ viewport: { width: Math.max(800, size.width + 40), height: Math.max(600, size.height + 40) } });
  const embedUrl = `${server.origin}/embed/${videoId}${query ? `?${query}` : ''}`;
  await page.goto(host.page(`/host-${Math.random().toString(36).slice(2)}.html`, framingPage(embedUrl, size)));
  const frame = await frameWith(page, '/embed/');
  await frame.waitForSelector('[data-readiness="ready"]');
  return frame;
}

const stateIs = (frame: Frame, s: number) => frame.waitForSelector(`.vf-player[data-state="${s}"]`);
/** What has focus in the frame: `BODY`, or the element's class list and role. */
const focused = (frame: Frame) =>
  frame.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { tag: 'BODY', cls: '', role: '', text: '', inPlayer: false };
    return {
      tag: el.tagName,
      cls: el.className,
      role: el.getAttribute('role') ?? '',
      text: (el.textContent ?? '').trim(),
      inPlayer: !!el.closest('.vf-player'),
    };
  });
const focusIn = (frame: Frame, selector: string) => frame.waitForFunction((sel) => !!document.activeElement?.matches(sel), selector);

/** The accessibility tree Chromium itself computes for the frame (names as a screen reader gets them). */
async function axNodes(page: Page, frame: Frame): Promise<{ role: string; name: string; checked?: string }[]> {
  const cdp = await page.context().newCDPSession(frame);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: { ignored: boolean; role?: { value: string }; name?: { value: string }; properties?: { name: string; value: { value: unknown } }[] }[];
  };
  await cdp.detach();
  return nodes
    .filter((n) => !n.ignored)
    .map((n) => ({
      role: n.role?.value ?? '',
      name: n.name?.value ?? '',
      checked: n.properties?.find((p) => p.name === 'checked')?.value.value as string | undefined,
    }));
}

const SIZES = [
  { width: 320, height: 180 },
  { width: 480, height: 270 },
  { width: 560, height: 315 },
  { width: 640, height: 360 },
  { width: 1280, height: 720 },
  { width: 315, height: 560 },
];

describe('issue 17 item 2: the settings menu fits every embed size (one-column drill-down)', () => {
  beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

  /** Every check of one open list: inside the frame, above the controls, opaque, each item reachable and on top. */
  const checkList = (frame: Frame) =>
    frame.evaluate(() => {
      const W = window.innerWidth;
      const H = window.innerHeight;
      const menu = document.querySelector<HTMLElement>('.vf-menu')!;
      const m = menu.getBoundingClientRect();
      const controls = document.querySelector('.vf-controls')!.getBoundingClientRect();
      const style = getComputedStyle(menu);
      const alpha = /rgba\(.*,\s*([\d.]+)\)/.exec(style.backgroundColor)?.[1];
      // The title bar takes no pointer events; let it (CSSOM: the page's CSP refuses style elements), so that
      // elementFromPoint sees it if it were above an item.
      const titled = [...document.querySelectorAll<HTMLElement>('.vf-titlebar, .vf-titlebar *')];
      for (const el of titled) el.style.setProperty('pointer-events', 'auto', 'important');
      const items = [...menu.querySelectorAll<HTMLElement>('[role^="menuitem"]')].map((item) => {
        item.scrollIntoView({ block: 'nearest' });
        const r = item.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {
          name: item.textContent,
          onTop: !!hit && item.contains(hit),
          hit: hit?.className ?? null,
          insideMenu: r.top >= m.top - 0.5 && r.bottom <= m.bottom + 0.5 && r.left >= m.left - 0.5 && r.right <= m.right + 0.5,
        };
      });
      for (const el of titled) el.style.removeProperty('pointer-events');
      menu.scrollTop = 0;
      return {
        frame: { W, H },
        menu: {
          left: m.left,
          top: m.top,
          right: m.right,
          bottom: m.bottom,
          height: m.height,
          scrollHeight: menu.scrollHeight,
          clientHeight: menu.clientHeight,
        },
        overlapsControls: m.bottom > controls.top && m.top < controls.bottom && m.right > controls.left && m.left < controls.right,
        overflowY: style.overflowY,
        opaque: alpha === undefined,
        columns: new Set([...menu.querySelectorAll<HTMLElement>('[role^="menuitem"]')].map((i) => Math.round(i.getBoundingClientRect().left))).size,
        items,
      };
    });

  it.each(SIZES)('at $width×$height: main list and each sub-list fit in the frame, opaque, one column, every item on top and reachable', async (size) => {
    const frame = await openFramed('VFsunrise01', 'autoplay=0', size);
    await stateIs(frame, 5);
    const page = frame.page();
    await frame.click('.vf-settings');
    await frame.waitForSelector('.vf-menu[data-page="main"]');
    const mainNames = await frame.$$eval('.vf-menu [role="menuitem"]', (els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()));
    expect(mainNames).toEqual([expect.stringContaining('Playback speed'), expect.stringContaining('Quality'), expect.stringContaining('Subtitles/CC')]);
    await page.screenshot({ path: join(SHOTS, `menu-main-${size.width}x${size.height}.png`) });

    for (const [row, sub, count] of [
      ['Playback speed', 'speed', 8],
      ['Quality', 'quality', 2],
      ['Subtitles/CC', 'captions', 3],
    ] as const) {
      const list = sub === 'speed' ? await checkList(frame) : null; // the main list once
      if (list) {
        expect(list.items).toHaveLength(3);
        assertFits(list);
      }
      await frame.click(`.vf-menu [role="menuitem"]:has-text("${row}")`);
      await frame.waitForSelector(`.vf-menu[data-page="${sub}"]`);
      const opened = await checkList(frame);
      expect(opened.items.map((i) => i.name)[0]).toContain('Back');
      expect(opened.items).toHaveLength(count + 1);
      assertFits(opened);
      await page.screenshot({ path: join(SHOTS, `menu-${sub}-${size.width}x${size.height}.png`) });
      await frame.click('.vf-menu-back');
      await frame.waitForSelector('.vf-menu[data-page="main"]');
    }
    await page.close();

    function assertFits(list: Awaited<ReturnType<typeof checkList>>) {
      const { frame: f, menu } = list;
      expect([menu.left >= 0, menu.top >= 0, menu.right <= f.W, menu.bottom <= f.H]).toEqual([true, true, true, true]);
      expect(list.overlapsControls).toBe(false);
      expect(list.opaque).toBe(true);
      expect(list.columns).toBe(1);
      // Taller content than the frame allows scrolls inside the menu.
      if (menu.scrollHeight > menu.clientHeight + 1) expect(['auto', 'scroll']).toContain(list.overflowY);
      for (const item of list.items) expect(item).toMatchObject({ name: item.name, onTop: true, insideMenu: true });
    }
  });
});

describe('issue 17 item 3: keyboard focus stays in the player; the shortcut list', () => {
  it('a video playing on its own: a Tab into the frame reaches the player, which brings its controls; the next Tab is on a control (issue 15)', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=1&mute=1');
    const page = frame.page();
    await stateIs(frame, 1);
    await servicesStarted(frame);
    expect(await frame.locator('.vf-ui').evaluate((ui) => ui.childElementCount)).toBe(0);
    await page.keyboard.press('Tab');
    await frame.waitForSelector('.vf-player[data-controls-visible="true"] .vf-chrome', { state: 'attached' });
    expect(await frame.evaluate(() => document.activeElement?.className)).toBe('vf-player');
    expect(await frame.getAttribute('.vf-player', 'tabindex')).toBe('-1');
    await page.keyboard.press('Tab');
    const onControl = await focused(frame);
    // The first of the controls in the page's order (the title bar's Subscribe), with its focus ring.
    expect(onControl).toMatchObject({ tag: 'BUTTON', inPlayer: true });
    expect(await frame.evaluate(() => document.activeElement!.matches(':focus-visible'))).toBe(true);
    await page.close();
  });

  it('after click-to-play and after Replay at the end, k, m and space still work; a mouse click shows no focus ring, Tab does', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=0');
    const page = frame.page();
    await stateIs(frame, 5);
    await frame.click('.vf-bigplay');
    await stateIs(frame, 1);
    // The big play button is gone: focus is not left on BODY but kept in the player.
    await frame.waitForFunction(() => document.activeElement !== document.body && !!document.activeElement?.closest('.vf-player'));
    expect((await focused(frame)).inPlayer).toBe(true);
    await page.keyboard.press('k');
    await stateIs(frame, 2);
    // Each press waits for the player's own view of the mute (its button), not only the element's property: the
    // element's volumechange comes in a task of its own, which a scripted key press can overtake.
    await page.keyboard.press('m');
    await frame.waitForFunction(() => document.querySelector('video')!.muted);
    await frame.waitForSelector('.vf-mute[aria-pressed="true"]', { state: 'attached' });
    await page.keyboard.press('m');
    await frame.waitForFunction(() => !document.querySelector('video')!.muted);
    await frame.waitForSelector('.vf-mute[aria-pressed="false"]', { state: 'attached' });

    // To the end: 9 jumps to 90 %, space plays out the rest.
    await page.keyboard.press('9');
    await frame.waitForFunction(() => document.querySelector('video')!.currentTime > 10);
    await page.keyboard.press(' ');
    await stateIs(frame, 0);
    expect((await focused(frame)).inPlayer).toBe(true);
    // Replay from the end screen with the mouse: the end screen goes, focus stays in the player, k pauses.
    await frame.click('.vf-end-replay');
    await stateIs(frame, 1);
    await frame.waitForFunction(() => !document.querySelector('.vf-endscreen'));
    await frame.waitForFunction(() => document.activeElement !== document.body);
    await page.keyboard.press('k');
    await stateIs(frame, 2);

    // A mouse click focuses without a ring; a Tab from there shows one.
    await frame.click('.vf-playpause');
    await stateIs(frame, 1);
    const ring = () =>
      frame.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return { cls: el.className, visible: el.matches(':focus-visible'), outline: getComputedStyle(el).outlineStyle };
      });
    expect(await ring()).toMatchObject({ cls: expect.stringContaining('vf-playpause'), visible: false, outline: 'none' });
    await page.keyboard.press('Tab');
    const afterTab = await ring();
    expect(afterTab.cls).not.toContain('vf-playpause');
    expect(afterTab).toMatchObject({ visible: true, outline: 'solid' });
    await page.close();
  });

  it('? opens the list of the real shortcuts as a dialog (inside a 320×180 frame); Tab stays in it; Escape closes it and gives focus back', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=0', { width: 320, height: 180 });
    const page = frame.page();
    await stateIs(frame, 5);
    await frame.click('.vf-playpause');
    await stateIs(frame, 1);
    await page.keyboard.press('k');
    await stateIs(frame, 2);
    expect((await focused(frame)).cls).toContain('vf-playpause');

    await page.keyboard.press('Shift+Slash');
    await frame.waitForSelector('[role="dialog"].vf-shortcuts');
    const dialog = await frame.evaluate(() => {
      const d = document.querySelector('.vf-shortcuts')!;
      return {
        modal: d.getAttribute('aria-modal'),
        title: document.getElementById(d.getAttribute('aria-labelledby') ?? '')?.textContent,
        rows: [...d.querySelectorAll('.vf-shortcuts-row')].map(
          (r) => `${[...r.querySelectorAll('kbd')].map((k) => k.textContent).join(' ')}: ${r.querySelector('dd')?.textContent}`,
        ),
        inside: d.contains(document.activeElement),
        rect: d.getBoundingClientRect().toJSON() as DOMRect,
        scrolls: d.scrollHeight <= d.clientHeight + 1 || ['auto', 'scroll'].includes(getComputedStyle(d).overflowY),
        frame: { W: window.innerWidth, H: window.innerHeight },
      };
    });
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'shortcuts-320x180.png') });
    expect([dialog.rect.left >= 0, dialog.rect.top >= 0, dialog.rect.right <= dialog.frame.W, dialog.rect.bottom <= dialog.frame.H, dialog.scrolls]).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(dialog).toMatchObject({ modal: 'true', title: 'Keyboard shortcuts', inside: true });
    expect(dialog.rows).toEqual(
      expect.arrayContaining([
        'k Space: Play or pause',
        'j: Back 10 seconds',
        'l: Forward 10 seconds',
        '←: Back 5 seconds',
        '→: Forward 5 seconds',
        'm: Mute or unmute',
        'c: Subtitles on or off',
        'f: Full screen',
        '?: Show this list',
      ]),
    );
    // While it is open the player's keys do nothing and Tab does not leave it.
    await page.keyboard.press('k');
    await page.keyboard.press('Tab');
    expect(await frame.evaluate(() => document.querySelector('.vf-shortcuts')!.contains(document.activeElement))).toBe(true);
    expect(await frame.getAttribute('.vf-player', 'data-state')).toBe('2');

    await page.keyboard.press('Escape');
    await frame.waitForSelector('.vf-shortcuts', { state: 'detached' });
    expect((await focused(frame)).cls).toContain('vf-playpause');
    // And the keys work again.
    await page.keyboard.press('k');
    await stateIs(frame, 1);
    await page.close();
  });
});

describe('issue 17 item 6: keyboard and screen-reader use', () => {
  it('settings menu: WAI-ARIA menu pattern (focus on open, arrows, Home/End, one Tab stop, Escape and a choice return focus), names without the tick', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=0');
    const page = frame.page();
    await stateIs(frame, 5);
    await frame.focus('.vf-settings');
    await page.keyboard.press('Enter');
    await frame.waitForSelector('.vf-menu[data-page="main"]');
    // Opening focuses the first row; the menu is one Tab stop.
    await focusIn(frame, '.vf-menu [role="menuitem"]');
    expect((await focused(frame)).text).toContain('Playback speed');
    expect(await frame.$$eval('.vf-menu [tabindex="0"], .vf-menu button:not([tabindex="-1"])', (els) => els.length)).toBe(1);
    await page.keyboard.press('ArrowDown');
    expect((await focused(frame)).text).toContain('Quality');
    await page.keyboard.press('End');
    expect((await focused(frame)).text).toContain('Subtitles/CC');
    await page.keyboard.press('ArrowDown'); // wraps
    expect((await focused(frame)).text).toContain('Playback speed');
    await page.keyboard.press('ArrowUp'); // wraps back
    expect((await focused(frame)).text).toContain('Subtitles/CC');
    await page.keyboard.press('Home');
    expect((await focused(frame)).text).toContain('Playback speed');
    expect(await frame.$$eval('.vf-menu [tabindex="0"]', (els) => els.length)).toBe(1);

    // Enter opens the sub-list on its checked item; the names are the labels, without the tick.
    await page.keyboard.press('Enter');
    await frame.waitForSelector('.vf-menu[data-page="speed"]');
    await focusIn(frame, '.vf-menu [role="menuitemradio"][aria-checked="true"]');
    expect((await focused(frame)).text).toBe('Normal');
    const radios = (await axNodes(page, frame)).filter((n) => n.role === 'menuitemradio');
    expect(radios.map((r) => r.name)).toEqual(['0.25×', '0.5×', '0.75×', 'Normal', '1.25×', '1.5×', '1.75×', '2×']);
    expect(radios.find((r) => r.name === 'Normal')?.checked).toBe('true');
    expect(radios.some((r) => r.name.includes('✓'))).toBe(false);

    // Escape closes it, focus back on Settings.
    await page.keyboard.press('Escape');
    await frame.waitForSelector('.vf-menu', { state: 'detached' });
    expect((await focused(frame)).cls).toContain('vf-settings');

    // A choice by keyboard: applied, menu closed, focus back on Settings.
    await page.keyboard.press('Enter');
    await focusIn(frame, '.vf-menu [role="menuitem"]');
    await page.keyboard.press('ArrowRight');
    await focusIn(frame, '.vf-menu [role="menuitemradio"][aria-checked="true"]');
    await page.keyboard.press('ArrowDown');
    expect((await focused(frame)).text).toBe('1.25×');
    await page.keyboard.press('Enter');
    await frame.waitForFunction(() => document.querySelector('video')!.playbackRate === 1.25);
    await frame.waitForSelector('.vf-menu', { state: 'detached' });
    expect((await focused(frame)).cls).toContain('vf-settings');
    // Still cued: the menu keys reached no player shortcut.
    expect(await frame.getAttribute('.vf-player', 'data-state')).toBe('5');

    // Back by ←, and by the Back item; Tab leaves the menu in one step.
    await page.keyboard.press('Enter');
    await focusIn(frame, '.vf-menu [role="menuitem"]');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await frame.waitForSelector('.vf-menu[data-page="captions"]');
    await page.keyboard.press('ArrowLeft');
    await frame.waitForSelector('.vf-menu[data-page="main"]');
    expect((await focused(frame)).text).toContain('Subtitles/CC');
    await page.keyboard.press('Tab');
    expect(await frame.evaluate(() => !!document.activeElement && !document.activeElement.closest('.vf-menu'))).toBe(true);
    await page.close();
  });

  it('seek slider: WAI-ARIA slider keys without starting a cued video, value text in words agreeing with the value and naming the chapter; .vf-time has no label on a role-less span', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=0');
    const page = frame.page();
    await stateIs(frame, 5);
    await frame.waitForFunction(() => document.querySelector('.vf-seek')?.getAttribute('aria-valuemax') === '12');
    const slider = () =>
      frame.evaluate(() => {
        const s = document.querySelector('.vf-seek')!;
        const v = document.querySelector('video')!;
        return {
          now: s.getAttribute('aria-valuenow'),
          text: s.getAttribute('aria-valuetext'),
          max: s.getAttribute('aria-valuemax'),
          paused: v.paused,
          volume: v.volume,
          state: document.querySelector('.vf-player')!.getAttribute('data-state'),
        };
      });
    /** Presses `key` on the slider and waits until the element has sought to `t` (±0.3 s) and the slider shows it. */
    const press = async (key: string, t: number) => {
      await page.keyboard.press(key);
      await frame.waitForFunction((t) => {
        const v = document.querySelector('video')!;
        return (
          !v.seeking &&
          Math.abs(v.currentTime - t) < 0.3 &&
          document.querySelector('.vf-seek')!.getAttribute('aria-valuenow') === String(Math.floor(v.currentTime))
        );
      }, t);
      return slider();
    };
    const volume = (await slider()).volume;
    await frame.focus('.vf-seek');

    // → on the cued video: the position moves, playback does not start; the text names the chapter there.
    expect(await press('ArrowRight', 5)).toMatchObject({
      now: '5',
      text: '5 seconds of 12 seconds, Chapter: The horizon',
      max: '12',
      paused: true,
      state: '5',
    });
    expect(await press('ArrowUp', 10)).toMatchObject({ now: '10', text: '10 seconds of 12 seconds, Chapter: Full light', paused: true, volume });
    expect(await press('ArrowDown', 5)).toMatchObject({ now: '5', paused: true, volume });
    expect(await press('Home', 0)).toMatchObject({ now: '0', text: '0 seconds of 12 seconds, Chapter: Before dawn', paused: true });
    expect(await press('PageUp', 10)).toMatchObject({ now: '10', text: '10 seconds of 12 seconds, Chapter: Full light', paused: true });
    expect(await press('PageDown', 0)).toMatchObject({ now: '0', paused: true });
    expect(await press('ArrowRight', 5)).toMatchObject({ state: '5' });
    expect(await press('ArrowLeft', 0)).toMatchObject({ now: '0', paused: true, state: '5' });
    expect(await frame.getAttribute('.vf-player', 'data-state')).toBe('5');

    // The time display: readable text, no aria-label on an element without a role.
    const time = await frame.evaluate(() => {
      const t = document.querySelector('.vf-time')!;
      return { label: t.getAttribute('aria-label'), role: t.getAttribute('role'), text: t.textContent };
    });
    expect(time.label === null || time.role !== null).toBe(true);
    expect(time.text).toBe('0:00 / 0:12');
    await page.close();
  });

  it('the author line under the title reaches 4.5:1 over the dark theme poster at every pixel behind it', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=0&theme=dark');
    const page = frame.page();
    await stateIs(frame, 5);
    // The poster is drawn (decoded, then two frames).
    await frame.evaluate(async () => {
      const img = new Image();
      img.src = document.querySelector('video')!.poster;
      await img.decode();
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    });
    // The shell says the state at once; the controls (with the title bar) come right after. A locator, not a handle:
    // the title bar may render again as the video's data settles, and a handle would be left on the element it replaced.
    const author = frame.locator('.vf-author');
    await author.waitFor();
    await frame.waitForFunction(() => {
      const r = document.querySelector('.vf-author')?.getBoundingClientRect();
      return r !== undefined && r.width > 0 && r.height > 0;
    });
    const box = await author.boundingBox();
    if (!box) throw new Error('the author line has no box');
    const textColor = await author.evaluate((el) => getComputedStyle(el).color);
    /** The pixels behind the author line, the text made transparent (the background alone); `bare`: without the scrim. */
    const behind = async (bare: boolean) => {
      await frame.evaluate((bare) => {
        const a = document.querySelector<HTMLElement>('.vf-author')!;
        a.style.setProperty('color', 'transparent', 'important');
        a.style.setProperty('text-shadow', 'none', 'important');
        if (bare) document.querySelector<HTMLElement>('.vf-titlebar')!.style.setProperty('background', 'none', 'important');
        return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }, bare);
      const png = await page.screenshot({ clip: box });
      await frame.evaluate(() => {
        for (const el of document.querySelectorAll<HTMLElement>('.vf-author, .vf-titlebar')) el.removeAttribute('style');
      });
      return decodePng(png);
    };
    const withScrim = contrasts(await behind(false), textColor);
    const bare = contrasts(await behind(true), textColor);
    // The poster alone would fail (the measurement sees it), the player's title area passes at every pixel.
    expect(bare.min).toBeLessThan(4.5);
    expect(withScrim.min).toBeGreaterThanOrEqual(4.5);
    console.log(
      `author contrast: poster alone min ${bare.min.toFixed(2)} median ${bare.median.toFixed(2)}; player min ${withScrim.min.toFixed(2)} median ${withScrim.median.toFixed(2)}`,
    );
    await page.close();
  });
});

/**
 * The light theme (`theme=light`): its white overlays keep every control visible. Text reaches 4.5:1 against what is
 * behind it, a control's shape 3:1 (WCAG 1.4.11), measured at every pixel behind it with the control hidden.
 */
describe('the light theme: contrast of the Subscribe button, the seek bar and the control bar', () => {
  it('Subscribe: its text 4.5:1 on it, its shape 3:1 over every pixel behind it; the seek bar track, played part and handle 3:1 over the band and each other', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=0&theme=light');
    const page = frame.page();
    await stateIs(frame, 5);
    await frame.evaluate(async () => {
      const img = new Image();
      img.src = document.querySelector('video')!.poster;
      await img.decode();
    });
    const colour = (selector: string, property: 'color' | 'backgroundColor') =>
      frame.evaluate(([sel, prop]) => getComputedStyle(document.querySelector(sel)!)[prop], [selector, property] as const);
    /** The pixels behind `selector`'s box with the element hidden (its background alone). */
    const behind = async (selector: string) => {
      const box = await frame.locator(selector).boundingBox();
      if (!box) throw new Error(`${selector} has no box`);
      await frame.evaluate((sel) => {
        document.querySelector<HTMLElement>(sel)!.style.setProperty('visibility', 'hidden', 'important');
        return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }, selector);
      const png = await page.screenshot({ clip: box });
      await frame.evaluate((sel) => document.querySelector<HTMLElement>(sel)!.style.removeProperty('visibility'), selector);
      return decodePng(png);
    };
    const ratio = (a: string, b: string) => {
      const [r, g, bl] = (b.match(/[\d.]+/g) ?? []).map(Number);
      return contrasts([r, g, bl, 255], a).min;
    };

    const subscribe = '.vf-subscribe';
    await frame.waitForSelector(subscribe);
    const subscribeBg = await colour(subscribe, 'backgroundColor');
    expect(ratio(await colour(subscribe, 'color'), subscribeBg)).toBeGreaterThanOrEqual(4.5);
    const behindSubscribe = await behind(subscribe);
    expect(contrasts(behindSubscribe, subscribeBg).min).toBeGreaterThanOrEqual(3);
    // The measurement sees a button that vanishes: the dark theme's white Subscribe would, here.
    expect(contrasts(behindSubscribe, 'rgb(255, 255, 255)').min).toBeLessThan(3);

    // The slider focused and moved (a cued video stays cued): the played part and the handle show.
    await frame.focus('.vf-seek');
    await page.keyboard.press('ArrowRight');
    await frame.waitForFunction(() => document.querySelector('.vf-seek-played')!.getBoundingClientRect().width > 20);
    await frame.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    await frame.waitForFunction(() => getComputedStyle(document.querySelector('.vf-chrome')!).opacity === '1');
    const [track, played, handle] = await Promise.all(['.vf-seek-track', '.vf-seek-played', '.vf-seek-thumb'].map((s) => colour(s, 'backgroundColor')));
    const behindTrack = await behind('.vf-seek-track');
    for (const part of [track, played, handle]) expect(contrasts(behindTrack, part).min).toBeGreaterThanOrEqual(3);
    expect(ratio(played, track)).toBeGreaterThanOrEqual(3);
    expect(ratio(handle, track)).toBeGreaterThanOrEqual(3);
    // The dark theme's grey track would fade into the light band.
    expect(contrasts(behindTrack, 'rgba(127, 127, 127, 0.45)').min).toBeLessThan(3);

    // The control icons (non-text, 3:1) and the time (text, 4.5:1) over the band behind them.
    const icon = await colour('.vf-playpause', 'color');
    expect(contrasts(await behind('.vf-playpause'), icon).min).toBeGreaterThanOrEqual(3);
    expect(contrasts(await behind('.vf-settings'), icon).min).toBeGreaterThanOrEqual(3);
    expect(contrasts(await behind('.vf-time'), await colour('.vf-time', 'color')).min).toBeGreaterThanOrEqual(4.5);
    await page.close();
  });
});

describe('the share panel: WAI-ARIA dialog pattern', () => {
  it('focus moves into it, Tab and Shift+Tab cycle inside it, Escape closes it and gives focus back to Share', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=0', { width: 1280, height: 720 });
    const page = frame.page();
    await stateIs(frame, 5);
    await frame.click('.vf-share-button');
    await focusIn(frame, '[data-share="video"] .vf-copy');
    expect(await frame.evaluate(() => document.querySelector('.vf-share')!.getAttribute('aria-modal'))).toBe('true');
    const count = await frame.evaluate(() => document.querySelectorAll('.vf-share :is(button, input, textarea)').length);
    const inside = () => frame.evaluate(() => document.querySelector('.vf-share')!.contains(document.activeElement));
    // A whole round of Tab comes back to where it started, never leaving the panel.
    for (let i = 0; i < count; i++) {
      await page.keyboard.press('Tab');
      expect(await inside()).toBe(true);
    }
    await focusIn(frame, '[data-share="video"] .vf-copy');
    await frame.focus('.vf-share-header button');
    await page.keyboard.press('Shift+Tab');
    expect(await inside()).toBe(true);
    expect(await frame.evaluate(() => document.activeElement === [...document.querySelectorAll('.vf-share :is(button, input, textarea)')].pop())).toBe(true);
    await page.keyboard.press('Escape');
    await frame.waitForSelector('.vf-share', { state: 'detached' });
    await focusIn(frame, '.vf-share-button');
    await page.close();
  });
});

/** RGBA pixels of a PNG, decoded by the browser itself (a blank page's canvas). */
async function decodePng(png: Buffer): Promise<number[]> {
  const page = await browser.newPage();
  const data = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    return [...ctx.getImageData(0, 0, canvas.width, canvas.height).data];
  }, png.toString('base64'));
  await page.close();
  return data;
}

const luminance = (r: number, g: number, b: number) => {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
};

/** WCAG contrast of the text colour (its alpha composited over each pixel) against each background pixel. */
function contrasts(pixels: number[], cssColor: string): { min: number; median: number } {
  const [r, g, b, a = 1] = (cssColor.match(/[\d.]+/g) ?? []).map(Number);
  const ratios: number[] = [];
  for (let i = 0; i < pixels.length; i += 4) {
    const [br, bg, bb] = [pixels[i], pixels[i + 1], pixels[i + 2]];
    const fg = luminance(r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a));
    const back = luminance(br, bg, bb);
    ratios.push((Math.max(fg, back) + 0.05) / (Math.min(fg, back) + 0.05));
  }
  ratios.sort((x, y) => x - y);
  return { min: ratios[0], median: ratios[Math.floor(ratios.length / 2)] };
}

describe('suggested videos and the double-tap announcement: roles and names a screen reader gets', () => {
  it('the end screen: a list of named links; the pause strip: a disclosure button; a polite status for touch seeks', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=1&mute=1');
    const page = frame.page();
    await stateIs(frame, 1);
    await frame.hover('.vf-player');
    await frame.waitForFunction(() => document.querySelector('video')!.currentTime > 0.5);
    await frame.click('.vf-playpause');
    await frame.waitForSelector('.vf-morevideos-list a.vf-suggestion');
    const paused = await axNodes(page, frame);
    expect(paused).toContainEqual(expect.objectContaining({ role: 'button', name: 'Hide more videos' }));
    expect(paused).toContainEqual(expect.objectContaining({ role: 'list', name: 'Suggested videos' }));
    expect(paused.filter((n) => n.role === 'link').map((n) => n.name)).toContainEqual(expect.stringMatching(/^City lights, VidFrame Samples, 0:10$/));
    expect(await frame.getAttribute('.vf-tapseek-status', 'role')).toBe('status');
    expect(await frame.getAttribute('.vf-tapseek-status', 'aria-live')).toBe('polite');

    await frame.evaluate(() => {
      const video = document.querySelector('video')!;
      video.currentTime = video.duration - 0.3;
      void video.play();
    });
    await frame.waitForSelector('.vf-end-suggestions a.vf-suggestion');
    const ended = await axNodes(page, frame);
    const links = ended.filter((n) => n.role === 'link').map((n) => n.name);
    expect(links.length).toBeGreaterThan(1);
    for (const name of links) expect(name).toMatch(/^.+, VidFrame .+, \d+:\d\d$/);
    expect(ended).toContainEqual(expect.objectContaining({ role: 'list', name: 'Suggested videos' }));
    await page.close();
  });
});
