import { concatMap, EMPTY, from, type Observable, startWith } from 'rxjs';
import type { PageLifecycleEvent } from '../sources/pageLifecycleEvents';

/** The page lifecycle states of spec §4. */
export type PageLifecycleState = 'document_active' | 'document_disposed_preventable' | 'document_disposed';

/**
 * Page lifecycle state (spec §4): `document_active`, then on `beforeunload` `document_disposed_preventable` (the
 * user may still cancel leaving) or on `pagehide` `document_disposed`; "logs are flushed, then the state returns
 * to active".
 *
 * **How the flush fits in:** each disposal state is followed by `document_active` *synchronously, in the same
 * tick*. RxJS delivers a value to every subscriber before it emits the next one, so a logging subscriber that flushes
 * synchronously when it sees a disposal state (starts its `keepalive` fetch / `sendBeacon`, writes what it cannot
 * send) has done so before the state is active again — which is the only moment a flush can still leave a closing
 * page. Returning to active at once also keeps the page working when it does not go away: a cancelled
 * `beforeunload`, or a `pagehide` into the back/forward cache whose page is restored later. A restored page
 * (`pageshow` with `persisted`) is therefore already `document_active` and `pageshow` emits nothing; a consumer that
 * wants to log the restore reads `pageshow` from `pageLifecycleEvents$` directly. `unload` is never used.
 *
 * ```
 * events$: ---b-------h-------s---      b = beforeunload, h = pagehide, s = pageshow
 * result:  a--(pa)----(da)--------      p, d and the following a are emitted in the same frame, in that order
 * ```
 *
 * @param events$ events from `pageLifecycleEvents$(window)` (or a marble `hot()`).
 */
export function pageLifecycleState(events$: Observable<PageLifecycleEvent>): Observable<PageLifecycleState> {
  return events$.pipe(
    concatMap((event): Observable<PageLifecycleState> => {
      switch (event.type) {
        case 'beforeunload':
          return from(['document_disposed_preventable', 'document_active'] as const);
        case 'pagehide':
          return from(['document_disposed', 'document_active'] as const);
        default:
          return EMPTY;
      }
    }),
    startWith<PageLifecycleState>('document_active'),
  );
}
