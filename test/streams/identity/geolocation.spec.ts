import type { Observable } from 'rxjs';
import {
  createLocationToken,
  currentLocation,
  GEOLOCATION_ERROR_MESSAGES,
  GeolocationError,
  type GeolocationLike,
  type GeolocationPositionErrorLike,
  type GeolocationPositionLike,
  type GeolocationRequestOptions,
  LOCATION_TOKEN_COOKIE_NAME,
  locationTokenCookie,
  readLocationToken,
  toLocationInfo,
} from '../../../streams/identity/geolocation';
import { encodeBase64Url } from '../../../streams/identity/base64url';
import { GEOLOCATION_COORDINATE_SCALE, GEOLOCATION_TIMEOUT_MOBILE_MS, GEOLOCATION_TIMEOUT_MS, LOCATION_TOKEN_LIFETIME_S } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

// The browser's own object fits the structural type (checked by the compiler: `true` only if it does).
const browserGeolocationFits: Geolocation extends GeolocationLike ? true : false = true;

const LONDON: GeolocationPositionLike = { coords: { latitude: 51.5007292, longitude: -0.1246254, accuracy: 12.6 } };
const LONDON_INFO = { latitudeE7: 515007292, longitudeE7: -1246254, horizontalAccuracyMeters: 13 };

/**
 * A fake `navigator.geolocation` whose answer is a marble: 'p' calls back with `position`, 'x' with `error`.
 * It records the options of each call. Like a browser, it answers even after the caller has gone.
 */
function fakeGeolocation(
  answer$: Observable<string>,
  { position = LONDON, error = { code: 1, message: 'User denied Geolocation' } as GeolocationPositionErrorLike } = {},
) {
  const calls: GeolocationRequestOptions[] = [];
  const geolocation: GeolocationLike = {
    getCurrentPosition(success, fail, options) {
      calls.push(options!);
      answer$.subscribe((v) => (v === 'p' ? success(position) : fail?.(error)));
    },
  };
  return { geolocation, calls };
}

describe('toLocationInfo', () => {
  it('scales coordinates by 1E7 into integers and rounds the accuracy (spec §9)', () => {
    expect(GEOLOCATION_COORDINATE_SCALE).toBe(1e7);
    expect(toLocationInfo(LONDON.coords)).toEqual(LONDON_INFO);
    const info = toLocationInfo({ latitude: -33.8567844, longitude: 151.213108, accuracy: 0.4 });
    expect(info).toEqual({ latitudeE7: -338567844, longitudeE7: 1512131080, horizontalAccuracyMeters: 0 });
    for (const n of Object.values(info)) expect(Number.isInteger(n)).toBe(true);
  });

  it('gives the freshness when the fix has a timestamp, never negative', () => {
    expect(toLocationInfo(LONDON.coords, 10_000, 7_499.6)).toEqual({ ...LONDON_INFO, locationFreshnessMs: 2_500 });
    expect(toLocationInfo(LONDON.coords, 10_000, 12_000).locationFreshnessMs).toBe(0);
    expect(toLocationInfo(LONDON.coords, 10_000)).toEqual(LONDON_INFO);
  });

  it('leaves out an unknown accuracy and turns -0 into 0', () => {
    expect(toLocationInfo({ latitude: -0.00000001, longitude: 0, accuracy: null })).toEqual({ latitudeE7: 0, longitudeE7: 0 });
    expect(Object.is(toLocationInfo({ latitude: -0.00000001, longitude: 0 }).latitudeE7, 0)).toBe(true);
  });

  it.each([
    [NaN, 0],
    [0, Infinity],
    [91, 0],
    [0, -181],
  ])('refuses the coordinates %p, %p', (latitude, longitude) => {
    expect(() => toLocationInfo({ latitude, longitude })).toThrow(TypeError);
  });
});

