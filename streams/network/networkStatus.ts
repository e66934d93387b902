import {
  asyncScheduler,
  catchError,
  concat,
  defaultIfEmpty,
  defer,
  distinctUntilChanged,
  exhaustMap,
  map,
  merge,
  NEVER,
  type Observable,
  of,
  type SchedulerLike,
  startWith,
  switchMap,
  take,
  timeout,
  timer,
} from 'rxjs';
import type { BrowserNetworkEvent } from '../sources/networkEvents';
import { NETWORK_PROBE_BACKOFF_BASE_MS, NETWORK_PROBE_BACKOFF_MAX_MS, NETWORK_PROBE_TIMEOUT_MS } from '../timing';

/** The network states of spec §4. */
export type NetworkStatus = 'online' | 'offline';

export interface NetworkStatusOptions {
  /**
   * Checks that the network really works: emits `true` when it does (the integrator's `fetch('/generate_204')`
   * answered 204). `false`, an error, completing without a value or no answer within `probeTimeoutMs` all count as
   * a failed probe. Only its first value is used.
   */
  probe: () => Observable<boolean>;
  /** What the browser believes at subscription (usually `() => navigator.onLine`); only `false` means offline. */
  readOnLine?: () => unknown;
  /** Asks for a check now, e.g. when a log request failed with a network error; ignored while a check runs. */
  recheck$?: Observable<unknown>;
  /** Delay before the first re-probe after a failure; doubles on each further failure. Library behaviour (spec §9). */
  backoffBaseMs?: number;
  /** The back-off never waits longer than this between probes. Library behaviour (spec §9). */
  backoffMaxMs?: number;
  /** A probe that has not answered after this long has failed. Library behaviour (spec §9). */
  probeTimeoutMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * Network status (spec §4, §7 "a network check to generate_204"): `online` only when a probe confirms it.
 *
 * - **Start** with what the browser believes (`offline` only when `readOnLine()` is `false`); when it believes
 *   online, probe at once.
 * - **`offline` event**: `offline` at once, and no probing (the browser will say `online` when a link is back);
 *   any probe or back-off wait in progress is cancelled.
 * - **`online` event**: probe at once (the back-off starts over), and stay `offline` until the probe answers.
 * - **Probe fails while the browser says online** (captive portal, dead uplink): `offline`, then probe again after
 *   `backoffBaseMs`, `2 × backoffBaseMs`, `4 × …`, capped at `backoffMaxMs`, until one succeeds → `online`, which
 *   ends the probing (and resets the back-off) until the next event or `recheck$`.
 * - One value per real change (`distinctUntilChanged`).
 *
 * No constant of `streams/timing.ts` covers these timings (the spec calls background connectivity timings library
 * behaviour), so they are named options with these defaults: `backoffBaseMs` 1 000 ms, `backoffMaxMs` 60 000 ms,
 * `probeTimeoutMs` 5 000 ms.
 *
 * ```
 * events$: -----------------------f------n-----   browser online at subscription
 * probe:   x--x-----x--------✓-----------x--✓--   x fails, ✓ succeeds, each answering at once
 * result:  f-----------------o----f---------o--   (o then f at 0); back-off 3, 6, 9 (base 3, cap 9), reset by n
 * ```
 *
 * @param events$ the browser's `online` / `offline` events (`networkEvents$(window)` or a marble `hot()`).
 */
export function networkStatus(
  events$: Observable<BrowserNetworkEvent>,
  {
    probe,
    readOnLine,
    recheck$ = NEVER,
    backoffBaseMs = NETWORK_PROBE_BACKOFF_BASE_MS,
    backoffMaxMs = NETWORK_PROBE_BACKOFF_MAX_MS,
    probeTimeoutMs = NETWORK_PROBE_TIMEOUT_MS,
    scheduler = asyncScheduler,
  }: NetworkStatusOptions,
): Observable<NetworkStatus> {
  /** One probe as a verdict; never errors. */
  const check = (): Observable<boolean> =>
    defer(probe).pipe(
      timeout({ first: probeTimeoutMs, scheduler }),
      take(1),
      map((answer) => answer === true),
      defaultIfEmpty(false),
      catchError(() => of(false)),
    );

  /** Probe until one succeeds, waiting min(base × 2^failures, max) between probes. */
  const confirm = (failures = 0): Observable<NetworkStatus> =>
    check().pipe(
      switchMap((ok) =>
        ok
          ? of<NetworkStatus>('online')
          : concat(
              of<NetworkStatus>('offline'),
              timer(Math.min(backoffBaseMs * 2 ** failures, backoffMaxMs), scheduler).pipe(switchMap(() => confirm(failures + 1))),
            ),
      ),
    );

  return defer(() => {
    const initial: NetworkStatus = safeRead(readOnLine) === false ? 'offline' : 'online';
    return events$.pipe(
      startWith<BrowserNetworkEvent>(initial),
      // The latest browser event wins: `offline` cancels probing, `online` restarts it from the base delay.
      switchMap((browser) => (browser === 'offline' ? of<NetworkStatus>('offline') : merge(of(undefined), recheck$).pipe(exhaustMap(() => confirm())))),
      startWith(initial),
      distinctUntilChanged(),
    );
  });
}

function safeRead(read?: () => unknown): unknown {
  try {
    return read?.();
  } catch {
    return undefined;
  }
}
