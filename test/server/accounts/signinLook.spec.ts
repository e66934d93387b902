import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Account } from '../../../server/accounts/accountStore';
import { renderSessionHandOverPage, renderSigninPage } from '../../../server/accounts/signinPages';
import { SIGNIN_STYLESHEET } from '../../../server/accounts/signinStylesheet';

/** The custom properties a block of the stylesheet sets (`--name: value;`). */
const tokens = (block: string): Record<string, string> => Object.fromEntries([...block.matchAll(/--([\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));

const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lin = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
};
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

const account = { id: 'a1', email: 'ada@example.com', displayName: 'Ada Lovelace' } as Account;

describe("the sign-in pages wear VidFrame's look", () => {
  const light = tokens(SIGNIN_STYLESHEET.split('@media (prefers-color-scheme: dark)')[0]);
  const dark = { ...light, ...tokens(SIGNIN_STYLESHEET.split('@media (prefers-color-scheme: dark)')[1].split('\n}\n')[0]) };

  it('every page opens with the logo and the wordmark; the form names its error as an alert; no inline style', () => {
    const form = renderSigninPage({ kind: 'form', popup: false, demoAccounts: false, email: 'ada@example.com', error: 'Wrong email or password' });
    expect(form).toMatch(/<main>\n<p class="brand"><svg class="logo" [^>]*aria-hidden="true"[^>]*>.*<\/svg>VidFrame<\/p>\n<h1>Sign in to VidFrame<\/h1>/);
    expect(form).toContain('<p class="error" role="alert">Wrong email or password</p>');
    const signedIn = renderSigninPage({ kind: 'signedIn', popup: false, account, channels: [], actingChannelId: null });
    const handOver = renderSessionHandOverPage({ account, secret: 's', nonce: 'n' });
    for (const page of [signedIn, handOver]) expect(page).toMatch(/<main>\n<h1 class="brand"><svg class="logo" .*<\/svg>VidFrame<\/h1>/);
    for (const page of [form, signedIn, handOver]) {
      expect(page).not.toMatch(/<style|style=/);
      expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    }
  });

  it("uses the demo host page's typography, accent and card, and the player's logo colour", () => {
    const host = readFileSync(resolve(__dirname, '../../../src/host/host.css'), 'utf8');
    const hostTokens = tokens(host.split('\n}\n')[0]);
    expect(light.accent).toBe(hostTokens.accent);
    expect(light.bg).toBe(hostTokens.bg);
    expect(light.card).toBe(hostTokens.card);
    expect(light.ink).toBe(hostTokens.ink);
    expect(SIGNIN_STYLESHEET).toContain("system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif");
    const favicon = readFileSync(resolve(__dirname, '../../../public/favicon.svg'), 'utf8');
    expect(renderSigninPage({ kind: 'form', popup: false, demoAccounts: false })).toContain(favicon.replace(/^<svg[^>]*>|<\/svg>\s*$/g, ''));
  });

  it('is a centred card that fills a phone screen, dark when the system is', () => {
    expect(SIGNIN_STYLESHEET).toMatch(/body \{[^}]*display: grid; place-items: center;/);
    expect(SIGNIN_STYLESHEET).toMatch(/@media \(max-width: 480px\) \{[^@]*main \{ width: 100%;/);
    expect(SIGNIN_STYLESHEET).toContain('@media (prefers-color-scheme: dark)');
    expect(dark.bg).not.toBe(light.bg);
  });

  it.each([
    ['light', light],
    ['dark', dark],
  ])('every text reaches 4.5:1 on its background in the %s scheme', (_scheme, t) => {
    for (const [ink, back] of [
      ['ink', 'card'],
      ['muted', 'card'],
      ['ink', 'field'],
      ['accent-ink', 'accent'],
      ['accent-ink', 'accent-hover'],
      ['error-ink', 'error-bg'],
    ])
      expect({ ink, back, ratio: contrast(t[ink], t[back]) >= 4.5 }).toEqual({ ink, back, ratio: true });
  });
});
