/**
 * The sign-in pages' stylesheet, served at {@link SIGNIN_STYLESHEET_PATH} from the server's own origin: the CSP
 * (`style-src 'self'`, no nonce for styles, no `'unsafe-inline'`) refuses `<style>` blocks and `style` attributes.
 */
export const SIGNIN_STYLESHEET_PATH = '/accounts/signin.css';

export const SIGNIN_STYLESHEET = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; display: grid; place-items: center; min-height: 100vh; background: Canvas; color: CanvasText; }
main { width: min(22rem, calc(100vw - 2rem)); padding: 1.5rem; border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: 0.75rem; }
h1 { font-size: 1.25rem; margin: 0 0 1rem; }
form { display: grid; gap: 0.75rem; margin: 0 0 1rem; }
label { display: grid; gap: 0.25rem; font-size: 0.9rem; }
input, select, button { font: inherit; padding: 0.5rem 0.6rem; border-radius: 0.4rem; border: 1px solid color-mix(in srgb, CanvasText 30%, transparent); }
button { cursor: pointer; background: #2563eb; color: white; border-color: #2563eb; }
button.secondary { background: transparent; color: inherit; }
.error { color: #b91c1c; margin: 0 0 1rem; }
.muted { opacity: 0.7; font-size: 0.9rem; }
`;
