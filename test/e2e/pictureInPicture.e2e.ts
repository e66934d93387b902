import type { Browser } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { frameWith } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';
import { rawHostPage } from './host.helpers';

/**
 * Picture-in-picture from the controls of the framed embed, as a viewer uses it: the button puts the video in the
 * browser's picture-in-picture window and takes it back, and says which it does. Needs `npm run build`.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

describe('picture-in-picture in the framed embed', () => {
  it('the button enters picture-in-picture and leaves it, and its label and state follow', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
    const embedUrl = `${server.origin}/embed/VFsunrise01?autoplay=1&mute=1`;
    await page.goto(host.page(`/pip-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
    const frame = await frameWith(page, '/embed/');
    await frame.waitForFunction(() => document.querySelector('video')!.readyState >= 1);
    // The viewer reaches for the player: the controls come.
    await page.hover('#player');
    const button = frame.locator('.vf-pip');
    await button.waitFor();
    expect(await button.getAttribute('aria-label')).toBe('Picture-in-picture');

    await button.click();
    await frame.waitForFunction(() => document.pictureInPictureElement === document.querySelector('video'));
    await frame.waitForFunction(() => document.querySelector('.vf-pip')?.getAttribute('aria-pressed') === 'true');
    expect(await button.getAttribute('aria-label')).toBe('Exit picture-in-picture');

    await button.click();
    await frame.waitForFunction(() => document.pictureInPictureElement === null);
    await frame.waitForFunction(() => document.querySelector('.vf-pip')?.getAttribute('aria-pressed') === 'false');
    expect(await button.getAttribute('aria-label')).toBe('Picture-in-picture');
    await page.close();
  });
});
