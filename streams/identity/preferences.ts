/**
 * The preference store of spec §5/§9 in one import: validation (`validatePreference`, `PreferenceError`), the `PREF`
 * cookie codec (`parsePreferenceCookie`, `serializePreferenceCookie`) and the store (`createPreferenceStore`).
 */
export { PREFERENCE_ERROR_MESSAGES, PreferenceError, type PreferenceErrorCode } from './PreferenceError';
export { PREFERENCE_KEY_PATTERN, RESERVED_PREFERENCE_KEY_PATTERN, validatePreference, validatePreferenceKey } from './validatePreference';
export { PREFERENCE_COOKIE_NAME, parsePreferenceCookie } from './parsePreferenceCookie';
export { type PreferenceCookieOptions, serializePreferenceCookie } from './serializePreferenceCookie';
export { createPreferenceStore, type PreferenceStore, type PreferenceStoreOptions, type PreferenceValue } from './createPreferenceStore';
