import { BehaviorSubject, Subscription, type Observable } from 'rxjs';
import { parseBooleanVar, type PlayerConfig } from '../../../streams/config/playerConfig';
import { currentLocation } from '../../../streams/identity/geolocation';
import { createLocationToken, LOCATION_TOKEN_COOKIE_NAME, locationTokenCookie, readLocationToken } from '../../../streams/identity/locationToken';
import { frameCookie } from './frameCookie';

/** The page's geolocation, as its requests read it. */
export interface PageLocation {
  /** The location info of the context (spec §3): the stored token's, else the allowed fix's; undefined before or without. */
  readonly locationInfo$: Observable<Record<string, unknown> | undefined>;
  stop(): void;
}

/**
 * Geolocation (spec §8/§9): only when the host enables it (`geolocation=1` and, for a frame on another site,
 * `allow="geolocation"` on the iframe) and the viewer allows it. Timeout 10 s (15 s on the mobile web client), high
 * accuracy only there; latitude and longitude go into the context's location info as integers scaled by 1E7. The
 * result is kept as a location token (a cookie of 15552000 s), so the next embed sends it without asking again.
 * Denied or unsupported ("Geolocation unsupported"): nothing is sent.
 */
export function startLocation(config: PlayerConfig, win: Window, { mobileWeb = false } = {}): PageLocation {
  const subscriptions = new Subscription();
  const locationInfo$ = new BehaviorSubject<Record<string, unknown> | undefined>(undefined);
  const location: PageLocation = { locationInfo$: locationInfo$.asObservable(), stop: () => subscriptions.unsubscribe() };
  if (parseBooleanVar(config.args.playerVars.geolocation) !== true) return location;
  const cookie = frameCookie(win, LOCATION_TOKEN_COOKIE_NAME);
  const stored = readLocationToken(cookie.value() ?? '', Date.now());
  if (stored) {
    locationInfo$.next({ ...stored });
    return location;
  }
  subscriptions.add(
    currentLocation(win.navigator.geolocation, { mobileWeb }).subscribe({
      next: (info) => {
        locationInfo$.next({ ...info });
        // `SameSite=None; Secure` in a secure context, so the cookie works in a frame on another site.
        cookie.write(locationTokenCookie(createLocationToken(info, Date.now()), { secure: win.isSecureContext }));
      },
      error: (error: unknown) => console.warn('[vidframe] geolocation:', error instanceof Error ? error.message : error),
    }),
  );
  return location;
}
