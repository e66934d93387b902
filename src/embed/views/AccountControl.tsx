import { useObservableEagerState } from 'observable-hooks';
import { SIGN_IN_FAILURES, type Identity } from '../services/identity';
import type { MessageKey } from '../i18n/catalogs/en';
import { useI18n } from '../i18n/I18nContext';

/** The player's own sign-in failures in the viewer's language; any other message (the server's) as it came. */
const FAILURE_WORDS: Record<string, MessageKey> = {
  [SIGN_IN_FAILURES.incompleteWindow]: 'signInIncompleteWindow',
  [SIGN_IN_FAILURES.incomplete]: 'signInIncomplete',
  [SIGN_IN_FAILURES.blocked]: 'signInBlocked',
};

/**
 * The viewer's account in the top-right corner of the player: "Sign in" for an anonymous viewer, and for a
 * signed-in one their name (and the channel they act for) with "Sign out". A failed sign-in says why.
 */
export function AccountControl({ identity }: { identity: Identity }) {
  const session = useObservableEagerState(identity.session$);
  const status = useObservableEagerState(identity.status$);
  const working = status.state === 'working';
  const { t } = useI18n();
  const failure = status.state === 'failed' ? FAILURE_WORDS[status.message] : undefined;
  return (
    <div className="vf-account" data-signed-in={session ? 'true' : 'false'}>
      {session ? (
        <>
          <span className="vf-account-name" title={session.account.email}>
            {session.actingChannel ? t('actingAs', { channel: session.actingChannel.title, name: session.account.displayName }) : session.account.displayName}
          </span>
          <button type="button" className="vf-account-button" onClick={() => void identity.signOut()}>
            {t('signOut')}
          </button>
        </>
      ) : (
        <button type="button" className="vf-account-button" disabled={working} onClick={() => void identity.signIn()}>
          {t(working ? 'signingIn' : 'signIn')}
        </button>
      )}
      {status.state === 'failed' && (
        <span className="vf-account-error" role="alert">
          {failure ? t(failure) : status.message}
        </span>
      )}
    </div>
  );
}
