/**
 * Equal snapshot values: primitives by identity (NaN equals NaN), objects by value (their JSON). Used by the host
 * deliveries, the host protocol and the player view, on every playback tick: only objects pay for the JSON compare.
 */
export const sameValue = (a: unknown, b: unknown): boolean =>
  a === b ||
  (typeof a === 'number' && typeof b === 'number'
    ? Number.isNaN(a) && Number.isNaN(b)
    : typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b));
