import type { Browser } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';

/**
 * The sign-in page as a viewer sees it, in Chromium: VidFrame's card centred on a desktop screen and filling a phone's,
 * nothing wider than the screen, the logo and the accent button drawn, a failed attempt's error in view, and dark when
 * the system is. Photographed to test-results/signin/ (git-ignored).
 */
let server: RunningServer;
let browser: Browser;

withE2eEnvironment((env: { server: RunningServer; host: HostServer; browser: Browser }) => ({ server, browser } = env));

const SHOTS = resolve(__dirname, '../../test-results/signin');
mkdirSync(SHOTS, { recursive: true });

describe("the sign-in page wears VidFrame's look", () => {
  for (const [name, width, height] of [
    ['desktop', 1280, 800],
    ['phone', 360, 740],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${name} (${width}×${height}, ${scheme}): a card with the logo, the accent button and a visible error; nothing wider than the screen`, async () => {
        const page = await browser.newPage({ viewport: { width, height }, colorScheme: scheme });
        await page.goto(`${server.origin}/signin`);
        await page.fill('input[name="email"]', 'ada@example.com');
        await page.fill('input[name="password"]', 'not-her-password');
        await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
        await page.waitForSelector('.error[role="alert"]');
        await page.screenshot({ path: resolve(SHOTS, `${name}-${scheme}.png`), fullPage: true });
        const look = await page.evaluate(() => {
          const box = (s: string) => document.querySelector(s)!.getBoundingClientRect().toJSON() as DOMRect;
          const style = (s: string) => getComputedStyle(document.querySelector(s)!);
          return {
            scrollWidth: document.documentElement.scrollWidth,
            card: box('main'),
            logo: box('.brand .logo'),
            error: box('.error'),
            button: style('button[type="submit"]').backgroundColor,
            buttonInk: style('button[type="submit"]').color,
            body: style('body').backgroundColor,
            font: style('body').fontFamily,
          };
        });
        expect(look.scrollWidth).toBeLessThanOrEqual(width);
        expect(look.card.right).toBeLessThanOrEqual(width);
        expect(look.logo.width).toBe(32);
        expect(look.error.bottom).toBeLessThanOrEqual(height);
        expect(look.button).toBe('rgb(224, 36, 94)');
        expect(look.buttonInk).toBe('rgb(255, 255, 255)');
        expect(look.font).toContain('system-ui');
        // The page behind the card; on a phone the card is the page.
        const BODY = { light: { desktop: 'rgb(243, 244, 248)', phone: 'rgb(255, 255, 255)' }, dark: { desktop: 'rgb(15, 15, 16)', phone: 'rgb(28, 28, 31)' } };
        expect(look.body).toBe(BODY[scheme][name]);
        if (name === 'desktop') expect(Math.abs(look.card.left + look.card.right - width)).toBeLessThanOrEqual(2);
        else expect(look.card.width).toBe(width);
        await page.close();
      });
    }
  }
});
