import { useEffect, useRef } from 'react';
import type { Identity } from '../services/identity';
import { useI18n } from '../i18n/I18nContext';

/**
 * What a signed-out viewer sees instead of a failure when an action needs an account (subscribe, watch later): why,
 * and a "Sign in" that opens the sign-in within this press (the pop-up must open in the press to get past pop-up
 * blockers). Focus moves to "Sign in"; Escape or "Not now" calls `onClose`, where the caller gives focus back to the button that opened it.
 */
export function SignInInvite({ identity, message, onClose }: { identity: Identity; message: string; onClose: () => void }) {
  const signInButton = useRef<HTMLButtonElement>(null);
  const { t } = useI18n();
  useEffect(() => signInButton.current?.focus(), []);
  return (
    <div
      className="vf-invite"
      role="dialog"
      aria-label={t('signIn')}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <p className="vf-invite-message">{message}</p>
      <div className="vf-invite-buttons">
        <button
          ref={signInButton}
          type="button"
          className="vf-pill vf-pill-primary"
          onClick={() => {
            void identity.signIn();
            onClose();
          }}
        >
          {t('signIn')}
        </button>
        <button type="button" className="vf-pill" onClick={onClose}>
          {t('notNow')}
        </button>
      </div>
    </div>
  );
}
