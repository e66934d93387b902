import { useObservableEagerState } from 'observable-hooks';
import type { Identity } from '../services/identity';

/**
 * The viewer's account in the top-right corner of the player: "Sign in" for an anonymous viewer, and for a
 * signed-in one their name (and the channel they act for) with "Sign out". A failed sign-in says why.
 */
export function AccountControl({ identity }: { identity: Identity }) {
  const session = useObservableEagerState(identity.session$);
  const status = useObservableEagerState(identity.status$);
  const working = status.state === 'working';
  return (
    <div className="vf-account" data-signed-in={session ? 'true' : 'false'}>
      {session ? (
        <>
          <span className="vf-account-name" title={session.account.email}>
            {session.actingChannel ? `${session.actingChannel.title} (as ${session.account.displayName})` : session.account.displayName}
          </span>
          <button type="button" className="vf-account-button" onClick={() => void identity.signOut()}>
            Sign out
          </button>
        </>
      ) : (
        <button type="button" className="vf-account-button" disabled={working} onClick={() => void identity.signIn()}>
          {working ? 'Signing in…' : 'Sign in'}
        </button>
      )}
      {status.state === 'failed' && (
        <span className="vf-account-error" role="alert">
          {status.message}
        </span>
      )}
    </div>
  );
}
