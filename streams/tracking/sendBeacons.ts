import { asyncScheduler, catchError, defer, mergeMap, type Observable, of, type SchedulerLike, timer } from 'rxjs';
import { PING_MAX_RESENDS, PING_RESEND_DELAY_MS } from '../timing';
import type { Beacon } from './playbackBeacons';

/** What became of one beacon. */
export type BeaconOutcome =
  | { type: 'sent'; beacon: Beacon; status: number; resends: number }
  /** The collector refused it (a 4xx other than 429): sending it again would be refused again. */
  | { type: 'refused'; beacon: Beacon; status: number }
  /** It failed {@link PING_MAX_RESENDS} + 1 times (network, 429, 5xx): given up. `status` 0 is a network failure. */
  | { type: 'dropped'; beacon: Beacon; status: number };

export interface SendBeaconsOptions {
  /** Sends one GET and answers its status (0 when the network failed); may error, which counts as 0. */
  send: (url: string) => Observable<number>;
  maxResends?: number;
  resendDelayMs?: number;
  scheduler?: SchedulerLike;
}

const retryable = (status: number) => status === 0 || status === 429 || status >= 500;

/**
 * Sends each beacon as it comes (never held back behind another), and tells what became of it. A beacon that failed
 * where a later try may succeed (no network, 429, 5xx) is sent again after {@link PING_RESEND_DELAY_MS}, doubled at
 * each resend, at most {@link PING_MAX_RESENDS} times, then dropped: a ping is one moment of one playback, not worth a
 * queue that outlives the page (the log retry queue is for events). A 4xx is never resent.
 *
 * ```
 * beacons$: -a-------b-------
 * send:      a→500 … a→204  (resendDelayMs 3)   b→400
 * result:   -----s---r-------   (s sent after one resend; r refused)
 * ```
 */
export function sendBeacons(
  beacons$: Observable<Beacon>,
  { send, maxResends = PING_MAX_RESENDS, resendDelayMs = PING_RESEND_DELAY_MS, scheduler = asyncScheduler }: SendBeaconsOptions,
): Observable<BeaconOutcome> {
  const attempt = (beacon: Beacon, resends: number): Observable<BeaconOutcome> =>
    defer(() => send(beacon.url)).pipe(
      catchError(() => of(0)),
      mergeMap((status): Observable<BeaconOutcome> => {
        if (status >= 200 && status < 300) return of({ type: 'sent', beacon, status, resends });
        if (!retryable(status)) return of({ type: 'refused', beacon, status });
        if (resends >= maxResends) return of({ type: 'dropped', beacon, status });
        return timer(resendDelayMs * 2 ** resends, scheduler).pipe(mergeMap(() => attempt(beacon, resends + 1)));
      }),
    );
  return beacons$.pipe(mergeMap((beacon) => attempt(beacon, 0)));
}
