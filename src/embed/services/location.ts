import { Subscription } from 'rxjs';
import { parseBooleanVar, type PlayerConfig } from '../../../streams/config/playerConfig';
import { currentLocation } from '../../../streams/identity/geolocation';
import { createLocationToken, LOCATION_TOKEN_COOKIE_NAME, locationTokenCookie, readLocationToken } from '../../../streams/identity/locationToken';
import type { PageFacts } from './api';
import { frameCookie } from './frameCookie';

/**
 * Geolocation (issue 13, spec §8/§9): only when the host enables it (`geolocation=1` and, for a frame on another
 * site, `allow="geolocation"` on the iframe) and the viewer allows it. Timeout 10 s (15 s on the mobile web client),
 * high accuracy only there; latitude and longitude go into the context's location info as integers scaled by 1E7.
 * The result is kept as a location token (a cookie of 15552000 s), so the next embed sends it without asking again.
 * Denied or unsupported ("Geolocation unsupported"): nothing is sent.
 */
export function startLocation(config: PlayerConfig, win: Window, facts: PageFacts, { mobileWeb = false } = {}): { stop(): void } {
  const subscriptions = new Subscription();
  if (parseBooleanVar(config.args.playerVars.geolocation) !== true) return { stop: () => undefined };
  const now = Date.now();
  const cookie = frameCookie(win, LOCATION_TOKEN_COOKIE_NAME);
  const stored = readLocationToken(cookie.value() ?? '', now);
  if (stored) {
    facts.locationInfo = { ...stored };
    return { stop: () => undefined };
  }
  subscriptions.add(
    currentLocation(win.navigator.geolocation, { mobileWeb }).subscribe({
      next: (info) => {
        facts.locationInfo = { ...info };
        // `SameSite=None; Secure` in a secure context, so the cookie works in a frame on another site.
        cookie.write(locationTokenCookie(createLocationToken(info, Date.now()), { secure: win.isSecureContext }));
      },
      error: (error: unknown) => console.warn('[vidframe] geolocation:', error instanceof Error ? error.message : error),
    }),
  );
  return { stop: () => subscriptions.unsubscribe() };
}
