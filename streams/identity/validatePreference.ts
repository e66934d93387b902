import { PreferenceError } from './PreferenceError';

/** Spec §5: preference keys are word characters only. */
export const PREFERENCE_KEY_PATTERN = /^\w+$/;
/** Spec §5: keys shaped like `f` followed by a number are the platform's flags (`f1`, `f6`), not preferences. */
export const RESERVED_PREFERENCE_KEY_PATTERN = /^f\d+$/;

/**
 * Checks a preference against spec §5 before anything is written:
 * - the key is word characters only, else `Preference key "<key>" must be word characters only` (`invalid_key`);
 * - the key is not `f` + a number, else `Preference key "<key>" is reserved: keys shaped like f followed by a number
 *   are not allowed` (`reserved_key`);
 * - the value is not null (nor undefined), else `Preference "<key>" cannot be null` (`null_value`).
 *
 * The key is checked first, so a bad key with a null value reports the key.
 *
 * @throws PreferenceError
 */
export function validatePreference(key: string, value: unknown): void {
  validatePreferenceKey(key);
  if (value === null || value === undefined) throw new PreferenceError('null_value', key);
}

/** The key rules of {@link validatePreference} alone (for removing a preference). @throws PreferenceError */
export function validatePreferenceKey(key: string): void {
  if (typeof key !== 'string' || !PREFERENCE_KEY_PATTERN.test(key)) throw new PreferenceError('invalid_key', String(key));
  if (RESERVED_PREFERENCE_KEY_PATTERN.test(key)) throw new PreferenceError('reserved_key', key);
}
