import { useObservable, useObservableState } from 'observable-hooks';
import { NEVER, Observable } from 'rxjs';
import { type ConsentManager, type ConsentState, startConsentManager } from './ConsentManager';

const CHOICE_TEXT: Record<ConsentState['choice'], string> = {
  undecided: 'Not decided: no consent',
  granted: 'Granted',
  withdrawn: 'Withdrawn: no consent',
};

/**
 * The page's CMP for as long as the panel is mounted: started after mount and stopped on unmount (in StrictMode's
 * double mount the first one stops before the second starts, so the page never has two).
 */
export function useConsentManager(): ConsentManager | undefined {
  const manager$ = useObservable(
    () =>
      // Hand-written: the CMP lives exactly as long as the subscription.
      new Observable<ConsentManager>((subscriber) => {
        const started = startConsentManager();
        subscriber.next(started);
        return () => started.stop();
      }),
  );
  return useObservableState(manager$, undefined);
}

/**
 * The demo page's consent panel: what the page's IAB TCF v2.2 CMP answers right now (purpose 1, the TC string, how
 * many frames listen) and the visitor's two choices. The embed asks this CMP through `__tcfapi`; with consent it
 * fetches the anonymous id from the ads host, without it (or after a withdrawal) it does not.
 */
export function ConsentManagerPanel() {
  const manager = useConsentManager();
  const state = useObservableState(manager?.state$ ?? NEVER, undefined);
  const disabled = state === undefined;
  return (
    <section className="consent card" aria-labelledby="consent-title" data-testid="consent-panel">
      <h2 id="consent-title">Consent (IAB TCF v2.2 demo CMP)</h2>
      <p className="consent-line">
        Purpose 1, store and/or access information on a device:{' '}
        <strong className={`consent-choice consent-${state?.choice ?? 'loading'}`} role="status" data-testid="consent-state" data-choice={state?.choice ?? ''}>
          {state ? CHOICE_TEXT[state.choice] : 'Starting…'}
        </strong>
      </p>
      <dl className="consent-details">
        <div>
          <dt>Event status</dt>
          <dd data-testid="consent-event-status">{state?.eventStatus ?? '—'}</dd>
        </div>
        <div>
          <dt>Listening frames</dt>
          <dd data-testid="consent-listeners">{state?.listeners ?? '—'}</dd>
        </div>
        <div className="consent-tc">
          <dt>TC string</dt>
          <dd>
            <code data-testid="consent-tc-string">{state?.tcString || '—'}</code>
          </dd>
        </div>
      </dl>
      <div className="row buttons" aria-label="Your choice" role="group">
        <button
          type="button"
          className="primary"
          disabled={disabled || state.choice === 'granted'}
          onClick={() => manager?.grant()}
          data-testid="consent-grant"
        >
          Grant consent
        </button>
        <button type="button" disabled={disabled || state.choice === 'withdrawn'} onClick={() => manager?.withdraw()} data-testid="consent-withdraw">
          Withdraw consent
        </button>
      </div>
    </section>
  );
}