describe('currentLocation', () => {
  it('uses the production constants of spec §9', () => {
    expect(browserGeolocationFits).toBe(true);
    expect(GEOLOCATION_TIMEOUT_MS).toBe(10_000);
    expect(GEOLOCATION_TIMEOUT_MOBILE_MS).toBe(15_000);
  });

  it('errors with exactly "Geolocation unsupported" without the API (spec §8)', () => {
    createTestScheduler().run(({ expectObservable }) => {
      expectObservable(currentLocation(undefined, { mobileWeb: false })).toBe('#', undefined, new GeolocationError('unsupported'));
      expectObservable(currentLocation({} as GeolocationLike, { mobileWeb: true })).toBe('#', undefined, new GeolocationError('unsupported'));
    });
    expect(GEOLOCATION_ERROR_MESSAGES.unsupported).toBe('Geolocation unsupported');
    const error = new GeolocationError('unsupported');
    expect(error.message).toBe('Geolocation unsupported');
    expect(String(error)).toBe('Error: Geolocation unsupported');
    expect(error.code).toBe('unsupported');
  });

  it('times out at exactly 10 s on desktop, asking without high accuracy (production constant)', () => {
    let calls: GeolocationRequestOptions[] = [];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const fake = fakeGeolocation(cold('-'));
      calls = fake.calls;
      // Subscribed at 0: '10000ms #' is the error at frame 10 000, not before.
      expectObservable(currentLocation(fake.geolocation, { mobileWeb: false })).toBe('10000ms #', undefined, new GeolocationError('timeout'));
    });
    expect(calls).toEqual([{ enableHighAccuracy: false, timeout: 10_000, maximumAge: 0 }]);
  });

  it('times out at exactly 15 s on the mobile web client, asking with high accuracy (production constant)', () => {
    let calls: GeolocationRequestOptions[] = [];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const fake = fakeGeolocation(cold('-'));
      calls = fake.calls;
      expectObservable(currentLocation(fake.geolocation, { mobileWeb: true })).toBe('15000ms #', undefined, new GeolocationError('timeout'));
    });
    expect(calls).toEqual([{ enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 }]);
  });

  it('takes an answer 1 ms before the timeout (production constants)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      // Desktop: the answer at 9 999 is taken; '(i|)' at 9 999.
      const desktop = fakeGeolocation(cold('9999ms p'));
      expectObservable(currentLocation(desktop.geolocation, { mobileWeb: false })).toBe('9999ms (i|)', { i: LONDON_INFO });
      // Mobile web: an answer at 14 999 — past the desktop timeout — is still taken.
      const mobile = fakeGeolocation(cold('14999ms p'));
      expectObservable(currentLocation(mobile.geolocation, { mobileWeb: true })).toBe('14999ms (i|)', { i: LONDON_INFO });
    });
  });

  it('drops an answer that comes after the timeout', () => {
    createTestScheduler().run(({ cold, time, expectObservable }) => {
      const fake = fakeGeolocation(cold('-----p'));
      // timeout at 3, the answer at 5 is ignored (no second notification, no throw).
      expectObservable(currentLocation(fake.geolocation, { mobileWeb: false, timeoutMs: time('---|') })).toBe(
        '---#',
        undefined,
        new GeolocationError('timeout'),
      );
    });
  });

  it('reads the freshness of the fix from its timestamp and the scheduler clock', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const fake = fakeGeolocation(cold('--p'), { position: { ...LONDON, timestamp: 0 } });
      expectObservable(currentLocation(fake.geolocation, { mobileWeb: false })).toBe('--(i|)', { i: { ...LONDON_INFO, locationFreshnessMs: 2 } });
    });
  });

  it('errors with code denied when the viewer refuses (error code 1)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const fake = fakeGeolocation(cold('--x'));
      expectObservable(currentLocation(fake.geolocation, { mobileWeb: false })).toBe('--#', undefined, new GeolocationError('denied'));
    });
    const denied = new GeolocationError('denied');
    expect(denied.code).toBe('denied');
    expect(denied.message).toBe('Geolocation permission denied');
  });

  it.each([
    [2, 'unavailable', 'Geolocation position unavailable'],
    [3, 'timeout', 'Geolocation timed out'],
    [99, 'unavailable', 'Geolocation position unavailable'],
  ] as const)('maps the browser error code %d to %s', (code, expected, message) => {
    const error = { code, message: 'browser says' };
    let caught: GeolocationError | undefined;
    createTestScheduler().run(({ cold, flush }) => {
      const fake = fakeGeolocation(cold('-x'), { error });
      currentLocation(fake.geolocation, { mobileWeb: false }).subscribe({ error: (e: GeolocationError) => (caught = e) });
      flush();
    });
    expect(caught).toBeInstanceOf(GeolocationError);
    expect(caught!.code).toBe(expected);
    expect(caught!.message).toBe(message);
    expect(caught!.cause).toBe(error);
  });

  it('errors with code unavailable when the browser throws or answers nonsense', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const throwing: GeolocationLike = {
        getCurrentPosition() {
          throw new Error('blocked by permissions policy');
        },
      };
      expectObservable(currentLocation(throwing, { mobileWeb: false })).toBe('#', undefined, new GeolocationError('unavailable'));
      const nonsense = fakeGeolocation(cold('-p'), { position: { coords: { latitude: NaN, longitude: 0 } } });
      expectObservable(currentLocation(nonsense.geolocation, { mobileWeb: false })).toBe('-#', undefined, new GeolocationError('unavailable'));
    });
  });

  it('asks only on subscription, and a late answer after unsubscribing does nothing', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, flush }) => {
      const fake = fakeGeolocation(cold('----p'));
      const location$ = currentLocation(fake.geolocation, { mobileWeb: false });
      expect(fake.calls).toHaveLength(0);
      const seen: unknown[] = [];
      const subscription = location$.subscribe({ next: (v) => seen.push(v), error: (e) => seen.push(e), complete: () => seen.push('complete') });
      // Gone at 2; the browser answers at 4 anyway.
      scheduler.schedule(() => subscription.unsubscribe(), 2);
      flush();
      expect(fake.calls).toHaveLength(1);
      expect(seen).toEqual([]);
    });
  });
});

