/** The `@type` suffixes of the error details that are a response in their own right (spec §7). */
export const UNWRAPPABLE_RESPONSE_TYPE_SUFFIXES = ['BrowseResponse', 'PlayerResponse'] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Spec §7 "A response with error details may be unwrapped when its type is a browse or player response": an error
 * answer `{ error: { code, message, details: [{ '@type': '…/vidframe.PlayerResponse', …fields }] } }` says "this is
 * the response, delivered with an error status" (e.g. an unplayable video's player response). The first detail whose
 * `@type` ends in `BrowseResponse` or `PlayerResponse` is returned without its `@type`; any other body — text, no
 * `error`, no `details`, details of other types — gives `undefined`, so the caller keeps treating it as a failure.
 * Pure; never throws, whatever the body is.
 */
export function unwrapErrorDetails(body: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(body) || !isPlainObject(body.error)) return undefined;
  const details = body.error.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (!isPlainObject(detail)) continue;
    const type = detail['@type'];
    if (typeof type !== 'string' || !UNWRAPPABLE_RESPONSE_TYPE_SUFFIXES.some((suffix) => type.endsWith(suffix))) continue;
    const { '@type': _type, ...response } = detail;
    return response;
  }
  return undefined;
}
