/** Spec §8: the message of every anonymous-id response that does not carry a usable id. */
export const ANONYMOUS_ID_MISSING_MESSAGE = 'Biscotti ID is missing from server';

/** Spec §5: the anti-hijack prefix an anonymous-id response must begin with. */
export const ANONYMOUS_ID_RESPONSE_PREFIX = ")]}'";

/**
 * Reads the anonymous id out of the ads host's answer (spec §5, §8). The text must begin with `)]}'`; the JSON after
 * it (a newline in between is allowed) must be an object whose `type` is 1 or absent and whose `id` is a non-empty
 * string. Anything else counts as missing.
 *
 * ```
 * )]}'\n{"id":"AbC","type":1}   → 'AbC'
 * {"id":"AbC"}                   → throws (no prefix)
 * )]}'{"id":"AbC","type":2}     → throws (type)
 * ```
 *
 * @throws Error with {@link ANONYMOUS_ID_MISSING_MESSAGE} (`Biscotti ID is missing from server`) for every failure.
 */
export function parseAnonymousIdResponse(text: string): string {
  const missing = () => new Error(ANONYMOUS_ID_MISSING_MESSAGE);
  if (typeof text !== 'string' || !text.startsWith(ANONYMOUS_ID_RESPONSE_PREFIX)) throw missing();
  let body: unknown;
  try {
    body = JSON.parse(text.slice(ANONYMOUS_ID_RESPONSE_PREFIX.length).replace(/^\r?\n/, ''));
  } catch {
    throw missing();
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw missing();
  const { id, type } = body as { id?: unknown; type?: unknown };
  if (type !== undefined && type !== 1) throw missing();
  if (typeof id !== 'string' || id.length === 0) throw missing();
  return id;
}
