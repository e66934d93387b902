import { BehaviorSubject, defer, distinctUntilChanged, from, map, Subscription, type Observable } from 'rxjs';
import type { PlayerConfig } from '../../../streams/config/playerConfig';
import { anonymousId, type AnonymousIdState } from '../../../streams/identity/anonymousId';
import { anonymousIdAllowed, consentState } from '../../../streams/consent/consentState';
import { tcfConsent$ } from '../../../streams/consent/tcfConsent';
import { pageStorage } from './pageStorage';
import { numberText } from '../../../streams/shared/numberText';

/** Where the anonymous id is kept between pages while there is consent (forgotten when it is withdrawn). */
export const ANONYMOUS_ID_STORAGE_KEY = 'vidframe.anonymousId';

export interface Consent {
  /** Whether the viewer consented (the host's CMP, else the `consent` player variable). */
  readonly consent$: BehaviorSubject<boolean>;
  /** The anonymous id's state (spec §5/§7/§8/§9). */
  readonly anonymousId$: BehaviorSubject<AnonymousIdState>;
  /** The id requests carry now (`bisc`): the ready one, else none (none while it is missing or without consent). */
  readonly currentAnonymousId$: Observable<string | undefined>;
  stop(): void;
}

/**
 * Consent and the consent-gated anonymous id: consent comes from the host page's IAB TCF v2.2 CMP (found
 * through the `__tcfapiLocator` frame) or, without a CMP, from the `consent` player variable; none means no consent.
 * With consent, and outside the private and education embeds, the anonymous id is fetched from the ads host (GET,
 * with credentials, 5 s timeout), refreshed every 30 min, retried twice at 2 min on failure. Withdrawn consent stops
 * the timers and forgets the id, in memory (the id requests carry) and in storage.
 */
export function startConsent(config: PlayerConfig, win: Window): Consent {
  const subscriptions = new Subscription();
  const consent$ = new BehaviorSubject<boolean>(false);
  const anonymousId$ = new BehaviorSubject<AnonymousIdState>({ status: 'none' });
  const storage = pageStorage(win);

  // Values only: without a CMP the source completes, and a completed subject would give later readers nothing.
  subscriptions.add(consentState(config.args.playerVars.consent, tcfConsent$(win as never)).subscribe((value) => consent$.next(value)));
  const url = config.args.anonymous_id_url;
  const mode = config.args.embed_mode ?? 'standard';
  const allowed$ = consent$.pipe(
    map((consent) => !!url && anonymousIdAllowed({ consent, privateEmbed: mode === 'private', educationEmbed: mode === 'education' })),
  );
  const fetchId = () =>
    defer(() =>
      from(
        win
          .fetch(url!, { credentials: 'include', cache: 'no-store' })
          .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`Request failed, status=${numberText(r.status)}`)))),
      ),
    );
  subscriptions.add(
    anonymousId(allowed$, { fetchId }).subscribe((state) => {
      if (state.status === 'ready') storage.set(ANONYMOUS_ID_STORAGE_KEY, state.id);
      else if (state.status === 'none') storage.remove(ANONYMOUS_ID_STORAGE_KEY);
      anonymousId$.next(state);
    }),
  );
  // Missing: requests go without one until a fetch succeeds.
  const currentAnonymousId$ = anonymousId$.pipe(
    map((state) => (state.status === 'ready' ? state.id : undefined)),
    distinctUntilChanged(),
  );
  return { consent$, anonymousId$, currentAnonymousId$, stop: () => subscriptions.unsubscribe() };
}
