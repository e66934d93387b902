import { catchError, distinctUntilChanged, map, type Observable, of } from 'rxjs';
import type { TcfConsent } from './tcfConsent';

/** The `consent` player variable grants consent when it is `1` or `true` (case and spaces ignored). */
export const consentFromPlayerVar = (playerVar: string | undefined): boolean => {
  const value = (playerVar ?? '').trim().toLowerCase();
  return value === '1' || value === 'true';
};

/**
 * Whether the viewer consented (spec §5):
 * - the host page has a CMP (`{cmp: true, …}` from `tcfConsent$`): its live answer decides, so consent granted later
 *   turns this true then, and withdrawn turns it false;
 * - no CMP (`{cmp: false}`: none found, or none answered in time): the `consent` player variable decides (`1` or
 *   `true` → true);
 * - no CMP and no variable → false.
 *
 * Nothing is emitted before the TCF source says whether there is a CMP (the caller starts from "no consent"); a TCF
 * source that errors counts as no CMP. Repeated values are emitted once.
 *
 * ```
 * tcf$:    -n----c------w---   (n {cmp:false}, c CMP with consent, w CMP without)
 * result:  -v----t------f---   (v: the player variable)
 * ```
 */
export function consentState(playerVar: string | undefined, tcf$: Observable<TcfConsent>): Observable<boolean> {
  const fromVar = consentFromPlayerVar(playerVar);
  return tcf$.pipe(
    map((answer) => (answer.cmp ? answer.consent : fromVar)),
    catchError(() => of(fromVar)),
    distinctUntilChanged(),
  );
}

/**
 * Whether the anonymous id may be fetched (spec §5): only with consent, and never in the private embed or the
 * education embed, whatever the consent.
 */
export function anonymousIdAllowed({ consent, privateEmbed, educationEmbed }: { consent: boolean; privateEmbed: boolean; educationEmbed: boolean }): boolean {
  return consent === true && !privateEmbed && !educationEmbed;
}
