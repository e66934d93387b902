import { asyncScheduler, catchError, concat, defer, filter, map, NEVER, type Observable, of, race, type SchedulerLike, take, timer } from 'rxjs';
import { AD_STATUS_WAIT_MS } from '../timing';

/** The stored values of the ad-status check, spec §4, as the spec numbers them. */
export const AdStatus = {
  /** The ad-status script loaded (and set its global) during this check. */
  LOADED: 1,
  /** The script's global was already there when the check began (nothing was loaded). */
  PRESENT: 2,
  /** Neither within {@link AD_STATUS_WAIT_MS}. */
  TIMED_OUT: 3,
} as const;
export type AdStatusValue = (typeof AdStatus)[keyof typeof AdStatus];

/**
 * The key of the stored value in the request context's `adSignalsInfo.params` (and so in the `X-Youtube-Ad-Signals`
 * header): `adst=1|2|3`. The spec names no key; this one is short like its neighbours (`bisc`, `u_tz`, `frm`).
 */
export const AD_STATUS_SIGNAL_KEY = 'adst';

export { AD_STATUS_GLOBAL } from './adStatusGlobal';

export interface AdStatusCheckOptions {
  /** Whether the ad-status script's global is set (read at the start, and after each load event). */
  isPresent: () => boolean;
  /** Loads the ad-status script (adds a `<script>`): emits on its load event, errors when it cannot be loaded. */
  loadScript: () => Observable<unknown>;
  waitMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * The ad-status check of spec §4/§7/§9: one value, then complete.
 *
 * - `2` at once when the script's global is already present (nothing is loaded);
 * - `1` when the script loads and its global is then present;
 * - `3` after {@link AD_STATUS_WAIT_MS} (5 s) otherwise. A load error does not end the check early: a blocked or
 *   failed script is exactly what the value reports, and "3" keeps one meaning (not seen within 5 s) whatever the
 *   browser did; a script that loaded without setting its global (a stand-in an extension served) counts the same.
 *
 * The load is unsubscribed when the check ends (the `<script>` element's listeners go with it).
 *
 * ```
 * load:    ---l
 * result:  ---(1|)
 * load:    ---#         (or never)
 * result:  -----(3|)    (waitMs = 5 frames)
 * ```
 */
export function adStatusCheck({
  isPresent,
  loadScript,
  waitMs = AD_STATUS_WAIT_MS,
  scheduler = asyncScheduler,
}: AdStatusCheckOptions): Observable<AdStatusValue> {
  return defer((): Observable<AdStatusValue> => {
    if (isPresent()) return of(AdStatus.PRESENT);
    const loaded$ = concat(defer(loadScript).pipe(catchError(() => NEVER)), NEVER).pipe(
      filter(() => isPresent()),
      map((): AdStatusValue => AdStatus.LOADED),
    );
    return race(loaded$, timer(waitMs, scheduler).pipe(map((): AdStatusValue => AdStatus.TIMED_OUT))).pipe(take(1));
  });
}
