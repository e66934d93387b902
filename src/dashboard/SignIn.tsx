import { type FormEvent, useId, useState } from 'react';
import type { Access } from './dashboardState';

/**
 * Asks for the admin token: when there is none yet, and when the collector refused the one given (wrong, or replaced
 * since). The token goes to this tab's session only.
 */
export function SignIn({ access, onSignIn }: { access: Extract<Access, { status: 'signedOut' } | { status: 'refused' }>; onSignIn: (token: string) => void }) {
  const [token, setToken] = useState('');
  const [shown, setShown] = useState(false);
  const inputId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) onSignIn(token);
  };
  const refused = access.status === 'refused';
  return (
    <main className="sign-in-page">
      <form className="card sign-in" onSubmit={submit} data-testid="sign-in" data-reason={access.status} aria-labelledby={`${inputId}-title`}>
        <div className="brand-mark" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="22" height="22">
            <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
          </svg>
        </div>
        <h1 id={`${inputId}-title`}>Collector dashboard</h1>
        {refused ? (
          <div className="notice alert" role="alert" data-testid="sign-in-refused">
            <strong>The collector refused this token.</strong> It may be mistyped, or it was replaced since. Paste the current one.
            <span className="notice-detail">{access.message}</span>
          </div>
        ) : (
          <p className="lead">
            The dashboard reads the collector’s telemetry with the admin token: the server keeps it in its data folder’s <code>secrets/admin-token</code> file
            (or takes it from <code>VIDFRAME_ADMIN_TOKEN</code>). Paste it here, or open <code>/collector?token=…</code> with it.
          </p>
        )}
        <label htmlFor={inputId}>Admin token</label>
        <div className="token-field">
          <input
            id={inputId}
            name="token"
            type={shown ? 'text' : 'password'}
            autoComplete="off"
            spellCheck={false}
            autoFocus
            value={token}
            onChange={(e) => setToken(e.target.value)}
            placeholder="Paste the token"
          />
          <button type="button" className="ghost" onClick={() => setShown((s) => !s)} aria-pressed={shown}>
            {shown ? 'Hide' : 'Show'}
          </button>
        </div>
        <button type="submit" className="primary" disabled={!token.trim()}>
          Sign in
        </button>
        <p className="fine-print">
          Kept in this tab only (session storage) and sent as <code>Authorization: Bearer</code>.
        </p>
      </form>
    </main>
  );
}
