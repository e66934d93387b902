/**
 * The sign-in pages' stylesheet, served at {@link SIGNIN_STYLESHEET_PATH} from the server's own origin: the CSP
 * (`style-src 'self'`, no nonce for styles, no `'unsafe-inline'`) refuses `<style>` blocks and `style` attributes.
 * It wears VidFrame's look: the demo host page's typography, colour tokens, card and buttons (`src/host/host.css`) and
 * the player's logo; dark when the viewer's system is. Every text reaches 4.5:1 on its background in both schemes.
 */
export const SIGNIN_STYLESHEET_PATH = '/accounts/signin.css';

export const SIGNIN_STYLESHEET = `:root {
  --bg: #f3f4f8; --card: #ffffff; --ink: #16181d; --muted: #596070; --line: #d5d9e3; --field: #f7f8fb;
  --accent: #e0245e; --accent-hover: #c81d52; --accent-ink: #ffffff;
  --error-ink: #a1161d; --error-bg: #fdecec; --error-line: #f3b9bb;
  color-scheme: light;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f0f10; --card: #1c1c1f; --ink: #f1f2f5; --muted: #a8adba; --line: #3a3c43; --field: #121214;
    --error-ink: #ffb4ab; --error-bg: #3a1618; --error-line: #7a2a2e;
    color-scheme: dark;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1rem;
  font: 14px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; background: var(--bg); color: var(--ink);
}
main {
  width: min(24rem, 100%); padding: 24px; background: var(--card); border: 1px solid var(--line); border-radius: 12px;
  box-shadow: 0 1px 2px rgba(16, 24, 40, 0.04), 0 8px 24px rgba(16, 24, 40, 0.06);
}
.brand { display: flex; align-items: center; gap: 10px; margin: 0 0 18px; font-size: 18px; font-weight: 700; letter-spacing: -0.01em; }
.logo { flex: none; display: block; }
h1 { font-size: 20px; line-height: 1.3; margin: 0 0 16px; letter-spacing: -0.01em; }
p { margin: 0 0 12px; }
form { display: grid; gap: 12px; margin: 0 0 16px; }
label { display: grid; gap: 4px; font-weight: 500; }
input, select, button { font: inherit; color: var(--ink); }
input, select { width: 100%; height: 38px; padding: 0 10px; border: 1px solid var(--line); border-radius: 7px; background: var(--field); font-weight: 400; }
button {
  height: 38px; padding: 0 16px; border: 1px solid var(--accent); border-radius: 7px; background: var(--accent);
  color: var(--accent-ink); font-weight: 600; cursor: pointer;
}
button:hover { background: var(--accent-hover); border-color: var(--accent-hover); }
button.secondary { background: transparent; color: var(--ink); border-color: var(--line); }
button.secondary:hover { background: var(--field); border-color: var(--muted); }
input:focus-visible, select:focus-visible, button:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.error {
  margin: 0 0 16px; padding: 10px 12px; border: 1px solid var(--error-line); border-left: 4px solid var(--error-ink); border-radius: 7px;
  background: var(--error-bg); color: var(--error-ink); font-weight: 500;
}
.muted { color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
@media (max-width: 480px) {
  body { place-items: start stretch; padding: 0; background: var(--card); }
  main { width: 100%; min-height: 100vh; border: 0; border-radius: 0; box-shadow: none; padding: 24px 20px; }
}
`;