describe('location token', () => {
  const NOW = 1_700_000_000_000;
  const INFO = { latitudeE7: 515007292, longitudeE7: -1246254, horizontalAccuracyMeters: 13 };

  it('round-trips as compact base64url JSON, the freshness grown by the token age', () => {
    const token = createLocationToken({ ...INFO, locationFreshnessMs: 500 }, NOW);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(token, 'base64url').toString())).toEqual({ v: 1, t: NOW, la: 515007292, lo: -1246254, a: 13, f: 500 });
    expect(readLocationToken(token, NOW)).toEqual({ ...INFO, locationFreshnessMs: 500 });
    expect(readLocationToken(token, NOW + 60_000)).toEqual({ ...INFO, locationFreshnessMs: 60_500 });
    const bare = createLocationToken({ latitudeE7: 1, longitudeE7: 2 }, NOW);
    expect(readLocationToken(bare, NOW + 5)).toEqual({ latitudeE7: 1, longitudeE7: 2, locationFreshnessMs: 5 });
  });

  it('expires after 15552000 s (production constant): still read at exactly that age, not 1 ms later', () => {
    expect(LOCATION_TOKEN_LIFETIME_S).toBe(15_552_000);
    const token = createLocationToken(INFO, NOW);
    // 15 552 000 s = 180 days = 15 552 000 000 ms.
    expect(readLocationToken(token, NOW + 15_552_000_000)).toBeDefined();
    expect(readLocationToken(token, NOW + 15_552_000_001)).toBeUndefined();
    expect(readLocationToken(token, NOW + 2_000, 1)).toBeUndefined();
  });

  it('refuses a token issued in the future', () => {
    expect(readLocationToken(createLocationToken(INFO, NOW), NOW - 1)).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['not base64url', '!!!'],
    ['not JSON', encodeBase64Url('hello')],
    ['JSON null', encodeBase64Url('null')],
    ['another version', encodeBase64Url(JSON.stringify({ v: 2, t: NOW, la: 1, lo: 2 }))],
    ['no issue time', encodeBase64Url(JSON.stringify({ v: 1, la: 1, lo: 2 }))],
    ['fractional latitude', encodeBase64Url(JSON.stringify({ v: 1, t: NOW, la: 1.5, lo: 2 }))],
    ['latitude out of range', encodeBase64Url(JSON.stringify({ v: 1, t: NOW, la: 900000001, lo: 2 }))],
    ['longitude out of range', encodeBase64Url(JSON.stringify({ v: 1, t: NOW, la: 1, lo: -1800000001 }))],
    ['a string longitude', encodeBase64Url(JSON.stringify({ v: 1, t: NOW, la: 1, lo: '2' }))],
    ['negative accuracy', encodeBase64Url(JSON.stringify({ v: 1, t: NOW, la: 1, lo: 2, a: -1 }))],
    ['bad freshness', encodeBase64Url(JSON.stringify({ v: 1, t: NOW, la: 1, lo: 2, f: 'x' }))],
  ])('reads a malformed token (%s) as undefined', (_case, token) => {
    expect(readLocationToken(token, NOW)).toBeUndefined();
  });

  it('gives the document.cookie assignment with Max-Age 15552000', () => {
    expect(LOCATION_TOKEN_COOKIE_NAME).toBe('vf_loc');
    expect(locationTokenCookie('abc', { secure: true })).toBe('vf_loc=abc; Max-Age=15552000; Path=/; SameSite=None; Secure');
    expect(locationTokenCookie('abc', { secure: false })).toBe('vf_loc=abc; Max-Age=15552000; Path=/; SameSite=Lax');
    expect(locationTokenCookie('abc', { secure: false, maxAgeS: 9, path: '/x' })).toBe('vf_loc=abc; Max-Age=9; Path=/x; SameSite=Lax');
  });
});
