import { GEOLOCATION_COORDINATE_SCALE } from '../timing';
import { numberText } from '../shared/numberText';

/** The location info of the client context (spec §3, §9): integers only, coordinates scaled by 1E7. */
export interface LocationInfo {
  latitudeE7: number;
  longitudeE7: number;
  horizontalAccuracyMeters?: number;
  /** How old the fix is, in ms. */
  locationFreshnessMs?: number;
}

/** The parts of `GeolocationCoordinates` that are read. */
export interface GeolocationCoordinatesLike {
  readonly latitude: number;
  readonly longitude: number;
  readonly accuracy?: number | null;
}

/**
 * Coordinates as the integers of spec §9: latitude and longitude × {@link GEOLOCATION_COORDINATE_SCALE} (1E7), rounded;
 * the accuracy in whole metres when known; the freshness (`nowMs − timestampMs`, never negative) when the fix's
 * timestamp is given.
 *
 * ```
 * { latitude: 51.5007, longitude: -0.1246, accuracy: 12.6 } → { latitudeE7: 515007000, longitudeE7: -1246000, horizontalAccuracyMeters: 13 }
 * ```
 *
 * @throws TypeError for coordinates that are not finite or out of range.
 */
export function toLocationInfo(
  coords: GeolocationCoordinatesLike,
  nowMs?: number,
  timestampMs?: number,
  scale: number = GEOLOCATION_COORDINATE_SCALE,
): LocationInfo {
  const { latitude, longitude, accuracy } = coords;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw new TypeError(`Invalid coordinates ${numberText(latitude)}, ${numberText(longitude)}`);
  }
  // `+ 0` turns a rounded -0 into 0.
  const info: LocationInfo = { latitudeE7: Math.round(latitude * scale) + 0, longitudeE7: Math.round(longitude * scale) + 0 };
  if (typeof accuracy === 'number' && Number.isFinite(accuracy) && accuracy >= 0) info.horizontalAccuracyMeters = Math.round(accuracy);
  if (Number.isFinite(nowMs) && Number.isFinite(timestampMs)) {
    info.locationFreshnessMs = Math.max(0, Math.round((nowMs as number) - (timestampMs as number)));
  }
  return info;
}
