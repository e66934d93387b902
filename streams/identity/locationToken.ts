import { LOCATION_TOKEN_LIFETIME_S } from '../timing';
import { decodeBase64Url, encodeBase64Url } from './base64url';
import type { LocationInfo } from './toLocationInfo';
import { numberText } from '../shared/numberText';

/** The cookie that keeps the location token between embeds (spec §9: 15552000 s). */
export const LOCATION_TOKEN_COOKIE_NAME = 'vf_loc';

/** The token's JSON, with short keys to keep the cookie small. */
interface LocationTokenBody {
  /** Format version. */
  v: 1;
  /** Issue time, ms since the epoch (the caller's clock). */
  t: number;
  la: number;
  lo: number;
  a?: number;
  f?: number;
}

const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n);

/**
 * A location token: the location info and its issue time as compact base64url JSON, kept in a cookie so the next
 * embed sends the location without asking the browser again (spec §9). Not signed: it only ever goes back to the
 * server as the viewer's own claim.
 *
 * ```
 * createLocationToken({ latitudeE7: 515007000, longitudeE7: -1246000 }, 1_700_000_000_000)
 *   → base64url('{"v":1,"t":1700000000000,"la":515007000,"lo":-1246000}')
 * ```
 */
export function createLocationToken(info: LocationInfo, nowMs: number): string {
  const body: LocationTokenBody = { v: 1, t: Math.round(nowMs), la: info.latitudeE7, lo: info.longitudeE7 };
  if (info.horizontalAccuracyMeters !== undefined) body.a = info.horizontalAccuracyMeters;
  if (info.locationFreshnessMs !== undefined) body.f = info.locationFreshnessMs;
  return encodeBase64Url(JSON.stringify(body));
}

/**
 * The location info of a token, or undefined when the token is malformed, issued in the future, or older than
 * {@link LOCATION_TOKEN_LIFETIME_S} seconds (a token exactly that old still reads). The freshness it returns is the
 * age of the fix now: the freshness it was stored with plus the token's age.
 */
export function readLocationToken(token: string, nowMs: number, lifetimeS: number = LOCATION_TOKEN_LIFETIME_S): LocationInfo | undefined {
  const json = decodeBase64Url(token);
  if (json === undefined) return undefined;
  let body: Partial<LocationTokenBody>;
  try {
    body = JSON.parse(json) as Partial<LocationTokenBody>;
  } catch {
    return undefined;
  }
  if (!body || typeof body !== 'object' || body.v !== 1 || !isInt(body.t) || !isInt(body.la) || !isInt(body.lo)) return undefined;
  if (Math.abs(body.la) > 90e7 || Math.abs(body.lo) > 180e7) return undefined;
  if (body.a !== undefined && !(isInt(body.a) && body.a >= 0)) return undefined;
  if (body.f !== undefined && !(isInt(body.f) && body.f >= 0)) return undefined;
  const ageMs = nowMs - body.t;
  if (ageMs < 0 || ageMs > lifetimeS * 1000) return undefined;
  const info: LocationInfo = { latitudeE7: body.la, longitudeE7: body.lo };
  if (body.a !== undefined) info.horizontalAccuracyMeters = body.a;
  info.locationFreshnessMs = Math.round((body.f ?? 0) + ageMs);
  return info;
}

export interface LocationTokenCookieOptions {
  /** A secure context: `SameSite=None; Secure` (works in a frame on another site); `SameSite=Lax` otherwise. */
  secure: boolean;
  maxAgeS?: number;
  path?: string;
}

/**
 * The string to assign to `document.cookie` to keep a location token for {@link LOCATION_TOKEN_LIFETIME_S} seconds:
 * `vf_loc=<token>; Max-Age=15552000; Path=/; SameSite=None; Secure` (or `SameSite=Lax` when not secure).
 */
export function locationTokenCookie(token: string, { secure, maxAgeS = LOCATION_TOKEN_LIFETIME_S, path = '/' }: LocationTokenCookieOptions): string {
  return `${LOCATION_TOKEN_COOKIE_NAME}=${token}; Max-Age=${numberText(maxAgeS)}; Path=${path}; ${secure ? 'SameSite=None; Secure' : 'SameSite=Lax'}`;
}
