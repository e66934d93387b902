import type { Account, ChannelAccess } from './accountStore';
import { escapeHtml } from '../http/escapeHtml';
import { DEMO_ACCOUNTS } from './demoAccounts';
import { SIGNIN_STYLESHEET_PATH } from './signinStylesheet';

/** What the sign-in page shows: the form (with the email typed and an error after a failed attempt), or who is signed in. */
export type SigninView =
  | { kind: 'form'; popup: boolean; demoAccounts: boolean; email?: string; error?: string }
  | { kind: 'signedIn'; popup: boolean; account: Account; channels: readonly ChannelAccess[]; actingChannelId: string | null };

/**
 * VidFrame's logo (the player's icon, as the favicon draws it) and wordmark at the top of every sign-in page (the page's
 * heading where it has no other). Inline SVG with presentation attributes: nothing for the CSP to allow.
 */
const brand = (tag: 'h1' | 'p') =>
  `<${tag} class="brand"><svg class="logo" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="7" fill="#e5322d"/><path d="M12 9v14l11-7z" fill="#fff"/></svg>VidFrame</${tag}>`;

// `same-origin`, not `no-referrer`: under `no-referrer` Chromium sends `Origin: null` with the page's own form posts,
// which the cross-site check (`isSameOriginOrUnnamed`) rightly refuses. Other origins still get no referrer.
const page = (title: string, body: string, head = '') => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${SIGNIN_STYLESHEET_PATH}">
${head}</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

const popupField = (popup: boolean) => (popup ? '<input type="hidden" name="popup" value="1">\n' : '');

const signOutForm = (popup: boolean, label = 'Sign out') =>
  `<form method="post" action="/signout">
${popupField(popup)}<button type="submit" class="secondary">${escapeHtml(label)}</button>
</form>`;

/** The demo accounts and their public passwords, shown only where they were seeded. */
const demoAccountsNote = `<p class="muted">Demo accounts: ${Object.values(DEMO_ACCOUNTS)
  .map((a) => `${escapeHtml(a.email)} / ${escapeHtml(a.password)}`)
  .join(', ')}.</p>`;

/**
 * The sign-in page of the server's own origin (`GET /signin`, and `POST /signin` after a failed attempt). Plain HTML
 * forms, no script: it works with scripts off, and the CSP has nothing to allow. Every value is escaped.
 */
export function renderSigninPage(view: SigninView): string {
  if (view.kind === 'form') {
    return page(
      'Sign in to VidFrame',
      `${brand('p')}
<h1>Sign in to VidFrame</h1>
${view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>\n` : ''}<form method="post" action="/signin">
${popupField(view.popup)}<label>Email <input type="email" name="email" autocomplete="username" required maxlength="254" value="${escapeHtml(view.email ?? '')}"${view.email ? '' : ' autofocus'}></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required maxlength="1024"${view.email ? ' autofocus' : ''}></label>
<button type="submit">Sign in</button>
</form>
${view.demoAccounts ? demoAccountsNote : ''}`,
    );
  }
  const { account, channels, actingChannelId } = view;
  const option = (value: string, label: string) =>
    `<option value="${escapeHtml(value)}"${(actingChannelId ?? '') === value ? ' selected' : ''}>${escapeHtml(label)}</option>`;
  const picker =
    channels.length === 0
      ? ''
      : `<form method="post" action="/accounts/act_as">
<label>Act as <select name="channelId">
${[option('', `yourself (${account.displayName})`), ...channels.map((c) => option(c.id, `${c.title}${c.relation === 'manager' ? ' (manager)' : ''}`))].join('\n')}
</select></label>
<button type="submit">Switch</button>
</form>
`;
  return page(
    'Signed in to VidFrame',
    `${brand('h1')}
<p>Signed in as <strong>${escapeHtml(account.displayName)}</strong> <span class="muted">(${escapeHtml(account.email)})</span></p>
${picker}${signOutForm(view.popup)}`,
  );
}

/**
 * The pop-up's last page: hands the session secret to the window that opened it (the embed, same origin) and closes.
 * `postMessage` targets `location.origin`, so a page of another origin that opened the pop-up receives nothing. The
 * script is the only one on the page and runs under the reply's CSP nonce.
 */
export function renderSessionHandOverPage({ account, secret, nonce }: { account: Account; secret: string; nonce: string }): string {
  // JSON, with `<` escaped: a string literal that cannot end the script element.
  const literal = JSON.stringify(secret).replace(/</g, '\\u003c');
  const script = `window.opener && window.opener.postMessage({ type: 'vidframe:session', session: ${literal} }, location.origin); window.close();`;
  return page(
    'Signed in to VidFrame',
    `${brand('h1')}
<p>Signed in as <strong>${escapeHtml(account.displayName)}</strong>, you can close this window.</p>
${signOutForm(true, 'Use another account')}`,
    `<script nonce="${escapeHtml(nonce)}">${script}</script>\n`,
  );
}
