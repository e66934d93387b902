/** Why a preference was refused (spec §5). */
export type PreferenceErrorCode = 'invalid_key' | 'reserved_key' | 'null_value';

/** The exact messages of the spec §5 preference rules, one per code. */
export const PREFERENCE_ERROR_MESSAGES: Readonly<Record<PreferenceErrorCode, (key: string) => string>> = {
  /** The key is not made of word characters only (`/^\w+$/`). */
  invalid_key: (key) => `Preference key "${key}" must be word characters only`,
  /** The key is shaped like `f` followed by a number: those are the platform's flags, never set through the store. */
  reserved_key: (key) => `Preference key "${key}" is reserved: keys shaped like f followed by a number are not allowed`,
  /** A null (or undefined) value. */
  null_value: (key) => `Preference "${key}" cannot be null`,
};

/** A preference refused by `validatePreference`: `code` says which rule, `key` which preference. */
export class PreferenceError extends Error {
  override name = 'PreferenceError';
  constructor(
    readonly code: PreferenceErrorCode,
    readonly key: string,
  ) {
    super(PREFERENCE_ERROR_MESSAGES[code](key));
  }
}
