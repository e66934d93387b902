import { TCString } from '@iabtcf/core';

/** Consent to purpose 1 in a TC string; false for a string `@iabtcf/core` cannot decode. */
export function purposeOneConsent(tcString: string): boolean {
  try {
    return TCString.decode(tcString).purposeConsents.has(1);
  } catch {
    return false;
  }
}
