import { asyncScheduler, defer, Observable, type SchedulerLike, throwError, timeout } from 'rxjs';
import { GEOLOCATION_TIMEOUT_MOBILE_MS, GEOLOCATION_TIMEOUT_MS } from '../timing';
import { type GeolocationCoordinatesLike, type LocationInfo, toLocationInfo } from './toLocationInfo';

export { type GeolocationCoordinatesLike, type LocationInfo, toLocationInfo } from './toLocationInfo';
export { createLocationToken, LOCATION_TOKEN_COOKIE_NAME, locationTokenCookie, type LocationTokenCookieOptions, readLocationToken } from './locationToken';

/** The parts of a `GeolocationPosition` that are read. */
export interface GeolocationPositionLike {
  readonly coords: GeolocationCoordinatesLike;
  /** When the fix was taken, ms since the epoch. */
  readonly timestamp?: number;
}

/** The parts of a `GeolocationPositionError` that are read: 1 permission denied, 2 position unavailable, 3 timeout. */
export interface GeolocationPositionErrorLike {
  readonly code: number;
  readonly message?: string;
}

/** The options `getCurrentPosition` is called with. */
export interface GeolocationRequestOptions {
  enableHighAccuracy: boolean;
  timeout: number;
  maximumAge: number;
}

/** `navigator.geolocation`, structurally: the real one fits, and so does a test fake. */
export interface GeolocationLike {
  getCurrentPosition(
    success: (position: GeolocationPositionLike) => void,
    error?: ((error: GeolocationPositionErrorLike) => void) | null,
    options?: GeolocationRequestOptions,
  ): void;
}

/** Why no location came. */
export type GeolocationErrorCode = 'unsupported' | 'denied' | 'unavailable' | 'timeout';

/** The messages, one per code; `unsupported` is spec §8's "Geolocation unsupported". */
export const GEOLOCATION_ERROR_MESSAGES: Readonly<Record<GeolocationErrorCode, string>> = {
  unsupported: 'Geolocation unsupported',
  denied: 'Geolocation permission denied',
  unavailable: 'Geolocation position unavailable',
  timeout: 'Geolocation timed out',
};

/** A failed location request: `code` says why; `message` is the matching {@link GEOLOCATION_ERROR_MESSAGES} text. */
export class GeolocationError extends Error {
  constructor(
    readonly code: GeolocationErrorCode,
    options?: { cause?: unknown },
  ) {
    super(GEOLOCATION_ERROR_MESSAGES[code], options);
  }
}

const CODES: Readonly<Record<number, GeolocationErrorCode>> = { 1: 'denied', 2: 'unavailable', 3: 'timeout' };

export interface CurrentLocationOptions {
  /** The mobile web client: high accuracy, and the longer timeout. */
  mobileWeb: boolean;
  /** {@link GEOLOCATION_TIMEOUT_MOBILE_MS} on mobile web, {@link GEOLOCATION_TIMEOUT_MS} elsewhere. */
  timeoutMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * One location fix as the location info of spec §9, then complete.
 *
 * - No geolocation API → errors at once with `Geolocation unsupported` (spec §8, code `unsupported`).
 * - Asks `getCurrentPosition` with `{ enableHighAccuracy: mobileWeb, timeout: timeoutMs, maximumAge: 0 }`: high
 *   accuracy only on the mobile web client; 10 s timeout, 15 s on mobile web.
 * - Also times out on the scheduler at `timeoutMs` (code `timeout`): a browser may never call back, e.g. while its
 *   permission prompt is left open.
 * - Permission denied (error code 1) → code `denied`; position unavailable (2) → `unavailable`; the browser's timeout
 *   (3) → `timeout`. The browser's error is the `cause`.
 * - Unsubscribing drops a late answer (the browser request itself cannot be cancelled).
 *
 * ```
 * answer:  ------p           (none)
 * result:  ------(i|)        ----------#   (timeoutMs = 10 frames)
 * ```
 */
export function currentLocation(
  geolocation: GeolocationLike | undefined,
  { mobileWeb, timeoutMs = mobileWeb ? GEOLOCATION_TIMEOUT_MOBILE_MS : GEOLOCATION_TIMEOUT_MS, scheduler = asyncScheduler }: CurrentLocationOptions,
): Observable<LocationInfo> {
  return defer(() => {
    if (!geolocation || typeof geolocation.getCurrentPosition !== 'function') {
      return throwError(() => new GeolocationError('unsupported'));
    }
    // Hand-written: the edge to `getCurrentPosition`, which may throw or call back after unsubscription.
    return new Observable<LocationInfo>((subscriber) => {
      const options: GeolocationRequestOptions = { enableHighAccuracy: mobileWeb, timeout: timeoutMs, maximumAge: 0 };
      try {
        geolocation.getCurrentPosition(
          (position) => {
            if (subscriber.closed) return;
            let info: LocationInfo;
            try {
              info = toLocationInfo(position.coords, scheduler.now(), position.timestamp);
            } catch (cause) {
              subscriber.error(new GeolocationError('unavailable', { cause }));
              return;
            }
            subscriber.next(info);
            subscriber.complete();
          },
          (error) => {
            if (subscriber.closed) return;
            subscriber.error(new GeolocationError(CODES[error?.code] ?? 'unavailable', { cause: error }));
          },
          options,
        );
      } catch (cause) {
        // Some browsers throw instead of calling back (an insecure context, a policy that blocks the feature).
        subscriber.error(new GeolocationError('unavailable', { cause }));
      }
    }).pipe(timeout({ first: timeoutMs, with: () => throwError(() => new GeolocationError('timeout')), scheduler }));
  });
}
